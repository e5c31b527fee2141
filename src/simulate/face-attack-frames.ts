// The camera frames of the face presentation attacks the simulator and bench:pad play
// (docs/spoof-checks.md "Passive detection"): the victim's face made to answer the challenge —
// a 3D head built from a photo, as the corpus builds every live face — and then
//   - video-replay: shown on a phone or monitor and filmed by the camera: the panel's subpixel
//     grid and the moiré it makes with the sensor's pixels, the screen's gamma and white point, a
//     reflection across the glass, the bezel at the edge, the screen's own focus;
//   - printed-photo: one frontal picture printed on paper (halftone, toner, grain) and held up
//     (the photo-attack persona's frames are a clean picture; this one is rendered as the print
//     it is, for the passive detector's measurement);
//   - face-injection: the rendered frames fed straight in as the camera (a virtual camera): no
//     optics, no screen; what betrays it is what the frames lack (their timing, noise and
//     reaction to the page), not what they show.
import sharp from 'sharp';
import type { LivenessStep } from '../liveness/index.ts';
import {
  drawPrintedCopyParameters,
  drawScreenReplayParameters,
  printCopy,
  showOnScreen,
} from '../synth/document-attacks.ts';
import type { FaceSceneParameters } from '../synth/face-scene.ts';
import { POSES, Random, renderHeadPose } from '../synth/index.ts';
import type { RgbImage } from '../synth/photograph-document.ts';
import type { FlatImage } from '../synth/render-document.ts';
import { renderChallengeFrames } from './render-challenge-frames.ts';

export const FACE_ATTACKS = ['video-replay', 'printed-photo', 'face-injection'] as const;
export type FaceAttack = (typeof FACE_ATTACKS)[number];

/** How the attacker's screen or print sits before the camera, drawn once per capture. */
export interface RefilmParameters {
  /** Width of the shown picture (screen panel or print) in camera pixels, as a fraction of the frame's. */
  fill: number;
  /** Centre offset (fraction of the frame) and turn (degrees) of the held screen or print. */
  shift: [number, number];
  angle: number;
  /** Defocus of the camera on the screen's glass or the paper (sharp's Gaussian σ, px). */
  blur: number;
  /** Screen gamma against the camera's (> 1: midtones darker), and the exposure gain. */
  gamma: number;
  gain: number;
  /** A soft reflection of a light on the glass or paper: centre (fractions), radius (fraction), strength (0..255). */
  reflection: { x: number; y: number; radius: number; strength: number };
  /** Sensor noise of the filming camera, σ in grey levels. */
  noise: number;
  seed: number;
}

export function drawRefilmParameters(random: Random): RefilmParameters {
  const r2 = (v: number) => Math.round(v * 100) / 100;
  return {
    fill: r2(random.range(1.02, 1.25)),
    shift: [r2(random.range(-0.04, 0.04)), r2(random.range(-0.04, 0.04))],
    angle: r2(random.range(-4, 4)),
    blur: r2(random.range(0.4, 0.9)),
    gamma: r2(random.range(1.05, 1.3)),
    gain: r2(random.range(0.9, 1.1)),
    reflection: {
      x: r2(random.range(0.1, 0.9)),
      y: r2(random.range(0.1, 0.6)),
      radius: r2(random.range(0.2, 0.45)),
      strength: Math.round(random.range(25, 70)),
    },
    noise: r2(random.range(1.5, 3.5)),
    seed: random.int(0, 2 ** 30),
  };
}

/**
 * `shown` (RGBA, as showOnScreen and printCopy draw it) filmed by a `width`×`height` camera: scaled
 * to `fill` of the frame by nearest sampling (the sensor samples the panel's grid without a
 * low-pass filter: that aliasing is the moiré), turned and shifted, defocused, gamma and gain,
 * the reflection, the camera's noise. Outside the held object: a dim room.
 */
