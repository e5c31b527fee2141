// Server verification of a live face capture (docs/hosted-flow-api.md). The browser's own
// reading is not trusted: Human's face mesh runs again on every frame here, and the check passes
// only when
//   1. a face is in every frame,
//   2. it is the same person throughout (face-api descriptors of the frontal reference frame and
//      of a frontal frame before the first and after every movement, and of the last frame,
//      compared to a same-capture threshold),
//   3. the poses occur in the issued order (after a frontal start, the held poses, with
//      in-between frames ignored, are exactly the challenge's steps in order) within the window,
//   4. the passive detector (passive-pad.ts), on a few of the frames, does not see a printed or
//      screen-shown face: a face animated to answer any pose order is still a picture.
// Single use and the time limit of the challenge itself are the caller's (submit-liveness-attempt.ts).
import { describeFaceInBox, faceDescriptorDistance } from '../platform/ml/face-api.ts';
import { detectFaceMeshes, type FaceMesh, type RawImage, rgbData } from '../platform/ml/human.ts';
import {
  classifyHeadPose,
  type FramePose,
  faceWidth,
  frontalOffset,
  meshBounds,
} from './classify-head-pose.ts';
import type { LivenessStep } from './liveness-challenge-steps.ts';
import {
  isPassiveAttack,
  PASSIVE_PAD,
  type PassivePadReading,
  readPassivePad,
  spreadIndices,
} from './passive-pad.ts';
import { measureScreenLight, type ScreenLightReading } from './screen-light.ts';

export interface LivenessFrame {
  /** Milliseconds since the capture started, as the browser recorded it. */
  t: number;
  image: RawImage;
}

export type LivenessFailure =
  | 'no_face'
  | 'no_frontal_start'
  | 'pose_order_mismatch'
  | 'face_changed'
  | 'timestamps_invalid'
  | 'presentation_attack';

export interface FrameReading {
  t: number;
  pose: FramePose | 'no_face';
  /** Degrees from the capture's frontal reading (frontalOffset), as the pose was judged. */
  yaw: number | null;
  pitch: number | null;
  widthRatio: number | null;
}

export interface LivenessVerdict {
  passed: boolean;
  /** 0..1: how clearly the poses were shown and how alike the faces are (interface §2.5 confidence). */
  confidence: number;
  failures: LivenessFailure[];
  /** Held poses seen, in order (for the log and the tests). */
  observedSteps: LivenessStep[];
  /** The best frontal frame: stored as the reference image. */
  referenceIndex: number | null;
  /** Largest descriptor distance to the reference among the compared frames. */
  maxFaceDistance: number | null;
  frames: FrameReading[];
  /** The passive detector on a sample of the frames (PASSIVE_PAD.liveCheckFrames). */
  passive: PassivePadReading;
  /**
   * How the face's colour followed the challenge's screen-light sequence (screen-light.ts); null
   * when the challenge had none. A measurement for the selfie spoof check, not a failure here.
   */
  screenLight: ScreenLightReading | null;
}

export const LIVENESS_LIMITS = {
  minFrames: 4,
  maxFrames: 20,
  /** The whole capture must fit in this span (ms). */
  maxSpanMs: 60_000,
  /**
   * Same capture, same camera: frontal-to-frontal distances of one person measured 0.10–0.34 on
   * the corpus, another person 0.6+; face-api's usual cut-off between photos is 0.6.
   */
  maxFaceDistance: 0.5,
} as const;

/**
 * Descriptor of the face in a frame, in the square around its mesh: face-api's own detector does
 * not run again (it cost two thirds of a descriptor's time; the distances are the same, measured
 * on the corpus captures).
 */
async function describeFrameFace(frame: LivenessFrame, mesh: FaceMesh): Promise<Float32Array> {
  const { x0, y0, x1, y1 } = meshBounds(mesh);
  const side = Math.max(x1 - x0, y1 - y0);
  const box = { x: (x0 + x1 - side) / 2, y: (y0 + y1 - side) / 2, width: side, height: side };
  const { width, height } = frame.image;
  return describeFaceInBox({ data: rgbData(frame.image), width, height }, box, {
    jitter: [1],
    flipAverage: false,
  });
}

/**
 * The frames whose face must be the reference's: the first frontal frame, the first frontal
 * frame after each held movement, and the last frame. A face swapped in at any point shows at
 * the next checkpoint, wherever the reference (the best frontal frame) lies. Descriptors of
 * frontal frames are compared because held poses spread a person's distances (up to 0.49 from
 * frontal on the corpus) into other people's range.
 */
export function sameFaceCheckpoints(readings: readonly Pick<FrameReading, 'pose'>[]): number[] {
  const out: number[] = [];
  let afterMovement = true;
  for (const [i, { pose }] of readings.entries()) {
    if (pose === 'center' && afterMovement) out.push(i);
    if (pose !== 'between' && pose !== 'no_face') afterMovement = pose !== 'center';
  }
  const last = readings.length - 1;
  if (last >= 0 && out.at(-1) !== last) out.push(last);
  return out;
}

function collapse(poses: FramePose[]): LivenessStep[] {
  const out: LivenessStep[] = [];
  for (const pose of poses) {
    if (pose === 'center' || pose === 'between') continue;
    if (out[out.length - 1] !== pose) out.push(pose);
  }
  return out;
}

