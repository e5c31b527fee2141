// How a phone photographs a document at each quality level. The ranges here are
// the ones docs/corpus.md publishes; every drawn value is written to the truth.
import type { Random } from './random.ts';

export const QUALITIES = ['clean', 'typical', 'poor'] as const;
export type Quality = (typeof QUALITIES)[number];

type Range = readonly [number, number];

export type QualityRanges = {
  /** Document width as a fraction of the image width. */
  documentWidth: Range;
  /** In-plane rotation, degrees (±). */
  rotation: Range;
  /** Out-of-plane tilt about the horizontal and vertical axes, degrees (±). */
  tilt: Range;
  /** Light falloff: brightness multiplier at the dark side of the gradient. */
  lightingLow: Range;
  /** Specular glare peak added, 0..1 of full white. */
  glare: Range;
  /** Gaussian blur sigma, px (0 = none). */
  blur: Range;
  /** Sensor noise standard deviation, grey levels. */
  noise: Range;
  jpegQuality: Range;
};

export const QUALITY_RANGES: Record<Quality, QualityRanges> = {
  clean: {
    documentWidth: [0.78, 0.86],
    rotation: [0, 2],
    tilt: [0, 4],
    lightingLow: [0.92, 1],
    glare: [0, 0.12],
    blur: [0, 0.3],
    noise: [0.5, 2],
    jpegQuality: [90, 95],
  },
  typical: {
    documentWidth: [0.66, 0.8],
    rotation: [0, 7],
    tilt: [3, 14],
    lightingLow: [0.75, 0.92],
    glare: [0.1, 0.35],
    blur: [0.4, 1.1],
    noise: [2, 5],
    jpegQuality: [75, 88],
  },
  poor: {
    documentWidth: [0.52, 0.68],
    rotation: [5, 16],
    tilt: [12, 26],
    lightingLow: [0.5, 0.75],
    glare: [0.3, 0.65],
    blur: [1.1, 2.2],
    noise: [5, 11],
    jpegQuality: [45, 65],
  },
};

export type BackgroundKind = 'wood' | 'cloth' | 'stone';

export type CaptureParameters = {
  quality: Quality;
  width: number;
  height: number;
  background: { kind: BackgroundKind; colour: [number, number, number]; seed: number };
  documentWidth: number;
  /** Document centre offset from the image centre, as fractions of width and height. */
  offset: [number, number];
  rotation: number;
  tiltX: number;
  tiltY: number;
  lighting: { angle: number; low: number };
  glare: { x: number; y: number; radius: number; strength: number };
  blur: number;
  noise: number;
  noiseSeed: number;
  jpegQuality: number;
};

const BACKGROUNDS: Record<BackgroundKind, [number, number, number][]> = {
  wood: [
    [150, 108, 70],
    [120, 84, 52],
    [176, 138, 98],
  ],
  cloth: [
    [60, 70, 92],
    [90, 90, 96],
    [40, 52, 44],
  ],
  stone: [
    [200, 198, 192],
    [170, 170, 176],
    [110, 110, 112],
  ],
};

function within(random: Random, [min, max]: Range, decimals = 2): number {
  const f = 10 ** decimals;
  return Math.round(random.range(min, max) * f) / f;
}

function signed(random: Random, range: Range, decimals = 2): number {
  return (random.chance(0.5) ? -1 : 1) * within(random, range, decimals);
}

export function drawCaptureParameters(random: Random, quality: Quality, width: number): CaptureParameters {
  const r = QUALITY_RANGES[quality];
  const kind = random.pick(['wood', 'cloth', 'stone'] as const);
  return {
    quality,
    width,
    height: Math.round((width * 3) / 4),
    background: { kind, colour: random.pick(BACKGROUNDS[kind]), seed: random.int(0, 2 ** 30) },
    documentWidth: within(random, r.documentWidth, 3),
    offset: [within(random, [-0.04, 0.04], 3), within(random, [-0.04, 0.04], 3)],
    rotation: signed(random, r.rotation),
    tiltX: signed(random, r.tilt),
    tiltY: signed(random, r.tilt),
    lighting: { angle: within(random, [0, 360], 0), low: within(random, r.lightingLow, 3) },
    glare: {
      x: within(random, [0.2, 0.8], 3),
      y: within(random, [0.2, 0.8], 3),
      radius: within(random, [0.05, 0.18], 3),
      strength: within(random, r.glare, 3),
    },
    blur: within(random, r.blur),
    noise: within(random, r.noise),
    noiseSeed: random.int(0, 2 ** 30),
    jpegQuality: Math.round(within(random, r.jpegQuality, 0)),
  };
}
