// The document photo's quality, judged in the browser before upload with the
// very measures and limits the server applies (src/hosted-flow/assess-document-quality.ts): a
// greyscale copy whose longer side is 640 px, variance of Laplacian, glare grid, edge density.
import {
  documentQualityProblem,
  measureDocumentQuality,
} from '../../../src/hosted-flow/assess-document-quality.ts';

export type QualityProblem = 'ImageTooSmall' | 'ImageBlurred' | 'ImageGlare' | 'DocumentNotFound';

const GREY_SIDE = 640;

export function assessDocumentImage(source: CanvasImageSource, width: number, height: number) {
  const scale = Math.min(1, GREY_SIDE / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(source, 0, 0, w, h);
  const rgba = context.getImageData(0, 0, w, h).data;
  const grey = new Uint8Array(w * h);
  for (let i = 0, j = 0; j < grey.length; i += 4, j++) {
    // Rec. 601 luma, as sharp's greyscale().
    grey[j] = Math.round(0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!);
  }
  const quality = measureDocumentQuality({ data: grey as unknown as Buffer, width: w, height: h });
  return documentQualityProblem({ width, height }, quality) as QualityProblem | null;
}
