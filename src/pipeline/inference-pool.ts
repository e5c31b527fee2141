// Worker threads for face inference (piscina), one pool per process, created on first use and
// closed with the pipeline workers. Two threads: a session's two pictures are described at once.
// The threads live as long as the pool: each holds its own tfjs and nets (seconds to load and
// warm), so a thread ended while idle would make the next verification pay that again.
import os from 'node:os';
import { Piscina } from 'piscina';
import type { FaceDescription } from '../platform/ml/face-api.ts';
import type { DescribeFaceOutcome, DescribeFaceTask, FaceInput } from './face-inference.worker.ts';

const THREADS = Math.max(1, Math.min(2, os.availableParallelism()));

let pool: Piscina | undefined;

function inferencePool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./face-inference-thread.mjs', import.meta.url).href,
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

export async function describeFaceInWorker(
  image: Buffer,
  input: FaceInput,
): Promise<{ face: FaceDescription | null; faceApiVersion: string }> {
  const task: DescribeFaceTask = { kind: 'describe', image: new Uint8Array(image), input };
  const outcome = (await inferencePool().run(task)) as DescribeFaceOutcome;
  if (!outcome.ok) {
    if (outcome.unreadable) throw new UnreadableImageError(outcome.message);
    throw new Error(outcome.message);
  }
  return { face: outcome.face, faceApiVersion: outcome.faceApiVersion };
}

/**
 * Every thread loads its nets and runs each once (a worker process starting up, so that its first
 * verification is as quick as the rest). Resolves to the threads warmed: the pool starts all of
 * them at once and hands one task to each idle thread.
 */
export async function warmUpInferencePool(): Promise<number> {
  const p = inferencePool();
  const outcomes = (await Promise.all(
    Array.from({ length: THREADS }, () => p.run({ kind: 'warmUp' } satisfies DescribeFaceTask)),
  )) as DescribeFaceOutcome[];
  const failed = outcomes.find((o) => !o.ok);
  if (failed && !failed.ok) throw new Error(`face inference thread warm-up failed: ${failed.message}`);
  return new Set(outcomes.map((o) => (o.ok ? o.threadId : 0))).size;
}

export async function closeInferencePool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.destroy();
}
