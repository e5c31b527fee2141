// A person's photo placed in a scene: the head-and-shoulders photo is scaled and feathered into a
// room-like background. Used for selfies and as the texture of the 3D liveness face.
import sharp from 'sharp';
import type { BackgroundKind } from './capture-parameters.ts';
import { type RgbImage, renderBackground } from './photograph-document.ts';

export type FaceSceneParameters = {
  width: number;
  height: number;
  /** Width of the face photo in the scene, as a fraction of the scene width. */
  faceWidth: number;
  /** Centre of the photo, as fractions of width and height. */
  centre: [number, number];
  background: { kind: BackgroundKind; colour: [number, number, number]; seed: number };
  /**
   * How the photo fades into the background: an ellipse around the head (the default), or only
   * its outer edges (a photo that fills the frame, its own room behind the person).
   */
  feather?: 'ellipse' | 'edges';
};

/** Share of the photo's side over which the 'edges' feather fades. */
const EDGE_FEATHER = 0.04;

/** RGB scene with the photo feathered in (an ellipse that fades out over its outer 25%). */
export async function composeFaceScene(photoFile: string, params: FaceSceneParameters): Promise<RgbImage> {
  const { width, height } = params;
  const out = renderBackground(params).data;
  const size = Math.round(params.faceWidth * width);
  const { data: face } = await sharp(photoFile)
    .removeAlpha()
    .resize(size, size, { kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const left = Math.round(params.centre[0] * width - size / 2);
  const top = Math.round(params.centre[1] * height - size / 2);
  const half = size / 2;
  for (let y = 0; y < size; y++) {
    const ty = top + y;
    if (ty < 0 || ty >= height) continue;
    for (let x = 0; x < size; x++) {
      const tx = left + x;
      if (tx < 0 || tx >= width) continue;
      let a: number;
      if (params.feather === 'edges') {
        const edge = Math.min(x, y, size - 1 - x, size - 1 - y) / (size * EDGE_FEATHER);
        a = Math.min(1, edge);
      } else {
        // Elliptical feather: taller than wide, like a head and shoulders crop.
        const nx = (x - half) / (half * 0.98);
        const ny = (y - half) / (half * 1.08);
        const r = Math.sqrt(nx * nx + ny * ny);
        a = r <= 0.75 ? 1 : r >= 1 ? 0 : 1 - (r - 0.75) / 0.25;
      }
      if (a <= 0) continue;
      const s = (y * size + x) * 3;
      const o = (ty * width + tx) * 3;
      for (let c = 0; c < 3; c++)
        out[o + c] = Math.round((face[s + c] ?? 0) * a + (out[o + c] ?? 0) * (1 - a));
    }
  }
  return { data: out, width, height };
}
