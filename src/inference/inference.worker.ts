// A piscina worker thread running the checks' image work (inference in worker
// threads so one process uses every core, and the worker's event loop — which in `mimoto start`
// also serves the API — is not held up by it): describing a face picture (docs/face-match.md:
// tfjs-wasm runs one thread per process, so two threads describe the document's face — its
// portrait found and cut out first — and the selfie at once), the document spoof check's image
// statistics, the selfie spoof check (Human's nets on the live-check frames), and for the API the
// verification of a live face capture (hosted flow: the API's event loop is not held up by it). The OCR check's
// geometry has a thread of its own (geometry.worker.ts); Tesseract reads in threads of its own. Each thread loads its own tfjs, face nets and Human once, and
// runs the face nets once on blank input before its first task (warmUpFaceApi).
// Errors cross the thread boundary as values: an Error's class would be lost.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { isMainThread, threadId } from 'node:worker_threads';
import sharp from 'sharp';
import { type DocumentSpoofInput, documentSpoofCheck } from '../checks/document-spoof/index.ts';
import { describeDocumentFace, describeFace, FaceMatchImageError } from '../checks/face-match/index.ts';
import type { DocumentType } from '../checks/ocr/index.ts';
import { type SelfieSpoofInput, selfieSpoofCheck } from '../checks/selfie-spoof/index.ts';
import { type LivenessStep, verifyLivenessFrames } from '../liveness/index.ts';
import { warmUpFaceAntispoof } from '../platform/ml/face-antispoof.ts';
import { FaceImageError, findLargestFace, loadFaceApi, warmUpFaceApi } from '../platform/ml/face-api.ts';
import { loadHuman } from '../platform/ml/human.ts';

export type InferenceTask =
  | { kind: 'describeReferenceFace'; image: Uint8Array }
  /** Where the largest face is, not who it is (the capture check). */
  | { kind: 'findLargestFace'; image: Uint8Array }
  | { kind: 'describeDocumentFace'; photo: Uint8Array; documentType: DocumentType | null }
  | { kind: 'documentSpoof'; input: DocumentSpoofInput }
  | { kind: 'selfieSpoof'; input: SelfieSpoofInput }
  /** The hosted flow's server verification of a live capture (its frames as stored, JPEG). */
  | {
      kind: 'verifyLiveness';
      steps: LivenessStep[];
      frames: { t: number; jpeg: Uint8Array }[];
      lightSequence: string[];
    }
  /** Load and warm this thread's models now (a worker process starting up). */
  | { kind: 'warmUp' };

export type InferenceOutcome =
  | { ok: true; value: unknown; faceApiVersion: string; threadId: number }
  | { ok: false; unreadable: boolean; message: string };

/**
 * The thread runs at a lower CPU priority than the process's event loop (Linux: a thread is a task
 * with a niceness of its own), so that on a busy machine the loop — the API's in `mimoto start` and
 * in an API process verifying liveness — gets the CPU first and requests are not kept waiting.
 */
function yieldToEventLoop() {
  if (isMainThread) return;
  try {
    const tid = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0]);
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, Math.min(19, os.getPriority(tid) + 10));
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}
yieldToEventLoop();

let warm: Promise<void> | undefined;
function warmOnce(): Promise<void> {
  warm ??= Promise.all([warmUpFaceApi(), loadHuman(), warmUpFaceAntispoof()]).then(
    () => {},
    (error: unknown) => {
      warm = undefined;
      throw error;
    },
  );
  return warm;
}

/** A Buffer again: structured cloning delivers a Buffer as a plain Uint8Array. */
const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

async function run(task: InferenceTask): Promise<unknown> {
  switch (task.kind) {
    case 'describeReferenceFace':
      return describeFace(buffer(task.image), 'referenceImage');
    case 'findLargestFace':
      try {
        return await findLargestFace(buffer(task.image));
      } catch (error) {
        if (error instanceof FaceImageError) throw new FaceMatchImageError('documentPortrait', error);
        throw error;
      }
    case 'describeDocumentFace':
      return describeDocumentFace(buffer(task.photo), task.documentType, (image) =>
        describeFace(image, 'documentPortrait'),
      );
    case 'documentSpoof': {
      const { front, back } = task.input;
      return documentSpoofCheck.run({
        ...task.input,
        front: buffer(front),
        ...(back ? { back: buffer(back) } : {}),
      });
    }
    case 'selfieSpoof':
      return selfieSpoofCheck.run({
        ...task.input,
        frames: task.input.frames.map((f) => ({ ...f, image: buffer(f.image) })),
      });
    case 'verifyLiveness': {
      const frames = [];
      for (const { t, jpeg } of task.frames) {
        const { data, info } = await sharp(buffer(jpeg))
          .removeAlpha()
          .toColourspace('srgb')
          .raw()
          .toBuffer({ resolveWithObject: true });
        frames.push({ t, image: { data, width: info.width, height: info.height, channels: 3 as const } });
      }
      return verifyLivenessFrames(task.steps, frames, task.lightSequence);
    }
    case 'warmUp':
      return null;
  }
}

export default async function runInferenceTask(task: InferenceTask): Promise<InferenceOutcome> {
  try {
    await warmOnce();
    const { version } = await loadFaceApi();
    return { ok: true, value: await run(task), faceApiVersion: version, threadId };
  } catch (error) {
    return {
      ok: false,
      unreadable: error instanceof FaceMatchImageError,
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
