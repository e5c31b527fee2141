// The face embedding the face match compares (docs/face-match.md "The embedding"): an ArcFace-style
// network taking a 112×112 face aligned on five points (eye centres, nose tip, mouth corners) and
// giving a 512-d vector, scaled here to unit length. The model file is committed under
// models/face-embedding with its licence (SOURCE.md there) and run by onnxruntime-web's wasm build
// on one thread, loaded once per process (per worker thread). face-api still finds the face and its
// 68 landmarks (face-api.ts); this replaces only its recognition net for the document-vs-selfie
// comparison, where it separates genuine from impostor pairs far better (docs/face-match.md).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-web';

export const FACE_EMBEDDING_MODEL = 'fr_feature.onnx (faceplugin-face-recognition-js 0.0.1)';
export const FACE_EMBEDDING_SIZE = 512;
/** The onnxruntime-web release that runs it. */
export const FACE_EMBEDDING_RUNTIME_VERSION = ort.env.versions.web ?? 'unknown';
const MODEL_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../models/face-embedding/fr_feature.onnx',
);
/** The network's input side, in pixels. */
export const ALIGNED_SIDE = 112;
const SIDE = ALIGNED_SIDE;

/** Where the five points sit in the network's 112×112 input (the ArcFace alignment template). */
const TEMPLATE: readonly (readonly [number, number])[] = [
  [38.2946, 51.6963],
  [73.5318, 51.5014],
  [56.0252, 71.7366],
  [41.5493, 92.3655],
  [70.7299, 92.2041],
];

export interface Point2 {
  x: number;
  y: number;
}

/** RGB pixels, row-major, 3 channels, and where they sit in a larger picture (0,0 if they are it). */
export interface RgbRegion {
  data: ArrayLike<number>;
  width: number;
  height: number;
}

/** A similarity transform (rotation, uniform scale, shift): x' = a·x − b·y + tx, y' = b·x + a·y + ty. */
export interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

let session: Promise<ort.InferenceSession> | undefined;

/** Load the network once per process (thread); later calls share the promise. */
export function loadFaceEmbedding(): Promise<ort.InferenceSession> {
  session ??= (async () => {
    // One thread: the pipeline runs one inference thread per core already (inference-pool.ts).
    ort.env.wasm.numThreads = 1;
    return ort.InferenceSession.create(MODEL_FILE, { executionProviders: ['wasm'] });
  })();
  session.catch(() => {
    session = undefined;
  });
  return session;
}

/** The five alignment points from face-api's 68 landmarks (iBUG numbering). */
export function fivePoints(landmarks: readonly Point2[]): Point2[] {
  if (landmarks.length !== 68) throw new Error(`expected 68 landmarks, got ${landmarks.length}`);
  const centre = (from: number, to: number) => {
    const points = landmarks.slice(from, to);
    return {
      x: points.reduce((sum, p) => sum + p.x, 0) / points.length,
      y: points.reduce((sum, p) => sum + p.y, 0) / points.length,
    };
  };
  return [centre(36, 42), centre(42, 48), landmarks[30]!, landmarks[48]!, landmarks[54]!];
}

/** The least-squares similarity transform taking `from` onto `to` (Umeyama, no reflection). */
export function fitSimilarity(from: readonly Point2[], to: readonly Point2[]): Similarity {
  const n = from.length;
  const mean = (ps: readonly Point2[]) => ({
    x: ps.reduce((s, p) => s + p.x, 0) / n,
    y: ps.reduce((s, p) => s + p.y, 0) / n,
  });
  const mf = mean(from);
  const mt = mean(to);
  let dot = 0;
  let cross = 0;
  let spread = 0;
  for (let i = 0; i < n; i++) {
    const fx = from[i]!.x - mf.x;
    const fy = from[i]!.y - mf.y;
    const tx = to[i]!.x - mt.x;
    const ty = to[i]!.y - mt.y;
    dot += fx * tx + fy * ty;
    cross += fx * ty - fy * tx;
    spread += fx * fx + fy * fy;
  }
  if (!(spread > 0)) throw new Error('alignment points coincide');
  const a = dot / spread;
  const b = cross / spread;
  return { a, b, tx: mt.x - (a * mf.x - b * mf.y), ty: mt.y - (b * mf.x + a * mf.y) };
}

/** Where the network's input pixel (x, y) comes from in the picture: the inverse of `t`. */
export function sourceOf(t: Similarity, x: number, y: number): Point2 {
  const det = t.a * t.a + t.b * t.b;
  const u = x - t.tx;
  const v = y - t.ty;
  return { x: (t.a * u + t.b * v) / det, y: (-t.b * u + t.a * v) / det };
}

/** The alignment of a face with these 68 landmarks onto the network's template. */
export function alignmentOf(landmarks: readonly Point2[]): Similarity {
  return fitSimilarity(
    fivePoints(landmarks),
    TEMPLATE.map(([x, y]) => ({ x, y })),
  );
}

/**
 * The network's input: the face warped by `t` into 112×112 (bilinear; outside the picture the
 * nearest edge pixel), channels first, RGB scaled to about [−1, 1] as the model expects.
 */
export function alignedInput(region: RgbRegion, t: Similarity): Float32Array {
  const { data, width, height } = region;
  const out = new Float32Array(3 * SIDE * SIDE);
  const clampX = (x: number) => Math.min(width - 1, Math.max(0, x));
  const clampY = (y: number) => Math.min(height - 1, Math.max(0, y));
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) {
      const p = sourceOf(t, x, y);
      const x0 = Math.floor(p.x);
      const y0 = Math.floor(p.y);
      const fx = p.x - x0;
      const fy = p.y - y0;
      const [xa, xb, ya, yb] = [clampX(x0), clampX(x0 + 1), clampY(y0), clampY(y0 + 1)];
      for (let c = 0; c < 3; c++) {
        const at = (px: number, py: number) => data[(py * width + px) * 3 + c]!;
        const value =
          (at(xa, ya) * (1 - fx) + at(xb, ya) * fx) * (1 - fy) +
          (at(xa, yb) * (1 - fx) + at(xb, yb) * fx) * fy;
        out[c * SIDE * SIDE + y * SIDE + x] = (value - 127) / 128;
      }
    }
  }
  return out;
}

/** The 512-d unit-length embedding of the face with these 68 landmarks (pixels of `region`). */
export async function embedFace(region: RgbRegion, landmarks: readonly Point2[]): Promise<Float32Array> {
  return runNetwork(alignedInput(region, alignmentOf(landmarks)));
}

async function runNetwork(input: Float32Array): Promise<Float32Array> {
  const net = await loadFaceEmbedding();
  const feeds = { [net.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, SIDE, SIDE]) };
  const out = await net.run(feeds);
  const vector = Float32Array.from(out[net.outputNames[0]!]!.data as Float32Array);
  if (vector.length !== FACE_EMBEDDING_SIZE)
    throw new Error(`face embedding: expected ${FACE_EMBEDDING_SIZE} values, got ${vector.length}`);
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm);
  if (!(norm > 0)) throw new Error('face embedding: the network returned a zero vector');
  for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** Load the network and run it once on a blank face, so a worker's first real job does not pay for it. */
export async function warmUpFaceEmbedding(): Promise<void> {
  await runNetwork(new Float32Array(3 * SIDE * SIDE));
}