/** How far the frame shows its pose, 0..1 (1 at or beyond the corpus's target angles). */
function poseStrength(reading: FrameReading): number {
  const yaw = Math.abs(reading.yaw ?? 0);
  const pitch = Math.abs(reading.pitch ?? 0);
  switch (reading.pose) {
    case 'turn_left':
    case 'turn_right':
      return Math.min(1, yaw / 18);
    case 'look_up':
    case 'look_down':
      return Math.min(1, pitch / 13);
    case 'move_closer':
      return Math.min(1, ((reading.widthRatio ?? 1) - 1) / 0.3);
    default:
      return 0;
  }
}

export async function verifyLivenessFrames(
  steps: readonly LivenessStep[],
  frames: readonly LivenessFrame[],
  lightSequence: readonly string[] = [],
): Promise<LivenessVerdict> {
  const failures = new Set<LivenessFailure>();
  const ordered = [...frames].sort((a, b) => a.t - b.t);
  const times = ordered.map((f) => f.t);
  const hasBadTimes =
    frames.some((f, i) => !Number.isFinite(f.t) || f.t < 0 || (i > 0 && f.t <= (frames[i - 1]?.t ?? 0))) ||
    (times.at(-1) ?? 0) - (times[0] ?? 0) > LIVENESS_LIMITS.maxSpanMs;
  if (hasBadTimes) failures.add('timestamps_invalid');

  // 1. A face in every frame.
  const meshes = await detectFaceMeshes(ordered.map((frame) => frame.image));
  if (meshes.some((m) => !m)) failures.add('no_face');

  // 3. Poses: the baseline is the first frontal frame, which must come before any held pose;
  // angles are measured from the capture's frontal reading (frontalOffset).
  let baselineWidth: number | null = null;
  const offset = frontalOffset(meshes.filter((m): m is FaceMesh => m !== null && m !== undefined));
  const readings: FrameReading[] = [];
  for (const [i, mesh] of meshes.entries()) {
    const t = ordered[i]?.t ?? 0;
    if (!mesh) {
      readings.push({ t, pose: 'no_face', yaw: null, pitch: null, widthRatio: null });
      continue;
    }
    let pose = classifyHeadPose(mesh, baselineWidth, offset);
    if (baselineWidth === null && pose === 'center') baselineWidth = faceWidth(mesh);
    // Until a frontal start is seen, nothing counts as a held pose.
    if (baselineWidth === null) pose = 'between';
    readings.push({
      t,
      pose,
      yaw: mesh.rotation.yaw - offset.yaw,
      pitch: mesh.rotation.pitch - offset.pitch,
      widthRatio: baselineWidth ? faceWidth(mesh) / baselineWidth : null,
    });
  }
  if (baselineWidth === null) failures.add('no_frontal_start');

  // 4. Passive detection on a few frames spread over the capture (each costs two small nets).
  const images = ordered.map((frame) => frame.image);
  const passive = await readPassivePad(
    images,
    meshes,
    spreadIndices(images.length, PASSIVE_PAD.liveCheckFrames),
  );
  if (isPassiveAttack(passive)) failures.add('presentation_attack');
  const screenLight = lightSequence.length > 0 ? measureScreenLight(lightSequence, ordered, meshes) : null;
  const observedSteps = collapse(readings.map((r) => (r.pose === 'no_face' ? 'between' : r.pose)));
  if (observedSteps.join() !== steps.join()) failures.add('pose_order_mismatch');

  // The reference: the most frontal, best-scored frame at the baseline distance.
  let referenceIndex: number | null = null;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const [i, r] of readings.entries()) {
    const mesh = meshes[i];
    if (r.pose !== 'center' || !mesh) continue;
    const score = mesh.score - (Math.abs(r.yaw ?? 0) + Math.abs(r.pitch ?? 0)) / 30;
    if (score > bestScore) {
      bestScore = score;
      referenceIndex = i;
    }
  }

  // 2. Same person: the reference against every checkpoint (sameFaceCheckpoints).
  let maxFaceDistance: number | null = null;
  if (referenceIndex !== null && !failures.has('no_face')) {
    const reference = await describeFrameFace(ordered[referenceIndex]!, meshes[referenceIndex]!);
    for (const i of sameFaceCheckpoints(readings)) {
      if (i === referenceIndex) continue;
      const other = await describeFrameFace(ordered[i]!, meshes[i]!);
      maxFaceDistance = Math.max(maxFaceDistance ?? 0, faceDescriptorDistance(reference, other));
    }
    if ((maxFaceDistance ?? 0) > LIVENESS_LIMITS.maxFaceDistance) failures.add('face_changed');
  }

  // Confidence: the weakest of the pose strengths (each step's best frame) and the face likeness.
  const strengths = steps.map((step) =>
    Math.max(0, ...readings.filter((r) => r.pose === step).map(poseStrength)),
  );
  const likeness = maxFaceDistance === null ? 0 : Math.max(0, Math.min(1, 1 - maxFaceDistance / 1.0));
  const passed = failures.size === 0;
  const confidence = passed
    ? Math.round(Math.min(...strengths, 1) * 0.5 * 1000 + likeness * 0.5 * 1000) / 1000
    : 0;
  return {
    passed,
    confidence,
    failures: [...failures],
    observedSteps,
    referenceIndex,
    maxFaceDistance,
    frames: readings,
    passive,
    screenLight,
  };
}
