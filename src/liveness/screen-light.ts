// The screen-light challenge (docs/spoof-checks.md "Screen light"): while the live check films the
// face, the page fills the screen around the camera view with a random sequence of colours that
// the server drew for this challenge. A face in front of the screen reflects that light: its
// colour, measured on the skin inside the face mesh, drifts towards each colour in turn. Frames
// fed in by a virtual camera, or a recording shown to the camera, were made before the sequence
// existed, so their face's colour does not follow it.
//
// Safe for people sensitive to flashing (WCAG 2.3.1, "Three Flashes or Below Threshold"): a change
// every LIGHT_SEGMENT_MS (two a second), each a cross-fade of LIGHT_FADE_MS, so at most one flash
// (a pair of opposing changes) in any second, where the criterion allows three.
//
// Only a measurement: in bright daylight a phone's screen barely lights a face, so a weak answer
// is not proof of an attack; the selfie spoof check weighs it as one cue (never a block alone).
import { randomInt } from 'node:crypto';
import type { FaceMesh, RawImage } from '../platform/ml/human.ts';
import { meshBounds } from './classify-head-pose.ts';

/**
 * The colours the page shows, as CSS hex. Chosen far apart in chromaticity (what the skin's
 * colour shift is measured in) and of moderate brightness, none a saturated pure red.
 */
export const LIGHT_COLOURS = ['#ff6e6e', '#6eff8c', '#6e8cff', '#ffe66e', '#e66eff'] as const;
export type LightColour = (typeof LIGHT_COLOURS)[number];

/** Each colour is held this long; the sequence covers the longest capture the browser makes. */
export const LIGHT_SEGMENT_MS = 500;
export const LIGHT_SEGMENTS = 110;
/** The browser's cross-fade between two colours (and the camera's own delay) — frames in it are not judged. */
export const LIGHT_FADE_MS = 150;

export const SCREEN_LIGHT = {
  /** Frames, away from colour changes, needed for a reading. */
  minFrames: 6,
  /** Distinct colours among those frames needed for a reading. */
  minColours: 3,
} as const;

/**
 * A uniformly random sequence with no colour twice in a row (crypto random: not guessable; `pick`
 * only for a bench's repeatable draws).
 */
export function drawLightSequence(
  count = LIGHT_SEGMENTS,
  pick: (below: number) => number = randomInt,
): LightColour[] {
  const out: LightColour[] = [];
  while (out.length < count) {
    const colour = LIGHT_COLOURS[pick(LIGHT_COLOURS.length)] as LightColour;
    if (colour !== out.at(-1)) out.push(colour);
  }
  return out;
}

export function isLightColour(value: string): value is LightColour {
  return (LIGHT_COLOURS as readonly string[]).includes(value);
}

export function lightRgb(colour: string): [number, number, number] {
  const n = Number.parseInt(colour.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * The colour shown at capture time `t` (ms since the capture started, as the frames' timestamps
 * count), or null when `t` is in a cross-fade or after the sequence.
 */
export function lightAt(sequence: readonly string[], t: number): string | null {
  const segment = Math.floor(t / LIGHT_SEGMENT_MS);
  if (t < 0 || segment >= sequence.length) return null;
  if (segment > 0 && t - segment * LIGHT_SEGMENT_MS < LIGHT_FADE_MS) return null;
  return sequence[segment] ?? null;
}

export interface ScreenLightReading {
  /**
   * Correlation (−1..1) between the skin's chromaticity and the shown colour's, over the judged
   * frames and the three channels, each centred on its mean; null when too few frames or colours.
   */
  correlation: number | null;
  /** Frames judged (a face, away from a colour change). */
  frames: number;
}

function chromaticity([r, g, b]: readonly number[]): [number, number, number] {
  const sum = (r ?? 0) + (g ?? 0) + (b ?? 0) || 1;
  return [(r ?? 0) / sum, (g ?? 0) / sum, (b ?? 0) / sum];
}

/**
 * Skin patches of the face mesh (MediaPipe's 468-point topology, as Human reads it): the nose's
 * bridge and tip, both cheeks, the forehead. Skin only, whatever way the head turns — a box around
 * the face takes in hair and background as it turns, whose colour changes with the pose.
 */
const SKIN_LANDMARKS = [6, 4, 50, 280, 151] as const;

function meanRgb(
  image: RawImage,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): [number, number, number, number] {
  let [r, g, b, n] = [0, 0, 0, 0];
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(image.height, Math.ceil(y1)); y++) {
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(image.width, Math.ceil(x1)); x++) {
      const i = (y * image.width + x) * image.channels;
      r += image.data[i] ?? 0;
      g += image.data[i + 1] ?? 0;
      b += image.data[i + 2] ?? 0;
      n++;
    }
  }
  return [r, g, b, n];
}

