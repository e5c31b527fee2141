// What pose a frame shows, from Human's face mesh (angles in Human's convention, the same one the
// synthetic corpus uses: yaw > 0 = subject turned to their right, pitch > 0 = looking down;
// docs/corpus.md "Liveness captures"). Thresholds sit between the centre readings (within ±5°) and
// the held poses (measured 10–24° for 20° turns, 11–24° for 15° nods on the corpus).
// Type-only import: this module is also bundled into the browser app, which must not pull Human's Node
// loader (src/platform/ml/human.ts) in.
import type { FaceMesh } from '../platform/ml/human.ts';
import type { LivenessStep } from './liveness-challenge-steps.ts';

/** The landmarks' bounding box in pixels (tighter than Human's box, which is padded and clipped). */
export function meshBounds(mesh: FaceMesh): { x0: number; y0: number; x1: number; y1: number } {
  let [x0, y0] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  let [x1, y1] = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (const p of mesh.landmarks) {
    [x0, y0, x1, y1] = [Math.min(x0, p.x), Math.min(y0, p.y), Math.max(x1, p.x), Math.max(y1, p.y)];
  }
  return { x0, y0, x1, y1 };
}

export type FramePose = 'center' | LivenessStep | 'between';

export const POSE_THRESHOLDS = {
  /** |yaw| at or above this is a turn. */
  turnYaw: 10,
  /** |pitch| at or above this is a nod up or down. */
  nodPitch: 9,
  /** Within these, the face is frontal. */
  centreYaw: 7,
  centrePitch: 7,
  /** Face width over the baseline frontal width from which the face came closer. */
  closerRatio: 1.2,
  /** Below this ratio a frontal face is at the baseline distance. */
  sameDistanceRatio: 1.1,
} as const;

/** Horizontal extent of the mesh: Human's box is padded and clipped, the landmarks are not. */
export function faceWidth(mesh: FaceMesh): number {
  const { x0, x1 } = meshBounds(mesh);
  return x1 - x0;
}

/**
 * The pose a frame shows. `baselineWidth` is the face width of the frontal frame at the start
 * (null while it is not known: then no frame can be "closer").
 */
export function classifyHeadPose(mesh: FaceMesh, baselineWidth: number | null): FramePose {
  const { yaw, pitch } = mesh.rotation;
  const t = POSE_THRESHOLDS;
  const ratio = baselineWidth ? faceWidth(mesh) / baselineWidth : 1;
  if (Math.abs(yaw) >= t.turnYaw && Math.abs(pitch) < t.nodPitch) return yaw < 0 ? 'turn_left' : 'turn_right';
  if (Math.abs(pitch) >= t.nodPitch && Math.abs(yaw) < t.turnYaw) return pitch < 0 ? 'look_up' : 'look_down';
  if (Math.abs(yaw) < t.centreYaw && Math.abs(pitch) < t.centrePitch) {
    if (ratio >= t.closerRatio) return 'move_closer';
    if (ratio < t.sameDistanceRatio) return 'center';
  }
  return 'between';
}
