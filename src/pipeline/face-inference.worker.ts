// A piscina worker thread describing one face picture (issue 6 item 1: inference in worker threads
// so one process uses every core; docs/face-match.md: tfjs-wasm runs one thread per process, so two
// workers describe the document portrait and the selfie at once). Each thread loads its own tfjs
// and nets once. Errors cross the thread boundary as values: an Error's class would be lost.
import { describeFace, FaceMatchImageError } from '../checks/face-match/index.ts';
import { type FaceDescription, loadFaceApi } from '../platform/ml/face-api.ts';

export interface DescribeFaceTask {
  image: Uint8Array;
  input: 'documentPortrait' | 'referenceImage';
}

export type DescribeFaceOutcome =
  | {
      ok: true;
      faceApiVersion: string;
      face: FaceDescription | null;
    }
  | { ok: false; unreadable: boolean; message: string };

export default async function describeFaceTask(task: DescribeFaceTask): Promise<DescribeFaceOutcome> {
  try {
    const { version } = await loadFaceApi();
    const face = await describeFace(
      Buffer.from(task.image.buffer, task.image.byteOffset, task.image.byteLength),
      task.input,
    );
    return { ok: true, faceApiVersion: version, face };
  } catch (error) {
    return {
      ok: false,
      unreadable: error instanceof FaceMatchImageError,
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
