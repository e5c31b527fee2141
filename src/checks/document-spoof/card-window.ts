// Part of the card rectified: the pixels of warpDocument (find-document.ts) inside a window of
// the card, the rest left 0. The portrait search reads only around the portrait box, the band's
// tint only the band, so a whole card need not be warped (nor a whole photo's chroma computed) for
// them. The sample is warpDocument's, operation for operation, so the pixels are the same.

import { homographyBetween } from '../../platform/image/homography.ts';
import type { GreyImage, Point } from '../ocr/find-document.ts';
import type { RgbPhoto } from './image-cues.ts';

/** Card pixels x0 ≤ x < x1, y0 ≤ y < y1 (clipped to the card). */
export type CardWindow = readonly [number, number, number, number];

/** warpDocument(photo, corners, width, height) inside each of `windows`. */
export function warpGreyWindow(
  photo: GreyImage,
  corners: Point[],
  width: number,
  height: number,
  ...windows: CardWindow[]
): GreyImage {
  return warpWindows(photo, false, corners, width, height, windows);
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
  return warpWindows(photo, true, corners, width, height, [window]);
}

/** warpDocument's loop over the windows, on grey pixels or on the chroma of RGB ones. */
function warpWindows(
  photo: { data: Uint8Array; width: number; height: number },
  chroma: boolean,
  corners: Point[],
  width: number,
  height: number,
  windows: CardWindow[],
): GreyImage {
  const h = homographyBetween(
    [
      [0, 0],
      [width, 0],
      [width, height],
      [0, height],
    ],
    corners,
  );
  const out = new Uint8Array(width * height);
  const { data, width: sw, height: sh } = photo;
  const level = (i: number) => {
    if (!chroma) return data[i] as number;
    const r = data[3 * i] as number;
    const g = data[3 * i + 1] as number;
    const b = data[3 * i + 2] as number;
    return Math.max(r, g, b) - Math.min(r, g, b);
  };
  for (const [wx0, wy0, wx1, wy1] of windows)
    for (let y = Math.max(0, wy0); y < Math.min(height, wy1); y++) {
      for (let x = Math.max(0, wx0); x < Math.min(width, wx1); x++) {
        const px = x + 0.5;
        const py = y + 0.5;
        const w = (h[6] ?? 0) * px + (h[7] ?? 0) * py + 1;
        const sx = ((h[0] ?? 0) * px + (h[1] ?? 0) * py + (h[2] ?? 0)) / w - 0.5;
        const sy = ((h[3] ?? 0) * px + (h[4] ?? 0) * py + (h[5] ?? 0)) / w - 0.5;
        const x0 = Math.floor(sx);
        const y0 = Math.floor(sy);
        if (x0 < 0 || y0 < 0 || x0 >= sw - 1 || y0 >= sh - 1) {
          out[y * width + x] = 255;
          continue;
        }
        const fx = sx - x0;
        const fy = sy - y0;
        const i = y0 * sw + x0;
        const top = level(i) * (1 - fx) + level(i + 1) * fx;
        const bottom = level(i + sw) * (1 - fx) + level(i + sw + 1) * fx;
        out[y * width + x] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  return { data: out, width, height };
}
