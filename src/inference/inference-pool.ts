// Worker threads for the checks' image work (piscina), created on first use and closed with the
// pipeline workers, one set per process:
// - two inference threads (inference.worker.ts): a session's two face pictures are described at
//   once, and the spoof checks run beside the OCR; the API's liveness verification runs there too. They live as long as the pool: each holds its
//   own tfjs, nets and Human (seconds to load and warm), so a thread ended while idle would make
//   the next verification pay that again;
// - one geometry thread (geometry.worker.ts) for the OCR check's document finding and warps.
import os from 'node:os';
import { Piscina } from 'piscina';
import type { ThicknessEvidence } from '../checks/document-spoof/card-thickness.ts';
import type { DocumentSpoofInput, DocumentSpoofResult } from '../checks/document-spoof/index.ts';
import type { DocumentPortraitSource } from '../checks/face-match/index.ts';
import type { DocumentGeometry, DocumentType, GreyImage, LocatedDocument } from '../checks/ocr/index.ts';
import type { SelfieSpoofInput, SelfieSpoofResult } from '../checks/selfie-spoof/index.ts';
import type { LivenessStep, LivenessVerdict } from '../liveness/index.ts';
import type { FaceDescription } from '../platform/ml/face-api.ts';
import type { GeometryTask } from './geometry.worker.ts';
import type { InferenceOutcome, InferenceTask } from './inference.worker.ts';

const THREADS = Math.max(1, Math.min(2, os.availableParallelism()));

let pool: Piscina | undefined;
let geometryPool: Piscina | undefined;

function inferencePool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./inference-thread.mjs', import.meta.url).href,
    minThreads: THREADS,
    maxThreads: THREADS,
  });
  return pool;
}

function geometryThread(): Piscina {
  geometryPool ??= new Piscina({
    filename: new URL('./geometry-thread.mjs', import.meta.url).href,
    minThreads: 1,
    maxThreads: 1,
    // Its pixels live outside the JS heap: a small heap keeps the thread's garbage, and so the
    // worker's memory, in check (bench:pipeline: worker peak RSS).
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
  });
  return geometryPool;
}

const runGeometryTask = (task: GeometryTask): Promise<unknown> => geometryThread().run(task);

/** A picture that cannot be decoded: permanent, retrying will not help. */
export class UnreadableImageError extends Error {
  readonly isPermanent = true;
  override name = 'UnreadableImageError';
}

async function runTask(task: InferenceTask): Promise<Extract<InferenceOutcome, { ok: true }>> {
  const outcome = (await inferencePool().run(task)) as InferenceOutcome;
  if (!outcome.ok) {
    if (outcome.unreadable) throw new UnreadableImageError(outcome.message);
    throw new Error(outcome.message);
  }
  return outcome;
}

/** The live check's reference picture described (describeFace) in a worker thread. */
export async function describeReferenceFaceInWorker(
  image: Buffer,
): Promise<{ face: FaceDescription | null; faceApiVersion: string }> {
  const outcome = await runTask({ kind: 'describeReferenceFace', image: new Uint8Array(image) });
  return { face: outcome.value as FaceDescription | null, faceApiVersion: outcome.faceApiVersion };
}

/** Where the largest face in a picture is, without describing it (findLargestFace), in a worker thread. */
export async function findLargestFaceInWorker(
  image: Buffer,
): Promise<Omit<FaceDescription, 'descriptor'> | null> {
  const outcome = await runTask({ kind: 'findLargestFace', image: new Uint8Array(image) });
  return outcome.value as Omit<FaceDescription, 'descriptor'> | null;
}

/** The document photo's face, from its printed portrait when found (describeDocumentFace), in a worker thread. */
export async function describeDocumentFaceInWorker(
  photo: Buffer,
  documentType: DocumentType | null,
): Promise<{ face: FaceDescription | null; portrait: DocumentPortraitSource }> {
  const outcome = await runTask({ kind: 'describeDocumentFace', photo: new Uint8Array(photo), documentType });
  return outcome.value as { face: FaceDescription | null; portrait: DocumentPortraitSource };
}

/** The OCR check's geometry in the geometry thread (a grey photo crosses by copy: ~1 MB, under a millisecond). */
export const documentGeometryInWorker: DocumentGeometry = {
  locate: async (photo) =>
    (await runGeometryTask({ kind: 'locate', photo: new Uint8Array(photo) })) as LocatedDocument | undefined,
  warp: async (grey, corners, width, height) =>
    (await runGeometryTask({ kind: 'warp', grey, corners, width, height })) as GreyImage,
};

/** documentSpoofCheck.run in a worker thread. */
export async function runDocumentSpoofInWorker(input: DocumentSpoofInput): Promise<DocumentSpoofResult> {
  return (await runTask({ kind: 'documentSpoof', input })).value as DocumentSpoofResult;
}

/** selfieSpoofCheck.run in a worker thread. */
export async function runSelfieSpoofInWorker(input: SelfieSpoofInput): Promise<SelfieSpoofResult> {
  return (await runTask({ kind: 'selfieSpoof', input })).value as SelfieSpoofResult;
}

/** The thickness capture measured against the front (card-thickness.ts), in the geometry thread. */
export async function measureCardThicknessInWorker(
  front: Buffer,
  tilted: Buffer,
): Promise<ThicknessEvidence> {
  const task = {
    kind: 'cardThickness' as const,
    front: new Uint8Array(front),
    tilted: new Uint8Array(tilted),
  };
  return (await runGeometryTask(task)) as ThicknessEvidence;
}

/**
 * verifyLivenessFrames in a worker thread, for the API's hosted flow (in an API-only process the
 * threads start, and load their models, at the first attempt). The frames cross as JPEG (tens of
 * KB each) and are decoded in the thread: the API's thread neither copies nor holds their pixels.
 */
export async function verifyLivenessInWorker(
  steps: readonly LivenessStep[],
  frames: readonly { t: number; jpeg: Buffer }[],
  lightSequence: readonly string[] = [],
): Promise<LivenessVerdict> {
  const task = {
    kind: 'verifyLiveness' as const,
    steps: [...steps],
    frames: frames.map((f) => ({ t: f.t, jpeg: new Uint8Array(f.jpeg) })),
    lightSequence: [...lightSequence],
  };
  return (await runTask(task)).value as LivenessVerdict;
}

/**
 * Every thread loads its models and runs the face nets once (a worker process starting up, so
 * that its first verification is as quick as the rest). Resolves to the threads warmed: the pool
 * starts all of them at once and hands one task to each idle thread.
 */
export async function warmUpInferencePool(): Promise<number> {
  const [outcomes] = await Promise.all([
    Promise.all(Array.from({ length: THREADS }, () => runTask({ kind: 'warmUp' }))),
    runGeometryTask({ kind: 'warmUp' }),
  ]);
  return new Set(outcomes.map((o) => o.threadId)).size;
}

export async function closeInferencePool(): Promise<void> {
  const closing = [pool, geometryPool];
  pool = undefined;
  geometryPool = undefined;
  await Promise.all(closing.map((p) => p?.destroy()));
}
