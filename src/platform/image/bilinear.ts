// Bilinear sampling of RGB pixels, shared by the face crops that resample a picture through a
// transform (face-api.ts's levelled crops, face-embedding.ts's aligned input).

/** RGB pixels, row-major, 3 channels interleaved. */
export interface RgbRegion {
  data: ArrayLike<number>;
  width: number;
  height: number;
}

/**
 * Channel `c` at (x, y), where integer coordinates are pixel centres; outside the pixels, the
 * nearest edge pixel.
 */
export function bilinearAt(region: RgbRegion, x: number, y: number, c: number): number {
  const { data, width, height } = region;
  const fx = Math.min(width - 1, Math.max(0, x));
  const fy = Math.min(height - 1, Math.max(0, y));
  const ix = Math.min(width - 2, Math.floor(fx));
  const iy = Math.min(height - 2, Math.floor(fy));
  const ax = fx - ix;
  const ay = fy - iy;
  const at = (xx: number, yy: number) => data[(yy * width + xx) * 3 + c]!;
  const top = at(ix, iy) * (1 - ax) + at(ix + 1, iy) * ax;
  const bottom = at(ix, iy + 1) * (1 - ax) + at(ix + 1, iy + 1) * ax;
  return top * (1 - ay) + bottom * ay;
}
