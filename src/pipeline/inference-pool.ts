// Worker threads for the checks' image work (piscina, inference.worker.ts), one pool per process,
// created on first use and closed with the pipeline workers. Two threads: a session's two face
// pictures are described at once, and the spoof checks run beside the OCR. The threads live as
// long as the pool: each holds its own tfjs, nets and Human (seconds to load and warm), so a
// thread ended while idle would make the next verification pay that again.
import os from 'node:os';
import { Piscina } from 'piscina';
import type { DocumentSpoofInput, DocumentSpoofResult } from '../checks/document-spoof/index.ts';
import type { FacePicture } from '../checks/face-match/index.ts';
import type { SelfieSpoofInput, SelfieSpoofResult } from '../checks/selfie-spoof/index.ts';
import type { FaceDescription } from '../platform/ml/face-api.ts';
import type { InferenceOutcome, InferenceTask } from './inference.worker.ts';

const THREADS = Math.max(1, Math.min(2, os.availableParallelism()));

let pool: Piscina | undefined;

function inferencePool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./inference-thread.mjs', import.meta.url).href,
    minThreads: THREADS,
    maxThreads: THREADS,
  });
  return pool;
}

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

export async function describeFaceInWorker(
  image: Buffer,
  input: FacePicture,
): Promise<{ face: FaceDescription | null; faceApiVersion: string }> {
  const outcome = await runTask({ kind: 'describeFace', image: new Uint8Array(image), input });
  return { face: outcome.value as FaceDescription | null, faceApiVersion: outcome.faceApiVersion };
}

/** documentSpoofCheck.run in a worker thread. */
export async function runDocumentSpoofInWorker(input: DocumentSpoofInput): Promise<DocumentSpoofResult> {
  return (await runTask({ kind: 'documentSpoof', input })).value as DocumentSpoofResult;
}

/** selfieSpoofCheck.run in a worker thread. */
export async function runSelfieSpoofInWorker(input: SelfieSpoofInput): Promise<SelfieSpoofResult> {
  return (await runTask({ kind: 'selfieSpoof', input })).value as SelfieSpoofResult;
}

/**
 * Every thread loads its models and runs the face nets once (a worker process starting up, so
 * that its first verification is as quick as the rest). Resolves to the threads warmed: the pool
 * starts all of them at once and hands one task to each idle thread.
 */
export async function warmUpInferencePool(): Promise<number> {
  const outcomes = await Promise.all(Array.from({ length: THREADS }, () => runTask({ kind: 'warmUp' })));
  return new Set(outcomes.map((o) => o.threadId)).size;
}

export async function closeInferencePool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.destroy();
}
