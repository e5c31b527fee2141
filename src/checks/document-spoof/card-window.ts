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
  const { data, width: sw } = photo;
  return warpWindow(photo, corners, width, height, windows, (i, fx, fy) => {
    const top = (data[i] as number) * (1 - fx) + (data[i + 1] as number) * fx;
    const bottom = (data[i + sw] as number) * (1 - fx) + (data[i + sw + 1] as number) * fx;
    return Math.round(top * (1 - fy) + bottom * fy);
  });
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
  const { data, width: sw } = photo;
  const chroma = (i: number) => {
    const r = data[3 * i] as number;
    const g = data[3 * i + 1] as number;
    const b = data[3 * i + 2] as number;
    return Math.max(r, g, b) - Math.min(r, g, b);
  };
  return warpWindow(photo, corners, width, height, [window], (i, fx, fy) => {
    const top = chroma(i) * (1 - fx) + chroma(i + 1) * fx;
    const bottom = chroma(i + sw) * (1 - fx) + chroma(i + sw + 1) * fx;
    return Math.round(top * (1 - fy) + bottom * fy);
  });
}

/** warpDocument's loop over the windows: `sample` reads the source around pixel index i. */
function warpWindow(
  photo: { width: number; height: number },
  corners: Point[],
  width: number,
  height: number,
  windows: CardWindow[],
  sample: (i: number, fx: number, fy: number) => number,
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
  const { width: sw, height: sh } = photo;
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
        out[y * width + x] = sample(y0 * sw + x0, sx - x0, sy - y0);
      }
    }
  return { data: out, width, height };
}
