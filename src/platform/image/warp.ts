// The one perspective warp of the project: a quadrilateral of a photo sampled onto a width × height
// rectangle (bilinear, pixel centres), optionally only inside some windows of the rectangle (the
// rest left 0), on grey pixels or on the chroma of RGB ones. The OCR's rectification and the
// document check's partial ones read the same pixels because they run this same loop.
import { homographyBetween, type Point } from './homography.ts';

export interface PlainImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Output pixels x0 ≤ x < x1, y0 ≤ y < y1 (clipped to the output). */
export type WarpWindow = readonly [number, number, number, number];

/**
 * `corners` (clockwise from top left, photo pixels) warped to width × height, inside `windows`
 * (default: everywhere). `chroma`: the photo is RGB and each sample reads max − min of R, G, B.
 * A sample outside the photo is white (255).
 */
export function warpQuad(
  photo: PlainImage,
  corners: Point[],
  width: number,
  height: number,
  {
    windows = [[0, 0, width, height]],
    chroma = false,
  }: { windows?: readonly WarpWindow[]; chroma?: boolean } = {},
): PlainImage {
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
