// Part of the card rectified: the pixels of warpDocument (find-document.ts) inside a window of
// the card, the rest left 0. The portrait search reads only around the portrait box, the band's
// tint only the band, so a whole card need not be warped (nor a whole photo's chroma computed) for
// them. Both run platform/image/warp.ts, so the pixels are the same.

import { type WarpWindow, warpQuad } from '../../platform/image/warp.ts';
import type { GreyImage, Point } from '../ocr/find-document.ts';
import type { RgbPhoto } from './image-cues.ts';

/** Card pixels x0 ≤ x < x1, y0 ≤ y < y1 (clipped to the card). */
export type CardWindow = WarpWindow;

/** warpDocument(photo, corners, width, height) inside each of `windows`. */
export function warpGreyWindow(
  photo: GreyImage,
  corners: Point[],
  width: number,
  height: number,
  ...windows: CardWindow[]
): GreyImage {
  return warpQuad(photo, corners, width, height, { windows });
}

/**
 * warpDocument of the photo's chroma (each pixel's largest minus smallest of R, G, B) inside
 * `window`: the chroma of the four pixels each sample reads, not of the whole photo.
 */
export function warpChromaWindow(
  photo: RgbPhoto,
  corners: Point[],
  width: number,
  height: number,
  window: CardWindow,
): GreyImage {
  return warpQuad(photo, corners, width, height, { windows: [window], chroma: true });
}
