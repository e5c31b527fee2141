// The virtual camera: a flat document placed on a textured surface, seen through a pinhole
// camera with tilt and rotation, then lit unevenly, glared, blurred, noised and JPEG-compressed
// (docs/corpus.md "Capture quality"). All randomness comes from the recorded CaptureParameters.
import sharp from 'sharp';
import { applyHomography, homographyBetween, type Point } from '../platform/image/homography.ts';
import type { CaptureParameters } from './capture-parameters.ts';
import { Random } from './random.ts';
import type { FlatImage } from './render-document.ts';

/** RGB pixels, 3 bytes each. */
export type RgbImage = { data: Buffer; width: number; height: number };

function valueNoise(random: Random, width: number, height: number, cell: number): Float32Array {
  const gw = Math.ceil(width / cell) + 2;
  const gh = Math.ceil(height / cell) + 2;
  const grid = new Float32Array(gw * gh);
  for (let i = 0; i < grid.length; i++) grid[i] = random.next();
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const gy = y / cell;
    const iy = Math.floor(gy);
    let fy = gy - iy;
    fy = fy * fy * (3 - 2 * fy);
    for (let x = 0; x < width; x++) {
      const gx = x / cell;
      const ix = Math.floor(gx);
      let fx = gx - ix;
      fx = fx * fx * (3 - 2 * fx);
      const a = grid[iy * gw + ix] ?? 0;
      const b = grid[iy * gw + ix + 1] ?? 0;
      const c = grid[(iy + 1) * gw + ix] ?? 0;
      const d = grid[(iy + 1) * gw + ix + 1] ?? 0;
      out[y * width + x] = a + (b - a) * fx + (c - a) * fy + (a - b - c + d) * fx * fy;
    }
  }
  return out;
}

/** The surface the document lies on. */
export function renderBackground(
  params: Pick<CaptureParameters, 'width' | 'height' | 'background'>,
): RgbImage {
  const { width, height } = params;
  const random = new Random(params.background.seed);
  const coarse = valueNoise(random, width, height, Math.max(8, Math.round(width / 6)));
  const fine = valueNoise(random, width, height, Math.max(2, Math.round(width / 80)));
  const data = Buffer.alloc(width * height * 3);
  const [r, g, b] = params.background.colour;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const n1 = coarse[i] ?? 0;
      const n2 = fine[i] ?? 0;
      let shade: number;
      switch (params.background.kind) {
        case 'wood':
          shade = 0.85 + 0.12 * Math.sin((y + 60 * n1) / (width / 90)) + 0.08 * (n2 - 0.5);
          break;
        case 'cloth':
          shade = 0.9 + 0.06 * Math.sin(x * 1.3) * Math.sin(y * 1.3) + 0.1 * (n1 - 0.5) + 0.06 * (n2 - 0.5);
          break;
        default:
          shade = 0.88 + 0.16 * (n1 - 0.5) + 0.14 * (n2 - 0.5);
      }
      data[i * 3] = clamp(r * shade);
      data[i * 3 + 1] = clamp(g * shade);
      data[i * 3 + 2] = clamp(b * shade);
    }
  }
  return { data, width, height };
}

