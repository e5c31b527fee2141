// Passive presentation-attack detection on the frames of a live capture (docs/spoof-checks.md
// "Passive detection"): the MiniFASNet nets (platform/ml/face-antispoof.ts) on the face each frame's
// Human mesh found, the box being the mesh's extent. A capture is judged by the median "live"
// probability of the frames scored, so one odd frame (motion blur, a turned head the nets were not
// trained on) moves nothing. Used by the live check (on a sample of its frames, to keep its answer
// time) and by the selfie spoof check.

import { median } from '../platform/math/median.ts';
import { type FaceAntispoofScore, scoreFaceAntispoof } from '../platform/ml/face-antispoof.ts';
import { type FaceMesh, type RawImage, rgbData } from '../platform/ml/human.ts';
import { meshBounds } from './classify-head-pose.ts';

export const PASSIVE_PAD = {
  /**
   * A capture whose median "live" probability is below this is a presentation attack. Chosen on
   * bench:pad's synthetic bona fide captures of seeds 1–12 and the committed corpus's (lowest
   * 0.14: the corpus's faces, re-rendered from small group photos, look half like pictures to
   * the nets), with margin under them; the real stills were not used to choose it.
   */
  attackBelow: 0.05,
  /** Frames scored per live-check answer: evenly spread, the first and last included. */
  liveCheckFrames: 3,
} as const;

export interface PassivePadReading {
  /** Per scored frame: its index and the nets' probabilities (null: no face in it). */
  frames: { index: number; score: FaceAntispoofScore | null }[];
  /** Median "live" over the frames with a face; null when none had one. */
  live: number | null;
}

/** `count` indices spread evenly over `n` frames, first and last included (all when n ≤ count). */
export function spreadIndices(n: number, count: number): number[] {
  if (n <= count) return Array.from({ length: n }, (_, i) => i);
  if (count <= 1) return [0];
  return [...new Set(Array.from({ length: count }, (_, k) => Math.round((k * (n - 1)) / (count - 1))))];
}

/** The nets on the face of each frame in `indices` (meshes[i] is frame i's, or null). */
export async function readPassivePad(
  images: readonly RawImage[],
  meshes: readonly (FaceMesh | null | undefined)[],
  indices: readonly number[],
): Promise<PassivePadReading> {
  const frames: PassivePadReading['frames'] = [];
  for (const index of indices) {
    const image = images[index];
    const mesh = meshes[index];
    if (!image || !mesh) {
      frames.push({ index, score: null });
      continue;
    }
    const { x0, y0, x1, y1 } = meshBounds(mesh);
    const box = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
    const region = { data: rgbData(image), width: image.width, height: image.height };
    frames.push({
      index,
      score: box.width > 1 && box.height > 1 ? await scoreFaceAntispoof(region, box) : null,
    });
  }
  const lives = frames.flatMap((f) => (f.score ? [f.score.live] : []));
  return { frames, live: lives.length > 0 ? median(lives) : null };
}

/** Whether a reading is a presentation attack by the threshold above. */
export function isPassiveAttack(reading: PassivePadReading): boolean {
  return reading.live !== null && reading.live < PASSIVE_PAD.attackBelow;
}
