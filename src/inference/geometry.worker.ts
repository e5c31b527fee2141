// A piscina worker thread for the OCR check's geometry: finding the document in a photo and
// rectifying it to its layout (find-document.ts). Tens of milliseconds of synchronous work each,
// which on the worker's main thread held up its event loop — in `mimoto start` the API's too. A
// thread of its own, not the inference threads: there a warp would wait behind a face description
// (hundreds of milliseconds), and no model is loaded here, so it costs little memory.
// find-document.ts itself, not the OCR's index: this thread needs none of Tesseract's modules.
import { measureCardThickness } from '../checks/document-spoof/card-thickness.ts';
import { type GreyImage, locateDocument, type Point, warpDocument } from '../checks/ocr/find-document.ts';

export type GeometryTask =
  | { kind: 'locate'; photo: Uint8Array }
  | { kind: 'warp'; grey: GreyImage; corners: Point[]; width: number; height: number }
  /** The hosted flow's thickness capture, against the front (card-thickness.ts). */
  | { kind: 'cardThickness'; front: Uint8Array; tilted: Uint8Array }
  /** Start the thread (a worker process starting up). */
  | { kind: 'warmUp' };

export default async function runGeometryTask(task: GeometryTask): Promise<unknown> {
  switch (task.kind) {
    case 'locate':
      return locateDocument(Buffer.from(task.photo.buffer, task.photo.byteOffset, task.photo.byteLength));
    case 'warp':
      return warpDocument(task.grey, task.corners, task.width, task.height);
    case 'cardThickness':
      return measureCardThickness(task.front, task.tilted);
    case 'warmUp':
      return null;
  }
}
