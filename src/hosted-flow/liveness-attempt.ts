// POST /verify/api/liveness/attempts (docs/hosted-flow-api.md): the frames of one attempt at an
// issued challenge. The upload is read as it arrives and judged before it is held: the challenge
// id, the timestamps (so the frame count) and the challenge itself are checked at the first file
// part, before any frame is read; each frame is then read (at most MAX_LIVENESS_FRAME_BYTES), its
// header's pixel count held to the frame's and the attempt's budgets before it is decoded (issue
// 46: 49 MP frames took hundreds of MB), decoded and re-encoded at FRAME_SIDE at once, so an attempt
// holds one upload frame at a time. A bad or over-budget file costs no attempt. The verification
// runs (in an inference thread: the API's event loop stays free) while the challenge is still open;
// the challenge is used up, the attempt counted and its verdict stored in one transaction after it,
// so a challenge is never answered twice, even by concurrent requests, and a process that dies
// during the verification — or a verification that cannot finish (503, Retry-After) — costs the
// person nothing: the same challenge can be answered again.
import { randomBytes } from 'node:crypto';
import type { Multipart } from '@fastify/multipart';
import { verifyLivenessInWorker } from '../inference/index.ts';
import {
  type CameraReport,
  cameraSignals,
  isLivenessStep,
  type LivenessStep,
  MAX_LIVENESS_ATTEMPTS,
} from '../liveness/index.ts';
import { openBlobStore } from '../platform/blobs/index.ts';
import { AppError } from '../platform/http/app-error.ts';
import { type MultipartLimits, readFile } from '../platform/http/multipart.ts';
import { isWellFormedText } from '../platform/http/parse-json-body.ts';
import type { Platform } from '../platform/platform.ts';
import { type DecodedUpload, decodeUploadImage } from './decode-upload-image.ts';
import { livenessBlobKey } from './document-types.ts';
import { type FlowContext, requireOpenFlow } from './flow-session.ts';
import { claimChallenge, findOpenChallenge, recordLivenessAttempt } from './hosted-flow-repository.ts';
import { MAX_LIVENESS_ATTEMPT_PIXELS, MAX_LIVENESS_FRAME_PIXELS } from './upload-limits.ts';

/** The browser app sends 10 frames (2 per pose, 5 poses), the simulator 15. */
export const MAX_LIVENESS_FRAMES = 20;
export const MIN_LIVENESS_FRAMES = 4;
// The pixel budgets live beside the other upload limits, which the browser app imports too.
export { MAX_LIVENESS_ATTEMPT_PIXELS, MAX_LIVENESS_FRAME_PIXELS };
/** Seconds a client is asked to wait when the verification could not finish. */
export const LIVENESS_RETRY_AFTER_SECONDS = 5;
/**
 * The app's frames are 640×480 JPEG at quality 0.9 (35–120 KB); a camera that ignores the asked
 * size gives 1920×1080 at most, under 1 MB.
 */
export const MAX_LIVENESS_FRAME_BYTES = 2 * 1024 * 1024;
export const LIVENESS_UPLOAD_LIMITS: MultipartLimits = {
  maxRequestBytes: 16 * 1024 * 1024,
  maxFileBytes: MAX_LIVENESS_FRAME_BYTES,
  maxFiles: MAX_LIVENESS_FRAMES,
  maxFields: 4,
  maxFieldBytes: 4096,
};
/** Frames are analysed at this longer side: Human's detector works at 256 px anyway. */
const FRAME_SIDE = 640;
const CHALLENGE_ID = /^lc_[0-9A-Z]{26}$/;

/** The refusal of frame `index` whose header claims `pixels`, `attemptPixels` the attempt's with it. */
function frameTooManyPixels(index: number, pixels: number, attemptPixels: number): AppError {
  const overFrame = pixels > MAX_LIVENESS_FRAME_PIXELS;
  return new AppError(
    'ImageTooManyPixels',
    overFrame
      ? `A frame may have at most ${MAX_LIVENESS_FRAME_PIXELS} pixels (1920×1080)`
      : `An attempt's frames may have at most ${MAX_LIVENESS_ATTEMPT_PIXELS} pixels together`,
    [
      overFrame
        ? { path: `/frames/${index}`, message: `${pixels} pixels; at most ${MAX_LIVENESS_FRAME_PIXELS}` }
        : {
            path: '/frames',
            message: `${attemptPixels} pixels with frame ${index}; at most ${MAX_LIVENESS_ATTEMPT_PIXELS}`,
          },
    ],
  );
}

