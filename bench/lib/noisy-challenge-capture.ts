// A 15-frame live face capture as a phone uploads it, for bench:liveness and the liveness tests:
// frames rendered by the corpus generator for a challenge (src/simulate/render-challenge-frames.ts),
// with camera noise (σ 3) and JPEG (quality 85), so that no two frames are byte-identical —
// identical frames would flatter the check's tracking of a head that holds still.
import sharp from 'sharp';
import type { LivenessFrame, LivenessStep } from '../../src/liveness/index.ts';
import { renderChallengeFrames } from '../../src/simulate/render-challenge-frames.ts';
import type { FaceSceneParameters } from '../../src/synth/face-scene.ts';
import { Random } from '../../src/synth/index.ts';

/** Frames 400 ms apart: 3 frontal, each step held twice then released, 3 frontal at the end. */
export async function noisyChallengeCapture(
  photoFile: string,
  steps: readonly LivenessStep[],
  scene: FaceSceneParameters,
  seed: number,
): Promise<LivenessFrame[]> {
  const random = new Random(seed);
  const frames: LivenessFrame[] = [];
  for (const [i, { image }] of (await renderChallengeFrames(photoFile, steps, scene)).entries()) {
    const noisy = Buffer.from(image.data);
    for (let k = 0; k < noisy.length; k++) {
      noisy[k] = Math.max(0, Math.min(255, Math.round((noisy[k] ?? 0) + random.normal() * 3)));
    }
    const raw = { raw: { width: image.width, height: image.height, channels: 3 as const } };
    const jpeg = await sharp(noisy, raw).jpeg({ quality: 85 }).toBuffer();
    const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    frames.push({ t: i * 400, image: { data, width: info.width, height: info.height, channels: 3 } });
  }
  return frames;
}
