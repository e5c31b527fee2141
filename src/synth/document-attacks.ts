// Presentation attacks on the document image (docs/corpus.md "Attacks"): a document shown on a
// screen and photographed, and a paper copy photographed. Both return a new flat "object" that the
// virtual camera then photographs like a card. A portrait swap glues a print over the card's
// portrait (drawPastedPrint here, drawn by render-document.ts). Record-level attacks (text edit,
// expiry, check digit) change the DocumentRecord instead; see generate-corpus.ts.
import type { RgbImage } from './photograph-document.ts';
import { Random } from './random.ts';
import type { FlatImage, PastedPrint } from './render-document.ts';

export type PrintedCopyParameters = {
  colour: 'grey' | 'colour';
  /** Halftone cell size in sheet pixels. */
  halftoneCell: number;
  /** Halftone screen angle, degrees. */
  halftoneAngle: number;
  /** How much of the binary dot pattern shows (0 = continuous tone, 1 = pure dots). */
  halftoneStrength: number;
  /** Paper tint and grain. */
  paper: [number, number, number];
  paperGrain: number;
  /** Margin of paper around the card, fraction of card width. */
  margin: number;
  /** Toner contrast boost. */
  contrast: number;
  seed: number;
};

export function drawPrintedCopyParameters(random: Random): PrintedCopyParameters {
  return {
    colour: random.chance(0.5) ? 'grey' : 'colour',
    halftoneCell: Math.round(random.range(3, 5.5) * 10) / 10,
    halftoneAngle: random.pick([15, 45, 75]),
    halftoneStrength: Math.round(random.range(0.35, 0.7) * 100) / 100,
    paper: random.pick([
      [248, 247, 242],
      [242, 242, 238],
      [250, 248, 236],
    ] as [number, number, number][]),
    paperGrain: Math.round(random.range(4, 12) * 10) / 10,
    margin: Math.round(random.range(0.12, 0.3) * 100) / 100,
    contrast: Math.round(random.range(1.1, 1.35) * 100) / 100,
    seed: random.int(0, 2 ** 30),
  };
}

function clamp(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

/** A sheet of paper with the card copied onto it: halftone dots, toner contrast, paper grain. */
export function printCopy(card: FlatImage, params: PrintedCopyParameters): FlatImage {
  const margin = Math.round(card.width * params.margin);
  const width = card.width + 2 * margin;
  const height = card.height + 2 * margin;
  const data = Buffer.alloc(width * height * 4);
  const random = new Random(params.seed);
  const angles =
    params.colour === 'grey'
      ? [params.halftoneAngle]
      : [params.halftoneAngle, params.halftoneAngle + 30, params.halftoneAngle + 60];
  const screens = angles.map((a) => [Math.cos((a * Math.PI) / 180), Math.sin((a * Math.PI) / 180)] as const);
  const k = (2 * Math.PI) / params.halftoneCell;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const grain = random.normal() * params.paperGrain;
      const cx = x - margin;
      const cy = y - margin;
      let rgb: [number, number, number] = [params.paper[0], params.paper[1], params.paper[2]];
      if (cx >= 0 && cy >= 0 && cx < card.width && cy < card.height) {
        const s = (cy * card.width + cx) * 4;
        const a = (card.data[s + 3] ?? 0) / 255;
        const src = [0, 1, 2].map((c) => (card.data[s + c] ?? 0) * a + (params.paper[c] ?? 255) * (1 - a));
        const tone =
          params.colour === 'grey'
            ? [0.299 * (src[0] ?? 0) + 0.587 * (src[1] ?? 0) + 0.114 * (src[2] ?? 0)]
            : [src[0] ?? 0, src[1] ?? 0, src[2] ?? 0];
        const printed = tone.map((v, i) => {
          const contrasted = (v - 128) * params.contrast + 128;
          const [dx, dy] = screens[Math.min(i, screens.length - 1)] ?? [1, 0];
          const u = x * dx + y * dy;
          const w = -x * dy + y * dx;
          const threshold = 127.5 + 127.5 * Math.cos(k * u) * Math.cos(k * w);
          const dot = contrasted > threshold ? 255 : 0;
          return contrasted * (1 - params.halftoneStrength) + dot * params.halftoneStrength;
        });
        rgb =
          params.colour === 'grey'
            ? [printed[0] ?? 0, printed[0] ?? 0, printed[0] ?? 0]
            : [printed[0] ?? 0, printed[1] ?? 0, printed[2] ?? 0];
        // Toner sits on paper: never whiter than the paper.
        rgb = [0, 1, 2].map((c) => Math.min(rgb[c] ?? 0, params.paper[c] ?? 255)) as [number, number, number];
      }
      data[o] = clamp(rgb[0] + grain);
      data[o + 1] = clamp(rgb[1] + grain);
      data[o + 2] = clamp(rgb[2] + grain);
      data[o + 3] = 255;
    }
  }
  return { data, width, height };
}