export async function filmHeldPicture(
  shown: FlatImage,
  width: number,
  height: number,
  params: RefilmParameters,
): Promise<RgbImage> {
  const scale = (params.fill * width) / shown.width;
  const cos = Math.cos((params.angle * Math.PI) / 180);
  const sin = Math.sin((params.angle * Math.PI) / 180);
  const cx = width * (0.5 + params.shift[0]);
  const cy = height * (0.5 + params.shift[1]);
  const random = new Random(params.seed);
  const out = Buffer.alloc(width * height * 3);
  // Two samples per camera pixel along each axis, averaged: a sensor's pixel area, still aliasing.
  const offsets = [-0.25, 0.25];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sum = [0, 0, 0];
      for (const oy of offsets) {
        for (const ox of offsets) {
          const dx = x + ox - cx;
          const dy = y + oy - cy;
          const u = Math.floor((cos * dx + sin * dy) / scale + shown.width / 2);
          const v = Math.floor((-sin * dx + cos * dy) / scale + shown.height / 2);
          const inside = u >= 0 && v >= 0 && u < shown.width && v < shown.height;
          for (let c = 0; c < 3; c++)
            sum[c]! += inside ? shown.data[(v * shown.width + u) * 4 + c]! : 48 + 8 * c;
        }
      }
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) out[o + c] = Math.round(sum[c]! / 4);
    }
  }
  const blurred = await sharp(out, { raw: { width, height, channels: 3 } })
    .blur(Math.max(0.3, params.blur))
    .raw()
    .toBuffer();
  const { reflection: light } = params;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = Math.hypot(x / width - light.x, y / height - light.y) / light.radius;
      const sheen = light.strength * Math.exp(-d * d);
      const noise = random.normal() * params.noise;
      for (let c = 0; c < 3; c++) {
        const o = (y * width + x) * 3 + c;
        const v = 255 * (blurred[o]! / 255) ** params.gamma * params.gain + sheen + noise;
        blurred[o] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
      }
    }
  }
  return { data: blurred, width, height };
}

function withAlpha(image: RgbImage): FlatImage {
  const data = Buffer.alloc(image.width * image.height * 4, 255);
  for (let i = 0, j = 0; i < image.data.length; i += 3, j += 4) image.data.copy(data, j, i, i + 3);
  return { data, width: image.width, height: image.height };
}

/**
 * The frames of one attack attempt at a challenge, in capture order (the same 15-frame plan as a
 * genuine capture: render-challenge-frames.ts). Deterministic in (`label`, steps).
 */
export async function renderFaceAttackFrames(
  attack: FaceAttack,
  photoFile: string,
  steps: readonly LivenessStep[],
  scene: FaceSceneParameters,
  label: string,
  onFrame?: (index: number) => void,
): Promise<RgbImage[]> {
  const random = new Random(`${label}:${attack}:${steps.join(',')}`);
  if (attack === 'face-injection') {
    return (await renderChallengeFrames(photoFile, steps, scene, onFrame)).map((f) => f.image);
  }
  const film = drawRefilmParameters(random.fork('film'));
  if (attack === 'printed-photo') {
    // One print, held still: every frame films the same paper (the camera's noise differs). It is
    // printed at 4× the frame's pixels, so the halftone is as fine against the face as a print's.
    const face = await renderHeadPose(photoFile, POSES.center, scene);
    const large = await sharp(face.data, { raw: { width: face.width, height: face.height, channels: 3 } })
      .resize(face.width * 4, face.height * 4, { kernel: 'cubic' })
      .raw()
      .toBuffer();
    const paper = printCopy(
      withAlpha({ data: large, width: face.width * 4, height: face.height * 4 }),
      drawPrintedCopyParameters(random.fork('print')),
    );
    const frames: RgbImage[] = [];
    for (let i = 0; i < 15; i++) {
      frames.push(await filmHeldPicture(paper, scene.width, scene.height, { ...film, seed: film.seed + i }));
      onFrame?.(i);
    }
    return frames;
  }
  // The screen shows the answering face larger than the camera's frame (a phone held close).
  const screen = { ...drawScreenReplayParameters(random.fork('screen')), bezel: 0.03 };
  const shown = await renderChallengeFrames(photoFile, steps, scene);
  const frames: RgbImage[] = [];
  for (const [i, frame] of shown.entries()) {
    frames.push(
      await filmHeldPicture(showOnScreen(frame.image, screen), scene.width, scene.height, {
        ...film,
        seed: film.seed + i,
      }),
    );
    onFrame?.(i);
  }
  return frames;
}