export const frameTooLarge = () =>
  new AppError('PayloadTooLarge', `A frame may be at most ${MAX_LIVENESS_FRAME_BYTES / 1048576} MB`, [
    { path: '/frames', message: `at most ${MAX_LIVENESS_FRAME_BYTES} bytes per frame` },
  ]);

/**
 * The sessions whose attempt this process is receiving or verifying: one at a time per session
 * (a second one is refused with 409 before its body is read), so one link cannot multiply the
 * memory and the CPU an attempt takes. Per process, like the memory it protects. An entry older
 * than `staleAfterMs` (an upload whose connection went silent) no longer blocks the session.
 */
export class AttemptsInFlight {
  readonly #sessions = new Map<string, { since: number }>();
  constructor(private readonly staleAfterMs = 60_000) {}

  enter(sessionId: string, now = Date.now()): () => void {
    const current = this.#sessions.get(sessionId);
    if (current && now - current.since < this.staleAfterMs) throw new AppError('LivenessAttemptInProgress');
    const entry = { since: now };
    this.#sessions.set(sessionId, entry);
    return () => {
      if (this.#sessions.get(sessionId) === entry) this.#sessions.delete(sessionId);
    };
  }
}

export interface LivenessAttemptResult {
  passed: boolean;
  /** success / failed once decided; pending while attempts are left. */
  livenessStatus: 'success' | 'failed' | 'pending';
  confidence: number;
  failures: string[];
  attemptsLeft: number;
}

function parseTimestamps(value: string | null): number[] {
  let parsed: unknown = null;
  try {
    parsed = value === null ? null : JSON.parse(value);
  } catch {}
  if (!Array.isArray(parsed) || !parsed.every((t) => typeof t === 'number' && Number.isFinite(t))) {
    throw new AppError('ValidationFailed', 'timestamps must be a JSON array of numbers (ms)', [
      { path: '/timestamps', message: 'must be a JSON array of numbers' },
    ]);
  }
  const count = parsed.length;
  if (count < MIN_LIVENESS_FRAMES || count > MAX_LIVENESS_FRAMES) {
    throw new AppError(
      'ValidationFailed',
      `Send ${MIN_LIVENESS_FRAMES}-${MAX_LIVENESS_FRAMES} frames and one timestamp per frame`,
      [{ path: '/timestamps', message: `got ${count} timestamps` }],
    );
  }
  return parsed;
}

const cameraFieldInvalid = (message: string) =>
  new AppError('ValidationFailed', 'camera must be a JSON object {label, width, height, frameRate}', [
    { path: '/camera', message },
  ]);

/**
 * The optional `camera` field: what the browser's MediaStreamTrack says of the camera (its label
 * and getSettings() size and frame rate), for the injection signals. Absent: nothing reported.
 */
export function parseCameraReport(value: string | null): CameraReport | null {
  if (value === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw cameraFieldInvalid('is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw cameraFieldInvalid('must be an object');
  }
  const record = parsed as Record<string, unknown>;
  const unknownKey = Object.keys(record).find((k) => !['label', 'width', 'height', 'frameRate'].includes(k));
  if (unknownKey) throw cameraFieldInvalid(`unknown field ${unknownKey}`);
  const { label = null, width = null, height = null, frameRate = null } = record;
  if (label !== null && (typeof label !== 'string' || label.length > 200 || !isWellFormedText(label))) {
    throw cameraFieldInvalid('label must be a string of at most 200 characters');
  }
  const size = (v: unknown, name: string) => {
    if (v !== null && !(Number.isInteger(v) && (v as number) > 0 && (v as number) <= 16384)) {
      throw cameraFieldInvalid(`${name} must be a whole number of pixels`);
    }
    return v as number | null;
  };
  if (frameRate !== null && !(typeof frameRate === 'number' && frameRate > 0 && frameRate <= 1000)) {
    throw cameraFieldInvalid('frameRate must be a positive number');
  }
  return {
    label: label as string | null,
    width: size(width, 'width'),
    height: size(height, 'height'),
    frameRate: frameRate as number | null,
  };
}

/** Everything that can be judged before a frame is read: fields, count, the challenge. */
async function checkBeforeFrames(
  platform: Platform,
  context: FlowContext,
  fields: { challengeId: string | null; timestamps: string | null; camera: string | null },
): Promise<number[]> {
  const timestamps = parseTimestamps(fields.timestamps);
  parseCameraReport(fields.camera);
  if (!fields.challengeId || !CHALLENGE_ID.test(fields.challengeId)) {
    throw new AppError('LivenessChallengeInvalid');
  }
  const open = await findOpenChallenge(platform.database.db, {
    sessionId: context.session.id,
    challengeId: fields.challengeId,
    now: platform.now(),
  });
  if (!open) throw new AppError('LivenessChallengeInvalid');
  if (context.session.liveness_attempts >= MAX_LIVENESS_ATTEMPTS) {
    throw new AppError('LivenessAttemptsExhausted');
  }
  return timestamps;
}

/** The verification of an attempt's frames (verifyLivenessInWorker; a test may hand another). */
export type VerifyLiveness = typeof verifyLivenessInWorker;

/**
 * Reads the attempt from the request's parts (`challengeId`, `timestamps`, then the `frames`
 * files, in that order) and verifies it. The caller holds the session's AttemptsInFlight entry.
 */
export async function receiveLivenessAttempt(
  platform: Platform,
  context: FlowContext,
  parts: AsyncIterable<Multipart>,
  verify: VerifyLiveness = verifyLivenessInWorker,
): Promise<LivenessAttemptResult> {
  requireOpenFlow(context);
  const { session } = context;
  if (session.liveness_status !== null) throw new AppError('FlowStepOutOfOrder', 'The face check is done');
  const fields: { challengeId: string | null; timestamps: string | null; camera: string | null } = {
    challengeId: null,
    timestamps: null,
    camera: null,
  };
  let timestamps: number[] | null = null;
  const decoded: DecodedUpload[] = [];
  let attemptPixels = 0;
  for await (const part of parts) {
    if (part.type === 'field') {
      if (timestamps) {
        throw new AppError('ValidationFailed', 'Send challengeId and timestamps before the frames');
      }
      if (
        part.fieldname === 'challengeId' ||
        part.fieldname === 'timestamps' ||
        part.fieldname === 'camera'
      ) {
        fields[part.fieldname] = String(part.value);
      }
      continue;
    }
    if (part.fieldname !== 'frames')
      throw new AppError('ValidationFailed', 'Frames go in the field "frames"');
    timestamps ??= await checkBeforeFrames(platform, context, fields);
    if (decoded.length >= timestamps.length) {
      throw new AppError('ValidationFailed', 'Send one timestamp per frame', [
        { path: '/frames', message: `more than ${timestamps.length} frames` },
      ]);
    }
    const bytes = await readFile(part, frameTooLarge);
    const index = decoded.length;
    const frame = await decodeUploadImage(bytes, {
      maxSide: FRAME_SIDE,
      greySide: 64,
      jpegQuality: 85,
      // The frame's budget, or what is left of the attempt's when that is less.
      maxPixels: Math.min(MAX_LIVENESS_FRAME_PIXELS, MAX_LIVENESS_ATTEMPT_PIXELS - attemptPixels),
      tooManyPixels: (pixels) => frameTooManyPixels(index, pixels, attemptPixels + pixels),
    });
    attemptPixels += frame.sourcePixels;
    decoded.push(frame);
  }
  timestamps ??= await checkBeforeFrames(platform, context, fields);
  if (decoded.length !== timestamps.length) {
    throw new AppError('ValidationFailed', 'Send one timestamp per frame', [
      { path: '/frames', message: `got ${decoded.length} frames and ${timestamps.length} timestamps` },
    ]);
  }
  const camera = parseCameraReport(fields.camera);
  return verifyAndRecord(platform, context, fields.challengeId!, timestamps, decoded, camera, verify);
}

async function verifyAndRecord(
  platform: Platform,
  context: FlowContext,
  challengeId: string,
  timestamps: number[],
  decoded: DecodedUpload[],
  camera: CameraReport | null,
  verify: VerifyLiveness,
): Promise<LivenessAttemptResult> {
  const { session } = context;
  // The challenge as issued, still open (checkBeforeFrames found it so); it is used up only with
  // the verdict, below.
  const challenge = await findOpenChallenge(platform.database.db, {
    sessionId: session.id,
    challengeId,
    now: platform.now(),
  });
  if (!challenge) throw new AppError('LivenessChallengeInvalid');
  const steps = challenge.steps.filter(isLivenessStep) as LivenessStep[];
  // The verdict is computed on the frames as stored: a thread decodes the JPEGs again.
  const frames = decoded.map((image, i) => ({ t: timestamps[i] ?? Number.NaN, jpeg: image.jpeg }));
  let verdict: Awaited<ReturnType<VerifyLiveness>>;
  try {
    verdict = await verify(steps, frames, challenge.light_sequence);
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The thread died or could not load its models: nothing is used up, the same frames may be
    // sent again. The error handler logs no AppError, so the cause is written here (no frame data).
    console.error(`liveness verification of ${session.id} could not finish:`, (error as Error).message);
    throw new AppError(
      'ServiceUnavailable',
      'The face check could not finish; send the attempt again',
      undefined,
      { 'Retry-After': String(LIVENESS_RETRY_AFTER_SECONDS) },
    );
  }
  // The capture cannot be longer than the time since the challenge was issued (1 s of clock slack).
  const elapsed = platform.now().getTime() - challenge.issued_at.getTime() + 1000;
  const span = Math.max(...timestamps) - Math.min(...timestamps);
  const failures: string[] = [...verdict.failures];
  if (span > elapsed && !failures.includes('timestamps_invalid')) failures.push('timestamps_invalid');
  const passed = verdict.passed && failures.length === 0;
  const confidence = passed ? verdict.confidence : 0;

  // Frames of every attempt are kept (encrypted) for the selfie spoof check and for review:
  // written first, removed again if the attempt is not recorded.
  const blobs = openBlobStore(platform.config, platform.keyring);
  const nonce = randomBytes(4).toString('hex');
  const frameBlobs = decoded.map((_, i) =>
    livenessBlobKey(session.id, challenge.id, `${nonce}-frame-${String(i).padStart(2, '0')}`),
  );
  const referenceBlob =
    passed && verdict.referenceIndex !== null ? (frameBlobs[verdict.referenceIndex] ?? null) : null;
  let recorded: { attemptsUsed: number; outcome: { status: 'success' | 'failed' } | null };
  try {
    for (const [i, image] of decoded.entries()) await blobs.putBlob(frameBlobs[i]!, image.jpeg);
    recorded = await platform.database.db.transaction().execute(async (trx) => {
      const claimed = await claimChallenge(trx, {
        sessionId: session.id,
        challengeId: challenge.id,
        now: platform.now(),
        maxAttempts: MAX_LIVENESS_ATTEMPTS,
      });
      // Thrown inside the transaction: it rolls back, so nothing is used up. Another request
      // answered this challenge meanwhile (another process), or used the last try.
      if (claimed === 'exhausted') throw new AppError('LivenessAttemptsExhausted');
      if (claimed === 'invalid') throw new AppError('LivenessChallengeInvalid');
      const isLast = claimed.attemptsUsed >= MAX_LIVENESS_ATTEMPTS;
      const outcome = passed
        ? { status: 'success' as const, referenceBlob }
        : isLast
          ? { status: 'failed' as const, referenceBlob: null }
          : null;
      await recordLivenessAttempt(trx, {
        sessionId: session.id,
        challengeId: challenge.id,
        passed,
        confidence,
        failures,
        frameBlobs,
        screenLight: verdict.screenLight?.correlation ?? null,
        camera,
        injectionSignals: cameraSignals(
          camera,
          decoded.map((d) => d.source),
        ),
        outcome,
        now: platform.now(),
      });
      return { attemptsUsed: claimed.attemptsUsed, outcome };
    });
  } catch (error) {
    for (const key of frameBlobs) await blobs.deleteBlob(key).catch(() => {});
    throw error;
  }
  return {
    passed,
    livenessStatus: recorded.outcome?.status ?? 'pending',
    confidence,
    failures,
    attemptsLeft: recorded.outcome ? 0 : MAX_LIVENESS_ATTEMPTS - recorded.attemptsUsed,
  };
}
