// What pose a frame shows, from Human's face mesh (angles in Human's convention, the same one the
// synthetic corpus uses: yaw > 0 = subject turned to their right, pitch > 0 = looking down;
// docs/corpus.md "Liveness captures"). Thresholds sit between the centre readings and the held
// poses, measured on 99 bona fide corpus captures of 11 frames: frontal |yaw| ≤ 5.9°, |pitch| ≤ 5.0°;
// 20° turns read 10.6–24°; 15° nods read 6–24° (Human reads a nod up weaker than one down). A turn
// often reads some pitch too (6.8° seen) and a nod some yaw (9.1°): the axis that passes its
// threshold by the larger factor names the pose, so a held pose is never lost to the other axis.
// This module is also bundled into the browser app: Human's types only, never its Node loader
// (src/platform/ml/human.ts); median comes from a pure module for the same reason.
import { median } from '../platform/math/median.ts';
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
  turnYaw: 9,
  /** |pitch| at or above this is a nod up or down (was 9: one capture in fourteen had a nod unseen). */
  nodPitch: 6.5,
  /** Within these, the face is frontal. */
  centreYaw: 7,
  centrePitch: 6,
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

/** Angles the face mesh reads for a face looking straight at the camera (degrees). */
export interface PoseOffset {
  yaw: number;
  pitch: number;
}

/**
 * How a whole capture's frontal frames read: a camera held below the face reads every frame a
 * few degrees "up" (the corpus's frontal frames read pitch −5.3° to +4.1°, its weakest nod up
 * −6.5°). Poses measured from the capture's own frontal reading keep that margin. Zero when no
 * frame reads frontal.
 */
export function frontalOffset(meshes: readonly FaceMesh[]): PoseOffset {
  const t = POSE_THRESHOLDS;
  const frontal = meshes.filter(
    (m) => Math.abs(m.rotation.yaw) < t.centreYaw && Math.abs(m.rotation.pitch) < t.centrePitch,
  );
  if (frontal.length === 0) return { yaw: 0, pitch: 0 };
  return {
    yaw: median(frontal.map((m) => m.rotation.yaw)),
    pitch: median(frontal.map((m) => m.rotation.pitch)),
  };
}

/**
 * The pose a frame shows. `baselineWidth` is the face width of the frontal frame at the start
 * (null while it is not known: then no frame can be "closer"); `offset`, the capture's frontal
 * reading (frontalOffset), is taken off the mesh's angles.
 */
export function classifyHeadPose(
  mesh: FaceMesh,
  baselineWidth: number | null,
  offset: PoseOffset = { yaw: 0, pitch: 0 },
): FramePose {
  const yaw = mesh.rotation.yaw - offset.yaw;
  const pitch = mesh.rotation.pitch - offset.pitch;
  const t = POSE_THRESHOLDS;
  const ratio = baselineWidth ? faceWidth(mesh) / baselineWidth : 1;
  const turn = Math.abs(yaw) / t.turnYaw;
  const nod = Math.abs(pitch) / t.nodPitch;
  if (turn >= 1 && turn >= nod) return yaw < 0 ? 'turn_left' : 'turn_right';
  if (nod >= 1) return pitch < 0 ? 'look_up' : 'look_down';
  if (Math.abs(yaw) < t.centreYaw && Math.abs(pitch) < t.centrePitch) {
    if (ratio >= t.closerRatio) return 'move_closer';
    if (ratio < t.sameDistanceRatio) return 'center';
  }
  return 'between';
}