function clamp(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

/**
 * Where the document's four corners land in the photo (pinhole camera, tilted card); with `depth`,
 * those of a plane parallel to its face that many pixels behind it (a card's back face, its edge).
 */
export function documentCorners(
  params: CaptureParameters,
  docWidth: number,
  docHeight: number,
  depth = 0,
): Point[] {
  const rad = Math.PI / 180;
  const w = params.documentWidth * params.width;
  const h = (w * docHeight) / docWidth;
  const f = params.width * 1.1;
  const [ax, ay, az] = [params.tiltX * rad, params.tiltY * rad, params.rotation * rad];
  const cx = params.width * (0.5 + params.offset[0]);
  const cy = params.height * (0.5 + params.offset[1]);
  const corners: Point[] = [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ];
  return corners.map(([x0, y0]) => {
    // Roll in the card plane, then tilt about x and y, then push to distance f (so the card's
    // untilted width is `w` pixels).
    let x = x0 * Math.cos(az) - y0 * Math.sin(az);
    let y = x0 * Math.sin(az) + y0 * Math.cos(az);
    let z = depth;
    const y1 = y * Math.cos(ax) - z * Math.sin(ax);
    z = y * Math.sin(ax) + z * Math.cos(ax);
    y = y1;
    const x1 = x * Math.cos(ay) + z * Math.sin(ay);
    z = -x * Math.sin(ay) + z * Math.cos(ay);
    x = x1;
    const d = f + z;
    return [cx + (f * x) / d, cy + (f * y) / d] as Point;
  });
}

/**
 * Maps `source` onto the quadrilateral `corners` of `target` (corners in the order top-left,
 * top-right, bottom-right, bottom-left of the source) and calls `paint` with each covered target
 * pixel's byte offset, the source's bilinear sample premultiplied by its alpha, and that alpha.
 */
export function drawQuad(
  target: RgbImage,
  source: FlatImage,
  corners: Point[],
  paint: (offset: number, rgb: readonly number[], alpha: number) => void,
): void {
  const { width, height } = target;
  const sw = source.width;
  const sh = source.height;
  const src = source.data;
  const inverse = homographyBetween(corners, [
    [0, 0],
    [sw, 0],
    [sw, sh],
    [0, sh],
  ]);
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const x1 = Math.min(width - 1, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const y1 = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  const rgb = [0, 0, 0];
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const [u, v] = applyHomography(inverse, x + 0.5, y + 0.5);
      const fu = u - 0.5;
      const fv = v - 0.5;
      if (fu < -1 || fv < -1 || fu > sw || fv > sh) continue;
      const iu = Math.floor(fu);
      const iv = Math.floor(fv);
      const du = fu - iu;
      const dv = fv - iv;
      rgb.fill(0);
      let a = 0;
      for (let k = 0; k < 4; k++) {
        const px = iu + (k & 1);
        const py = iv + (k >> 1);
        if (px < 0 || py < 0 || px >= sw || py >= sh) continue;
        const wgt = ((k & 1) === 1 ? du : 1 - du) * (k >> 1 === 1 ? dv : 1 - dv);
        const si = (py * sw + px) * 4;
        const alpha = ((src[si + 3] ?? 0) / 255) * wgt;
        for (let c = 0; c < 3; c++) rgb[c] = (rgb[c] ?? 0) + (src[si + c] ?? 0) * alpha;
        a += alpha;
      }
      if (a > 0) paint((y * width + x) * 3, rgb, a);
    }
  }
}

/**
 * Composite the document onto the background through the camera, with lighting and glare.
 * Returns raw RGB (blur, noise and compression are applied by finishCapture).
 */
export function composeCapture(image: FlatImage, params: CaptureParameters, background?: RgbImage): RgbImage {
  const { width, height } = params;
  const base = background ?? renderBackground(params);
  const out = Buffer.from(base.data);
  drawQuad(
    { data: out, width, height },
    image,
    documentCorners(params, image.width, image.height),
    (o, rgb, a) => {
      for (let c = 0; c < 3; c++) out[o + c] = clamp((rgb[c] ?? 0) + (out[o + c] ?? 0) * (1 - a));
    },
  );
  applyLightingAndGlare({ data: out, width, height }, params);
  return { data: out, width, height };
}

/** Uneven light across the frame and a specular highlight. */
export function applyLightingAndGlare(
  image: RgbImage,
  params: Pick<CaptureParameters, 'lighting' | 'glare'>,
): void {
  const { width, height, data } = image;
  const angle = (params.lighting.angle * Math.PI) / 180;
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  const span = Math.abs(dx) * width + Math.abs(dy) * height;
  const gx = params.glare.x * width;
  const gy = params.glare.y * height;
  const gr = params.glare.radius * width;
  const twoR2 = 2 * gr * gr;
  const glare = params.glare.strength * 255;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = ((x - width / 2) * dx + (y - height / 2) * dy) / span + 0.5;
      const light = params.lighting.low + (1 - params.lighting.low) * t;
      const d2 = (x - gx) ** 2 + (y - gy) ** 2;
      const add = glare > 0 ? glare * Math.exp(-d2 / twoR2) : 0;
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) data[o + c] = clamp((data[o + c] ?? 0) * light + add);
    }
  }
}

/** Lens blur, sensor noise and JPEG compression. */
export async function finishCapture(
  image: RgbImage,
  params: Pick<CaptureParameters, 'blur' | 'noise' | 'noiseSeed' | 'jpegQuality'>,
): Promise<Buffer> {
  const raw = { width: image.width, height: image.height, channels: 3 as const };
  let data = image.data;
  if (params.blur >= 0.3) data = await sharp(data, { raw }).blur(params.blur).raw().toBuffer();
  else data = Buffer.from(data);
  if (params.noise > 0) {
    const random = new Random(params.noiseSeed);
    for (let i = 0; i < data.length; i += 3) {
      // Mostly luminance noise with a little chroma noise, as phone sensors give after processing.
      const l = random.normal() * params.noise;
      for (let c = 0; c < 3; c++)
        data[i + c] = clamp((data[i + c] ?? 0) + l + random.normal() * params.noise * 0.3);
    }
  }
  return sharp(data, { raw }).jpeg({ quality: params.jpegQuality, chromaSubsampling: '4:2:0' }).toBuffer();
}

/** The full virtual photograph of a flat document, as JPEG bytes. */
export async function photographDocument(image: FlatImage, params: CaptureParameters): Promise<Buffer> {
  return finishCapture(composeCapture(image, params), params);
}
