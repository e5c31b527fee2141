// The face embedding the face match compares (docs/face-match.md "The embedding"): an ArcFace-style
// network taking a 112×112 face aligned on five points (eye centres, nose tip, mouth corners) and
// giving a 512-d vector, scaled here to unit length. The model file is committed under
// models/face-embedding with its licence (README there). It is a MobileFaceNet-shaped graph of
// convolutions, PReLUs and additions only, so it runs on the process's tfjs runtime (tfjs.ts) that
// face-api uses already: read by onnx-graph.ts and run by onnx-tfjs.ts, loaded once per process (per worker thread).
// face-api still finds the face and its 68 landmarks (face-api.ts); this replaces only its
// recognition net for the document-vs-selfie comparison, where it separates genuine from impostor
// pairs far better (docs/face-match.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Tf from '@tensorflow/tfjs';
import { bilinearAt, type RgbRegion } from '../image/bilinear.ts';
import { readOnnxGraph } from './onnx-graph.ts';
import { type CompiledGraph, compileOnnxGraph } from './onnx-tfjs.ts';
import { loadTfjs } from './tfjs.ts';

export const FACE_EMBEDDING_MODEL = 'fr_feature.onnx (faceplugin-face-recognition-js 0.0.1)';
export const FACE_EMBEDDING_SIZE = 512;
const MODEL_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../models/face-embedding/fr_feature.onnx',
);
/** The network's input side, in pixels. */
export const ALIGNED_SIDE = 112;

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

/** A similarity transform (rotation, uniform scale, shift): x' = a·x − b·y + tx, y' = b·x + a·y + ty. */
export interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

interface LoadedNetwork {
  tf: typeof Tf;
  graph: CompiledGraph;
}

let network: Promise<LoadedNetwork> | undefined;

/** Read the model file and set its weights up as tfjs tensors, once per process (thread). */
export function loadFaceEmbedding(): Promise<LoadedNetwork> {
  network ??= (async () => {
    const tf = await loadTfjs();
    return { tf, graph: compileOnnxGraph(tf, readOnnxGraph(readFileSync(MODEL_FILE)), 'face embedding') };
  })();
  network.catch(() => {
    network = undefined;
  });
  return network;
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
 * nearest edge pixel), row by row, RGB interleaved, scaled to about [−1, 1] as the model expects.
 */
export function alignedInput(region: RgbRegion, t: Similarity): Float32Array {
  const out = new Float32Array(3 * ALIGNED_SIDE * ALIGNED_SIDE);
  for (let y = 0; y < ALIGNED_SIDE; y++) {
    for (let x = 0; x < ALIGNED_SIDE; x++) {
      const p = sourceOf(t, x, y);
      for (let c = 0; c < 3; c++)
        out[(y * ALIGNED_SIDE + x) * 3 + c] = (bilinearAt(region, p.x, p.y, c) - 127) / 128;
    }
  }
  return out;
}

/** The 512-d unit-length embedding of the face with these 68 landmarks (pixels of `region`). */
export async function embedFace(region: RgbRegion, landmarks: readonly Point2[]): Promise<Float32Array> {
  return embedAlignedInput(alignedInput(region, alignmentOf(landmarks)));
}

/** The unit-length embedding of a network input as `alignedInput` makes it. */
export async function embedAlignedInput(input: Float32Array): Promise<Float32Array> {
  const { tf, graph } = await loadFaceEmbedding();
  const result = tf.tidy(() => graph.run(tf.tensor4d(input, [1, ALIGNED_SIDE, ALIGNED_SIDE, 3])));
  const vector = Float32Array.from(await result.data());
  result.dispose();
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
  await embedAlignedInput(new Float32Array(3 * ALIGNED_SIDE * ALIGNED_SIDE));
}
