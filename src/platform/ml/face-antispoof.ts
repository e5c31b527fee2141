// Passive face presentation-attack detection: the two MiniFASNet networks of Silent-Face-Anti-Spoofing
// (models/face-antispoof, Apache-2.0; README there), run as their authors run them (their test.py):
// each net sees the face box scaled by its own factor (2.7 and 4.0: the face with more or less of
// its surroundings — a screen's or a paper's edge, the hand holding it), cut from the picture,
// resized to 80×80, BGR, values 0..255; the two nets' softmax outputs are averaged and class 1 is
// "live" (0 print, 2 screen replay). Read by onnx-graph.ts and run by onnx-tfjs.ts on the process's
// tfjs runtime, loaded once per process (per worker thread).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Tf from '@tensorflow/tfjs';
import type { RgbRegion } from '../image/bilinear.ts';
import type { FaceBox } from './face-api.ts';
import { readOnnxGraph } from './onnx-graph.ts';
import { type CompiledGraph, compileOnnxGraph } from './onnx-tfjs.ts';
import { loadTfjs } from './tfjs.ts';

export const FACE_ANTISPOOF_MODEL = 'MiniFASNetV2@2.7+MiniFASNetV1SE@4.0 (Silent-Face-Anti-Spoofing b6d5f04)';
export const ANTISPOOF_SIDE = 80;
const MODEL_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../models/face-antispoof',
);
/** Each net with the factor its face box is scaled by (the weight file's name upstream says it). */
const NETS = [
  { file: 'minifasnet-v2-2.7.onnx', scale: 2.7 },
  { file: 'minifasnet-v1se-4.0.onnx', scale: 4.0 },
] as const;

export interface FaceAntispoofScore {
  /** Mean probability of "live" over the two nets, 0..1. */
  live: number;
  /** Mean probability of a printed face and of a screen. */
  print: number;
  screen: number;
}

interface Loaded {
  tf: typeof Tf;
  nets: { graph: CompiledGraph; scale: number }[];
}

let loaded: Promise<Loaded> | undefined;

export function loadFaceAntispoof(): Promise<Loaded> {
  loaded ??= (async () => {
    const tf = await loadTfjs();
    const nets = NETS.map(({ file, scale }) => ({
      scale,
      graph: compileOnnxGraph(
        tf,
        readOnnxGraph(readFileSync(path.join(MODEL_DIR, file))),
        `face antispoof ${file}`,
      ),
    }));
    return { tf, nets };
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/**
 * The box the authors' CropImage cuts: the face box scaled by `scale` about its centre (less when
 * the picture is too small for it), shifted inside the picture. Integer corners, inclusive.
 */
export function scaledFaceBox(
  width: number,
  height: number,
  box: FaceBox,
  scale: number,
): { x0: number; y0: number; x1: number; y1: number } {
  const s = Math.min((height - 1) / box.height, (width - 1) / box.width, scale);
  const w = box.width * s;
  const h = box.height * s;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  let [x0, y0, x1, y1] = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
  if (x0 < 0) [x1, x0] = [x1 - x0, 0];
  if (y0 < 0) [y1, y0] = [y1 - y0, 0];
  if (x1 > width - 1) [x0, x1] = [x0 - (x1 - width + 1), width - 1];
  if (y1 > height - 1) [y0, y1] = [y0 - (y1 - height + 1), height - 1];
  return { x0: Math.trunc(x0), y0: Math.trunc(y0), x1: Math.trunc(x1), y1: Math.trunc(y1) };
}

/**
 * A net's input: the scaled box resized to 80×80 as OpenCV's INTER_LINEAR resizes (pixel centres
 * aligned, the two nearest source pixels per axis), NHWC with the channels in BGR order, 0..255.
 */
export function antispoofInput(region: RgbRegion, box: FaceBox, scale: number): Float32Array {
  const { x0, y0, x1, y1 } = scaledFaceBox(region.width, region.height, box, scale);
  const cropW = x1 - x0 + 1;
  const cropH = y1 - y0 + 1;
  const out = new Float32Array(ANTISPOOF_SIDE * ANTISPOOF_SIDE * 3);
  const { data, width } = region;
  const axis = (i: number, size: number) => {
    const f = Math.min(size - 1, Math.max(0, (i + 0.5) * (size / ANTISPOOF_SIDE) - 0.5));
    const a = Math.min(size - 2, Math.floor(f));
    return size < 2 ? ([0, 0, 0] as const) : ([a, a + 1, f - a] as const);
  };
  for (let y = 0; y < ANTISPOOF_SIDE; y++) {
    const [ya, yb, fy] = axis(y, cropH);
    for (let x = 0; x < ANTISPOOF_SIDE; x++) {
      const [xa, xb, fx] = axis(x, cropW);
      const at = (xx: number, yy: number, c: number) => data[((y0 + yy) * width + x0 + xx) * 3 + c]!;
      for (let c = 0; c < 3; c++) {
        const top = at(xa, ya, c) * (1 - fx) + at(xb, ya, c) * fx;
        const bottom = at(xa, yb, c) * (1 - fx) + at(xb, yb, c) * fx;
        // RGB in, BGR out.
        out[(y * ANTISPOOF_SIDE + x) * 3 + (2 - c)] = top * (1 - fy) + bottom * fy;
      }
    }
  }
  return out;
}

/** The two nets' mean class probabilities for the face in `box` (pixels of `region`). */
export async function scoreFaceAntispoof(region: RgbRegion, box: FaceBox): Promise<FaceAntispoofScore> {
  const { tf, nets } = await loadFaceAntispoof();
  const sum = [0, 0, 0];
  for (const { graph, scale } of nets) {
    const input = antispoofInput(region, box, scale);
    const probabilities = await runNet(tf, graph, input);
    for (let k = 0; k < 3; k++) sum[k]! += probabilities[k]! / nets.length;
  }
  return { print: sum[0]!, live: sum[1]!, screen: sum[2]! };
}

/** One net on one input as antispoofInput makes it: its three class probabilities. */
export async function runNet(
  tf: typeof Tf,
  graph: CompiledGraph,
  input: Float32Array,
): Promise<Float32Array> {
  const result = tf.tidy(() => graph.run(tf.tensor4d(input, [1, ANTISPOOF_SIDE, ANTISPOOF_SIDE, 3])));
  const values = Float32Array.from(await result.data());
  result.dispose();
  if (values.length !== 3) throw new Error(`face antispoof: expected 3 probabilities, got ${values.length}`);
  return values;
}

/** Load the nets and run them once on a blank input, so a worker's first real job does not pay for it. */
export async function warmUpFaceAntispoof(): Promise<void> {
  const { tf, nets } = await loadFaceAntispoof();
  for (const { graph } of nets)
    await runNet(tf, graph, new Float32Array(ANTISPOOF_SIDE * ANTISPOOF_SIDE * 3));
}
