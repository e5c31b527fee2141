// The short-row Concat kernel (src/platform/ml/wasm-concat.ts) replaces tfjs-backend-wasm's for
// rows of a few values: it must give exactly what concatenation means, for every axis, dtype and
// mix of row lengths, and leave long rows and strings to the backend's kernel.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type * as Tf from '@tensorflow/tfjs';
import { loadTfjs } from '../../src/platform/ml/tfjs.ts';

let tf: typeof Tf;
before(async () => {
  tf = await loadTfjs();
});

/** Concatenation by definition: nested arrays joined along `axis`. */
function expected(parts: unknown[], axis: number): unknown {
  if (axis === 0) return (parts as unknown[][]).flat(1);
  const first = parts[0] as unknown[];
  return first.map((_, i) =>
    expected(
      (parts as unknown[][]).map((p) => p[i]),
      axis - 1,
    ),
  );
}

function ramp(shape: number[], start: number, dtype: 'float32' | 'int32'): Tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  return tf.tensor(
    Array.from({ length: n }, (_, i) => start + i * (dtype === 'float32' ? 0.5 : 1)),
    shape,
    dtype,
  );
}

test('the wasm backend runs our Concat kernel', () => {
  assert.equal(tf.getBackend(), 'wasm');
  assert.equal(tf.getKernel('Concat', 'wasm')?.kernelFunc.name, 'concatShortRows');
});

for (const dtype of ['float32', 'int32'] as const) {
  const cases: Array<{ shapes: number[][]; axis: number; name: string }> = [
    // face-api's mean colour: three one-value planes along the last axis
    {
      name: 'three [1,5,4,1] planes on the last axis',
      shapes: [
        [1, 5, 4, 1],
        [1, 5, 4, 1],
        [1, 5, 4, 1],
      ],
      axis: 3,
    },
    {
      name: 'rows of different short lengths',
      shapes: [
        [3, 2],
        [3, 5],
        [3, 1],
      ],
      axis: 1,
    },
    {
      name: 'a middle axis with short rows',
      shapes: [
        [2, 1, 3],
        [2, 4, 3],
      ],
      axis: 1,
    },
    {
      name: 'axis 0 (one row each)',
      shapes: [
        [2, 3],
        [1, 3],
      ],
      axis: 0,
    },
    {
      name: 'long rows (the backend kernel)',
      shapes: [
        [2, 40],
        [2, 17],
      ],
      axis: 1,
    },
    {
      name: 'a negative axis',
      shapes: [
        [2, 2, 1],
        [2, 2, 2],
      ],
      axis: -1,
    },
  ];
  for (const { name, shapes, axis } of cases) {
    test(`${dtype}: ${name}`, () => {
      const parts = shapes.map((s, i) => ramp(s, i * 100, dtype));
      const out = tf.concat(parts, axis);
      const along = axis < 0 ? shapes[0]!.length + axis : axis;
      assert.equal(out.dtype, dtype);
      assert.deepEqual(
        out.arraySync(),
        expected(
          parts.map((p) => p.arraySync()),
          along,
        ),
      );
      tf.dispose([...parts, out]);
    });
  }
}

test('an empty input is skipped, and a single non-empty one is returned as it is', () => {
  const a = ramp([2, 0], 0, 'float32');
  const b = ramp([2, 3], 1, 'float32');
  const c = ramp([2, 1], 9, 'float32');
  assert.deepEqual(tf.concat([a, b, c], 1).arraySync(), [
    [1, 1.5, 2, 9],
    [2.5, 3, 3.5, 9.5],
  ]);
  assert.deepEqual(tf.concat([a, b], 1).arraySync(), b.arraySync());
});

test('mismatched shapes are still refused', () => {
  assert.throws(
    () => tf.concat([ramp([2, 1], 0, 'int32'), ramp([3, 1], 0, 'int32')], 1),
    /shape|rank|dimension/i,
  );
});