/** Mean RGB of the face's skin: patches at SKIN_LANDMARKS, or the middle of the mesh's box. */
export function skinColour(image: RawImage, mesh: FaceMesh): [number, number, number] {
  const { x0, y0, x1, y1 } = meshBounds(mesh);
  const [w, h] = [x1 - x0, y1 - y0];
  const sum = [0, 0, 0, 0];
  const add = (part: [number, number, number, number]) => {
    for (const [k, v] of part.entries()) sum[k] = (sum[k] ?? 0) + v;
  };
  if (mesh.landmarks.length >= 468) {
    const r = Math.max(1, w * 0.05);
    for (const k of SKIN_LANDMARKS) {
      const p = mesh.landmarks[k];
      if (p) add(meanRgb(image, p.x - r, p.y - r, p.x + r, p.y + r));
    }
  } else {
    add(meanRgb(image, x0 + w * 0.25, y0 + h * 0.2, x1 - w * 0.25, y1 - h * 0.25));
  }
  const n = sum[3] ?? 0;
  return n === 0 ? [0, 0, 0] : [(sum[0] ?? 0) / n, (sum[1] ?? 0) / n, (sum[2] ?? 0) / n];
}

/** How closely the face's colour followed the light sequence over the capture. */
export function measureScreenLight(
  sequence: readonly string[],
  frames: readonly { t: number; image: RawImage }[],
  meshes: readonly (FaceMesh | null | undefined)[],
): ScreenLightReading {
  const seen: [number, number, number][] = [];
  const shown: [number, number, number][] = [];
  for (const [i, frame] of frames.entries()) {
    const mesh = meshes[i];
    const colour = lightAt(sequence, frame.t);
    if (!mesh || !colour) continue;
    seen.push(chromaticity(skinColour(frame.image, mesh)));
    shown.push(chromaticity(lightRgb(colour)));
  }
  const colours = new Set(shown.map((c) => c.join()));
  if (seen.length < SCREEN_LIGHT.minFrames || colours.size < SCREEN_LIGHT.minColours) {
    return { correlation: null, frames: seen.length };
  }
  // Pearson over (frame, channel) pairs, each channel centred on its own mean over the frames: a
  // face's own tint and the room's light are constant over the capture and drop out.
  const xs: number[] = [];
  const ys: number[] = [];
  for (let c = 0; c < 3; c++) {
    const meanSeen = seen.reduce((a, v) => a + v[c]!, 0) / seen.length;
    const meanShown = shown.reduce((a, v) => a + v[c]!, 0) / shown.length;
    for (let k = 0; k < seen.length; k++) {
      xs.push(seen[k]![c]! - meanSeen);
      ys.push(shown[k]![c]! - meanShown);
    }
  }
  let [sxy, sxx, syy] = [0, 0, 0];
  for (let k = 0; k < xs.length; k++) {
    sxy += xs[k]! * ys[k]!;
    sxx += xs[k]! * xs[k]!;
    syy += ys[k]! * ys[k]!;
  }
  const correlation = sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
  return { correlation: Math.round(correlation * 1000) / 1000, frames: seen.length };
}
