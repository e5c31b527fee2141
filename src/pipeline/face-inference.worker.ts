// A piscina worker thread describing one face picture (issue 6 item 1: inference in worker threads
// so one process uses every core; docs/face-match.md: tfjs-wasm runs one thread per process, so two
// workers describe the document portrait and the selfie at once). Each thread loads its own tfjs
// and nets once, and runs each net once on blank input before its first picture (warmUpFaceApi).
// Errors cross the thread boundary as values: an Error's class would be lost.
import { threadId } from 'node:worker_threads';
import { describeFace, FaceMatchImageError } from '../checks/face-match/index.ts';
import { type FaceDescription, loadFaceApi, warmUpFaceApi } from '../platform/ml/face-api.ts';

export type FaceInput = 'documentPortrait' | 'referenceImage';

export type DescribeFaceTask =
  | { kind: 'describe'; image: Uint8Array; input: FaceInput }
  /** Load and warm this thread's nets now (a worker process starting up). */
  | { kind: 'warmUp' };

export type DescribeFaceOutcome =
  | { ok: true; faceApiVersion: string; face: FaceDescription | null; threadId: number }
  | { ok: false; unreadable: boolean; message: string };

let warm: Promise<void> | undefined;
function warmOnce(): Promise<void> {
  warm ??= warmUpFaceApi().catch((error: unknown) => {
    warm = undefined;
    throw error;
  });
  return warm;
}

export default async function describeFaceTask(task: DescribeFaceTask): Promise<DescribeFaceOutcome> {
  try {
    await warmOnce();
    const { version } = await loadFaceApi();
    const face =
      task.kind === 'describe'
        ? await describeFace(
            Buffer.from(task.image.buffer, task.image.byteOffset, task.image.byteLength),
            task.input,
          )
        : null;
    return { ok: true, faceApiVersion: version, face, threadId };
  } catch (error) {
    return {
      ok: false,
      unreadable: error instanceof FaceMatchImageError,
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
