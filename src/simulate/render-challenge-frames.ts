// Frames that answer a server-issued liveness challenge (docs/hosted-flow-api.md), rendered by
// the synthetic corpus generator's 3D head: a frontal start, each step held and released in the
// issued order, a frontal end — the capture the hosted flow asks the browser for
// (docs/hosted-flow-api.md "liveness/attempts"). Shared by `mimoto simulate` and bench:liveness.
import type { LivenessStep } from '../liveness/index.ts';
import type { FaceSceneParameters } from '../synth/face-scene.ts';
import { POSES, renderHeadPose } from '../synth/index.ts';
import type { RgbImage } from '../synth/photograph-document.ts';

export type RenderedPose = keyof typeof POSES;

/** The server's step names → the generator's pose names (they differ only for "closer"). */
export function poseForStep(step: LivenessStep): RenderedPose {
  return step === 'move_closer' ? 'closer' : step;
}

/** 15 poses for 3 steps: 3 frontal, per step two held and one back to centre, 3 frontal at the end. */
export function planChallengePoses(steps: readonly LivenessStep[]): RenderedPose[] {
  const plan: RenderedPose[] = ['center', 'center', 'center'];
  for (const step of steps) plan.push(poseForStep(step), poseForStep(step), 'center');
  plan.push('center', 'center', 'center');
  return plan;
}

export interface ChallengeFrame {
  pose: RenderedPose;
  image: RgbImage;
}

/** One rendered image per planned pose of `photoFile`'s head in `scene`, in capture order. */
export async function renderChallengeFrames(
  photoFile: string,
  steps: readonly LivenessStep[],
  scene: FaceSceneParameters,
  onFrame?: (index: number) => void,
): Promise<ChallengeFrame[]> {
  const frames: ChallengeFrame[] = [];
  for (const [i, pose] of planChallengePoses(steps).entries()) {
    frames.push({ pose, image: await renderHeadPose(photoFile, POSES[pose], scene) });
    onFrame?.(i);
  }
  return frames;
}
