// Server verification of a live face capture (issue 5 item 3). The browser's own reading is not
// trusted: Human's face mesh runs again on every frame here, and the check passes only when
//   1. a face is in every frame,
//   2. it is the same person throughout (face-api descriptors of the frontal reference frame and
//      of the frames furthest from it in time and pose, compared to a same-capture threshold),
//   3. the poses occur in the issued order (after a frontal start, the held poses, with
//      in-between frames ignored, are exactly the challenge's steps in order) within the window.
// Single use and the time limit of the challenge itself are the caller's (submit-liveness-attempt.ts).
import sharp from 'sharp';
import { computeFaceDescriptor, faceDescriptorDistance } from '../platform/ml/face-api.ts';
import { detectFaceMesh, type FaceMesh, type RawImage } from '../platform/ml/human.ts';
import { classifyHeadPose, type FramePose, faceWidth } from './classify-head-pose.ts';
import type { LivenessStep } from './liveness-challenge-steps.ts';

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
  | 'timestamps_invalid';

export interface FrameReading {
  t: number;
  pose: FramePose | 'no_face';
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
}

export const LIVENESS_LIMITS = {
  minFrames: 4,
  maxFrames: 30,
  /** The whole capture must fit in this span (ms). */
  maxSpanMs: 60_000,
  /**
   * Same capture, same camera: frontal-to-frontal distances of one person measured 0.10–0.34 on
   * the corpus, another person 0.6+; face-api's usual cut-off between photos is 0.6.
   */
  maxFaceDistance: 0.5,
  /** Descriptors computed per capture (time budget: issue 5 item 9, p95 ≤ 1 s for 15 frames). */
  comparedFrames: 2,
} as const;

/** Descriptor of the face in a frame, computed on a crop around Human's box (small and quick). */
async function describeFrameFace(frame: LivenessFrame, mesh: FaceMesh): Promise<Float32Array | null> {
  const { width, height } = frame.image;
  const [bx, by, bw, bh] = mesh.box;
  const side = Math.max(bw, bh) * 1.6;
  const cx = bx + bw / 2;
  const cy = by + bh / 2;
  const left = Math.max(0, Math.floor(cx - side / 2));
  const top = Math.max(0, Math.floor(cy - side / 2));
  const w = Math.min(width - left, Math.ceil(side));
  const h = Math.min(height - top, Math.ceil(side));
  const crop = await sharp(frame.image.data, {
    raw: { width, height, channels: frame.image.channels },
  })
    .extract({ left, top, width: Math.max(1, w), height: Math.max(1, h) })
    .jpeg({ quality: 92 })
    .toBuffer();
  const description = await computeFaceDescriptor(crop, {
    borders: [{ ratio: 0.25, fill: 'copy' }],
    jitter: [1],
    flipAverage: false,
    tinyInputSize: 224,
  });
  return description?.descriptor ?? null;
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
): Promise<LivenessVerdict> {
  const failures = new Set<LivenessFailure>();
  const ordered = [...frames].sort((a, b) => a.t - b.t);
  const times = ordered.map((f) => f.t);
  const hasBadTimes =
    frames.some((f, i) => !Number.isFinite(f.t) || f.t < 0 || (i > 0 && f.t <= (frames[i - 1]?.t ?? 0))) ||
    (times.at(-1) ?? 0) - (times[0] ?? 0) > LIVENESS_LIMITS.maxSpanMs;
  if (hasBadTimes) failures.add('timestamps_invalid');

  // 1. A face in every frame (one at a time: Human runs one detection at a time).
  const meshes: (FaceMesh | null)[] = [];
  for (const frame of ordered) meshes.push(await detectFaceMesh(frame.image));
  if (meshes.some((m) => !m)) failures.add('no_face');

  // 3. Poses: the baseline is the first frontal frame, which must come before any held pose.
  let baselineWidth: number | null = null;
  const readings: FrameReading[] = [];
  for (const [i, mesh] of meshes.entries()) {
    const t = ordered[i]?.t ?? 0;
    if (!mesh) {
      readings.push({ t, pose: 'no_face', yaw: null, pitch: null, widthRatio: null });
      continue;
    }
    let pose = classifyHeadPose(mesh, baselineWidth);
    if (baselineWidth === null && pose === 'center') baselineWidth = faceWidth(mesh);
    // Until a frontal start is seen, nothing counts as a held pose.
    if (baselineWidth === null) pose = 'between';
    readings.push({
      t,
      pose,
      yaw: mesh.rotation.yaw,
      pitch: mesh.rotation.pitch,
      widthRatio: baselineWidth ? faceWidth(mesh) / baselineWidth : null,
    });
  }
  if (baselineWidth === null) failures.add('no_frontal_start');
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

  // 2. Same person: the reference against the frames most likely to show a swap — the last
  // frontal-ish frame (centre or closer) and the last frame of all.
  let maxFaceDistance: number | null = null;
  if (referenceIndex !== null && !failures.has('no_face')) {
    const reference = await describeFrameFace(ordered[referenceIndex]!, meshes[referenceIndex]!);
    const candidates: number[] = [];
    for (let i = readings.length - 1; i >= 0; i--) {
      const pose = readings[i]?.pose;
      if (i !== referenceIndex && (pose === 'center' || pose === 'move_closer')) {
        candidates.push(i);
        break;
      }
    }
    const last = readings.length - 1;
    if (last !== referenceIndex && !candidates.includes(last)) candidates.push(last);
    for (const i of candidates.slice(0, LIVENESS_LIMITS.comparedFrames)) {
      const other = await describeFrameFace(ordered[i]!, meshes[i]!);
      if (!reference || !other) {
        // A face Human sees but face-api cannot describe is not the same face for sure.
        maxFaceDistance = Math.max(maxFaceDistance ?? 0, 1);
        continue;
      }
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
  };
}
