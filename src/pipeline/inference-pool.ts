// Worker threads for face inference (piscina), one pool per process, created on first use and
// closed with the pipeline workers. Two threads: a session's two pictures are described at once.
import os from 'node:os';
import { Piscina } from 'piscina';
import type { FaceDescription } from '../platform/ml/face-api.ts';
import type { DescribeFaceOutcome, DescribeFaceTask } from './face-inference.worker.ts';

let pool: Piscina | undefined;

function inferencePool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./face-inference-thread.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: Math.max(1, Math.min(2, os.availableParallelism())),
    // Loading tfjs and the nets costs seconds: keep an idle thread for a while.
    idleTimeout: 60_000,
  });
  return pool;
}

/** A picture that cannot be decoded: permanent, retrying will not help. */
export class UnreadableImageError extends Error {
  readonly isPermanent = true;
  override name = 'UnreadableImageError';
}

export async function describeFaceInWorker(
  image: Buffer,
  input: DescribeFaceTask['input'],
): Promise<{ face: FaceDescription | null; faceApiVersion: string }> {
  const task: DescribeFaceTask = { image: new Uint8Array(image), input };
  const outcome = (await inferencePool().run(task)) as DescribeFaceOutcome;
  if (!outcome.ok) {
    if (outcome.unreadable) throw new UnreadableImageError(outcome.message);
    throw new Error(outcome.message);
  }
  return { face: outcome.face, faceApiVersion: outcome.faceApiVersion };
}

export async function closeInferencePool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.destroy();
}
