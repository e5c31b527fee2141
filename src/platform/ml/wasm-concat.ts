// A quicker Concat for tfjs-backend-wasm. Its kernel is JavaScript that copies each row of each
// input with `subarray` + `set`: fine for long rows, but face-api subtracts its mean colour by
// concatenating three [1, h, w, 1] planes along the last axis, rows of one value: 0.5 million
// subarray objects for one 416-px detector input, ~50 ms and much garbage per face detection
// (measured: a sixth of a face description's CPU). This kernel copies short rows value by value
// and leaves every other case (long rows, strings) to the backend's own kernel. The output is the
// same bytes either way: it is a copy.
import type * as Tf from '@tensorflow/tfjs';

interface WasmBackend {
  makeOutput(shape: number[], dtype: Tf.DataType): Tf.TensorInfo;
  typedArrayFromHeap(t: Tf.TensorInfo): Tf.TypedArray;
}

/** Rows at most this long are copied value by value. */
const SHORT_ROW = 16;

let installed = false;

export function installShortRowConcat(tf: typeof Tf): void {
  if (installed) return;
  const original = tf.getKernel('Concat', 'wasm');
  if (!original) return;
  const size = tf.util.sizeFromShape;
  const concatShortRows: Tf.KernelFunc = (args) => {
    const inputs = args.inputs as unknown as Tf.TensorInfo[];
    const nonEmpty = inputs.filter((t) => size(t.shape) > 0);
    const first = nonEmpty[0];
    if (!first || nonEmpty.length < 2 || first.dtype === 'string') return original.kernelFunc(args);
    const axis = tf.util.parseAxisParam((args.attrs as { axis: number }).axis, first.shape)[0] ?? 0;
    const rows = nonEmpty.map((t) => size(t.shape.slice(axis)));
    if (Math.max(...rows) > SHORT_ROW) return original.kernelFunc(args);
    const shapes = inputs.map((t) => t.shape);
    tf.backend_util.assertParamsConsistent(shapes, axis);
    const backend = args.backend as unknown as WasmBackend;
    const out = backend.makeOutput(tf.backend_util.computeOutShape(shapes, axis), first.dtype);
    const to = backend.typedArrayFromHeap(out);
    const from = nonEmpty.map((t) => backend.typedArrayFromHeap(t));
    const batch = size(first.shape.slice(0, axis));
    let o = 0;
    for (let b = 0; b < batch; b++) {
      for (let i = 0; i < from.length; i++) {
        const row = rows[i] as number;
        const values = from[i] as Tf.TypedArray;
        for (let j = b * row, end = j + row; j < end; j++) to[o++] = values[j] as number;
      }
    }
    return out;
  };
  tf.unregisterKernel('Concat', 'wasm');
  tf.registerKernel({ ...original, kernelFunc: concatShortRows });
  installed = true;
}
