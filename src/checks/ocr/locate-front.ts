// Step 1 of the reading: the document found in the front photo, its corners put landscape.
import { decodePhoto, type GreyImage } from './find-document.ts';
import type { OcrExtras } from './ocr-result.ts';
import { round2 } from './ocr-result.ts';
import { lap, type OcrRun } from './ocr-run.ts';

export interface FrontPhoto {
  grey: GreyImage;
  /** The document's corners in the photo, top left first, landscape. */
  corners: [number, number][];
  /** No outline found: the whole photo is read as the card. */
  wholeFrame: boolean;
  /** Where the document lies in the photo (extras.frontOutline); classifyFront may widen it. */
  frontOutline: NonNullable<OcrExtras['frontOutline']>;
}

export async function locateFront(run: OcrRun): Promise<FrontPhoto> {
  const t = performance.now();
  const located = await run.settings.geometry.locate(run.input.front);
  lap(run, 'locate', t);
  run.documentOutline = located?.outline ?? null;
  // No outline (a flat scan, a close-up or a screenshot: the card fills the frame and no surface
  // shows around it): the whole photo is read as the card, put landscape. It is taken only when
  // its content names a type; otherwise nothing was found.
  const wholeFrame = !located || located.outline.coverage < 0.1;
  const front =
    located && !wholeFrame ? located : { grey: located?.grey ?? (await decodePhoto(run.input.front)) };
  const { width: w, height: h } = front.grey;
  const corners: [number, number][] =
    'outline' in front
      ? front.outline.corners
      : w >= h
        ? [
            [0, 0],
            [w, 0],
            [w, h],
            [0, h],
          ]
        : [
            [0, h],
            [0, 0],
            [w, 0],
            [w, h],
          ];
  const frontOutline = {
    corners,
    coverage: 'outline' in front ? round2(front.outline.coverage) : 1,
  };
  return { grey: front.grey, corners, wholeFrame, frontOutline };
}