export type ScreenReplayParameters = {
  /** Panel resolution across (panel pixels) and sheet pixels per panel pixel. */
  panelWidth: number;
  pixelPitch: number;
  /** Dark gap between subpixels, 0..1 of a subpixel. */
  gridDarkness: number;
  /** Extra interference banding the camera sees: period (px), angle (deg), amplitude (0..1). */
  moire: { period: number; angle: number; amplitude: number };
  /** Screen reflection: a broad diagonal sheen. */
  glare: { strength: number; position: number; width: number };
  /** Screen white point tint and brightness gain. */
  tint: [number, number, number];
  gain: number;
  bezel: number;
};

export function drawScreenReplayParameters(random: Random): ScreenReplayParameters {
  return {
    panelWidth: random.pick([480, 540, 600]),
    pixelPitch: 3,
    gridDarkness: Math.round(random.range(0.25, 0.55) * 100) / 100,
    moire: {
      period: Math.round(random.range(7, 18) * 10) / 10,
      angle: random.int(0, 179),
      amplitude: Math.round(random.range(0.06, 0.16) * 100) / 100,
    },
    glare: {
      strength: Math.round(random.range(0.15, 0.4) * 100) / 100,
      position: Math.round(random.range(0.2, 0.8) * 100) / 100,
      width: Math.round(random.range(0.08, 0.2) * 100) / 100,
    },
    tint: random.pick([
      [0.94, 0.98, 1.06],
      [1.0, 1.0, 1.0],
      [1.04, 1.0, 0.94],
    ] as [number, number, number][]),
    gain: Math.round(random.range(1.05, 1.2) * 100) / 100,
    bezel: Math.round(random.range(0.03, 0.06) * 1000) / 1000,
  };
}

/**
 * A phone/monitor showing `shown` (an earlier photo of the document): RGB stripe subpixels with
 * dark gaps, moiré banding, reflection sheen, tinted white point and a black bezel.
 */
export function showOnScreen(shown: RgbImage, params: ScreenReplayParameters): FlatImage {
  const panelW = params.panelWidth;
  const panelH = Math.round((panelW * shown.height) / shown.width);
  const p = params.pixelPitch;
  const bezel = Math.round(panelW * p * params.bezel);
  const width = panelW * p + 2 * bezel;
  const height = panelH * p + 2 * bezel;
  const data = Buffer.alloc(width * height * 4);
  const ma = (params.moire.angle * Math.PI) / 180;
  const [mx, my] = [Math.cos(ma), Math.sin(ma)];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      data[o + 3] = 255;
      const sx = x - bezel;
      const sy = y - bezel;
      if (sx < 0 || sy < 0 || sx >= panelW * p || sy >= panelH * p) {
        data[o] = 18;
        data[o + 1] = 18;
        data[o + 2] = 20;
        continue;
      }
      const px = Math.floor(sx / p);
      const py = Math.floor(sy / p);
      // Nearest source pixel for this panel pixel.
      const ix = Math.min(shown.width - 1, Math.floor(((px + 0.5) * shown.width) / panelW));
      const iy = Math.min(shown.height - 1, Math.floor(((py + 0.5) * shown.height) / panelH));
      const s = (iy * shown.width + ix) * 3;
      const sub = sx % p; // 0,1,2 → R,G,B stripe
      const rowGap = sy % p === p - 1 ? 1 - params.gridDarkness : 1;
      const moire =
        1 + params.moire.amplitude * Math.sin((2 * Math.PI * (x * mx + y * my)) / params.moire.period);
      const sheenD = (x / width + y / height) / 2 - params.glare.position;
      const sheen =
        params.glare.strength * 255 * Math.exp(-(sheenD * sheenD) / (2 * params.glare.width ** 2));
      for (let c = 0; c < 3; c++) {
        const lit = c === sub ? 1 : 0.35 * (1 - params.gridDarkness);
        const v =
          (shown.data[s + c] ?? 0) * params.gain * (params.tint[c] ?? 1) * lit * 1.6 * rowGap * moire + sheen;
        data[o + c] = clamp(v);
      }
    }
  }
  return { data, width, height };
}

const round1 = (v: number) => Math.round(v * 10) / 10;
const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * How a glued-on print of the attacker's face sits on the card (card units; the portrait box is
 * about 200 wide): cut by hand to within a few percent of the box, placed within a few units and
 * degrees, printed at home, standing off the card by the paper's thickness.
 */
export function drawPastedPrint(random: Random, photoFile: string): PastedPrint {
  const light = random.range(0, 2 * Math.PI);
  const reach = random.range(1, 3);
  return {
    photoFile,
    scale: round2(random.range(0.96, 1.06)),
    dx: round1(random.range(-6, 6)),
    dy: round1(random.range(-6, 6)),
    rotation: round1(random.range(-3, 3)),
    paperEdge: random.chance(0.4) ? round1(random.range(1, 3)) : 0,
    shadow: {
      dx: round1(reach * Math.cos(light)),
      dy: round1(reach * Math.sin(light)),
      opacity: round2(random.range(0.25, 0.55)),
      blur: round1(random.range(0.8, 2)),
    },
    tone: {
      saturation: round2(random.range(0.9, 1.2)),
      brightness: round2(random.range(0.95, 1.1)),
      contrast: round2(random.range(1, 1.2)),
    },
  };
}
