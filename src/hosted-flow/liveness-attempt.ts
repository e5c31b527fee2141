// POST /verify/api/liveness/attempts (issue 5 item 3): the frames of one attempt at an issued
// challenge. Frames are decoded and checked as uploads first (a bad file costs no attempt); then
// the challenge is used up and the attempt counted in one statement pair, before the slow
// verification, so a challenge can never be answered twice, even by concurrent requests.
import { randomBytes } from 'node:crypto';
import {
  isLivenessStep,
  type LivenessFrame,
  MAX_LIVENESS_ATTEMPTS,
  verifyLivenessFrames,
} from '../liveness/index.ts';
import { openBlobStore } from '../platform/blobs/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import type { Platform } from '../platform/platform.ts';
import { decodeUploadImage } from './decode-upload-image.ts';
import { livenessBlobKey } from './document-types.ts';
import { type FlowContext, requireOpenFlow } from './flow-session.ts';
import { claimChallenge, recordLivenessAttempt } from './hosted-flow-repository.ts';

export const MAX_LIVENESS_FRAMES = 30;
export const MIN_LIVENESS_FRAMES = 4;
/** Frames are analysed at this longer side: Human's detector works at 256 px anyway. */
const FRAME_SIDE = 640;

export interface LivenessUpload {
  challengeId: string;
  /** Milliseconds since the capture started, one per frame, in upload order. */
  timestamps: number[];
  frames: Buffer[];
}

export interface LivenessAttemptResult {
  passed: boolean;
  /** success / failed once decided; pending while attempts are left. */
  livenessStatus: 'success' | 'failed' | 'pending';
  confidence: number;
  failures: string[];
  attemptsLeft: number;
}

export async function submitLivenessAttempt(
  platform: Platform,
  context: FlowContext,
  upload: LivenessUpload,
): Promise<LivenessAttemptResult> {
  requireOpenFlow(context);
  const { session } = context;
  if (session.liveness_status !== null) throw new AppError('FlowStepOutOfOrder', 'The face check is done');
  const count = upload.frames.length;
  if (count < MIN_LIVENESS_FRAMES || count > MAX_LIVENESS_FRAMES || upload.timestamps.length !== count) {
    throw new AppError(
      'ValidationFailed',
      `Send ${MIN_LIVENESS_FRAMES}-${MAX_LIVENESS_FRAMES} frames and one timestamp per frame`,
      [{ path: '/frames', message: `got ${count} frames and ${upload.timestamps.length} timestamps` }],
    );
  }
  const decoded = [];
  for (const bytes of upload.frames) {
    decoded.push(
      await decodeUploadImage(bytes, { maxSide: FRAME_SIDE, greySide: 64, withRgb: true, jpegQuality: 85 }),
    );
  }

  const claimed = await platform.database.db.transaction().execute(async (trx) => {
    const result = await claimChallenge(trx, {
      sessionId: session.id,
      challengeId: upload.challengeId,
      now: platform.now(),
      maxAttempts: MAX_LIVENESS_ATTEMPTS,
    });
    // Thrown inside the transaction: it rolls back, so nothing is used up.
    if (result === 'exhausted') throw new AppError('LivenessAttemptsExhausted');
    if (result === 'invalid') throw new AppError('LivenessChallengeInvalid');
    return result;
  });
  const steps = claimed.steps.filter(isLivenessStep);
  const frames: LivenessFrame[] = decoded.map((image, i) => ({
    t: upload.timestamps[i] ?? Number.NaN,
    image: { data: image.rgb!.data, width: image.rgb!.width, height: image.rgb!.height, channels: 3 },
  }));
  // The capture cannot be longer than the time since the challenge was issued (1 s of clock slack).
  const elapsed = platform.now().getTime() - claimed.issued_at.getTime() + 1000;
  const span = Math.max(...upload.timestamps) - Math.min(...upload.timestamps);
  const verdict = await verifyLivenessFrames(steps, frames);
  const failures: string[] = [...verdict.failures];
  if (span > elapsed && !failures.includes('timestamps_invalid')) failures.push('timestamps_invalid');
  const passed = verdict.passed && failures.length === 0;
  const attemptsUsed = session.liveness_attempts + 1;
  const isLast = attemptsUsed >= MAX_LIVENESS_ATTEMPTS;

  // Frames of every attempt are kept (encrypted) for the selfie spoof check and for review.
  const blobs = openBlobStore(platform.config, platform.keyring);
  const nonce = randomBytes(4).toString('hex');
  const frameBlobs = decoded.map((_, i) =>
    livenessBlobKey(session.id, claimed.id, `${nonce}-frame-${String(i).padStart(2, '0')}`),
  );
  for (const [i, image] of decoded.entries()) await blobs.putBlob(frameBlobs[i]!, image.jpeg);
  const referenceBlob =
    passed && verdict.referenceIndex !== null ? (frameBlobs[verdict.referenceIndex] ?? null) : null;
  const confidence = passed ? verdict.confidence : 0;
  const outcome = passed
    ? { status: 'success' as const, referenceBlob }
    : isLast
      ? { status: 'failed' as const, referenceBlob: null }
      : null;
  try {
    await platform.database.db.transaction().execute((trx) =>
      recordLivenessAttempt(trx, {
        sessionId: session.id,
        challengeId: claimed.id,
        passed,
        confidence,
        failures,
        frameBlobs,
        outcome,
        now: platform.now(),
      }),
    );
  } catch (error) {
    for (const key of frameBlobs) await blobs.deleteBlob(key);
    throw error;
  }
  return {
    passed,
    livenessStatus: outcome?.status ?? 'pending',
    confidence,
    failures,
    attemptsLeft: outcome ? 0 : MAX_LIVENESS_ATTEMPTS - attemptsUsed,
  };
}
