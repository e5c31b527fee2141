// The face embedding's alignment (five points → similarity transform → 112×112 input) and its network.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ALIGNED_SIDE,
  alignedInput,
  embedAlignedInput,
  embedFace,
  FACE_EMBEDDING_SIZE,
  fitSimilarity,
  fivePoints,
  type Point2,
  type Similarity,
  sourceOf,
  warmUpFaceEmbedding,
} from '../../src/platform/ml/face-embedding.ts';

const apply = (t: Similarity, p: Point2): Point2 => ({
  x: t.a * p.x - t.b * p.y + t.tx,
  y: t.b * p.x + t.a * p.y + t.ty,
});

describe('face embedding: alignment', () => {
  const points: Point2[] = [
    { x: 30, y: 40 },
    { x: 70, y: 42 },
    { x: 50, y: 60 },
    { x: 35, y: 80 },
    { x: 66, y: 79 },
  ];

  it('recovers a turn, scale and shift from five points, and sourceOf inverts it', () => {
    const angle = (20 * Math.PI) / 180;
    const truth = { a: 1.7 * Math.cos(angle), b: 1.7 * Math.sin(angle), tx: -12, ty: 33 };
    const fitted = fitSimilarity(
      points,
      points.map((p) => apply(truth, p)),
    );
    for (const k of ['a', 'b', 'tx', 'ty'] as const) assert.ok(Math.abs(fitted[k] - truth[k]) < 1e-9, k);
    const moved = apply(fitted, points[2]!);
    const back = sourceOf(fitted, moved.x, moved.y);
    assert.ok(Math.abs(back.x - 50) < 1e-9 && Math.abs(back.y - 60) < 1e-9);
  });

  it('refuses points that coincide, and landmark sets that are not 68 points', () => {
    const same = Array.from({ length: 5 }, () => ({ x: 3, y: 4 }));
    assert.throws(() => fitSimilarity(same, points), /coincide/);
    assert.throws(() => fivePoints(points), /expected 68 landmarks, got 5/);
  });

  it('takes the eye centres, the nose tip and the mouth corners of the 68 landmarks', () => {
    const landmarks = Array.from({ length: 68 }, (_, i) => ({ x: i, y: 2 * i }));
    assert.deepEqual(fivePoints(landmarks), [
      { x: 38.5, y: 77 },
      { x: 44.5, y: 89 },
      { x: 30, y: 60 },
      { x: 48, y: 96 },
      { x: 54, y: 108 },
    ]);
  });

  it('samples the picture through the transform, RGB interleaved, scaled to about [-1, 1]; the edge beyond it', () => {
    // Red = x, green = y, blue = 200, on a 200×150 picture; identity transform shifted by 100 in x.
    const width = 200;
    const height = 150;
    const data = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) data.set([x, y, 200], (y * width + x) * 3);
    const input = alignedInput({ data, width, height }, { a: 1, b: 0, tx: -100, ty: 0 });
    const at = (c: number, x: number, y: number) => input[(y * ALIGNED_SIDE + x) * 3 + c]! * 128 + 127;
    assert.equal(input.length, 3 * ALIGNED_SIDE ** 2);
    assert.ok(Math.abs(at(0, 10, 5) - 110) < 1e-4);
    assert.ok(Math.abs(at(1, 10, 5) - 5) < 1e-4);
    assert.ok(Math.abs(at(2, 10, 5) - 200) < 1e-4);
    // x 100 + 111 is past the right edge (199): the edge pixel.
    assert.ok(Math.abs(at(0, 111, 5) - 199) < 1e-4);
  });
});

describe('face embedding: the network', () => {
  it('computes what onnxruntime computes for the same model and input', async () => {
    // The first 8 of the 512 outputs onnxruntime-web 1.30.0 gave for this input (whose norm was
    // 2.632847), recorded when the tfjs runner was written (docs/face-match.md "The embedding").
    const onnxruntime = [-0.046243, -0.116791, 0.036116, 0.192979, 0.15425, 0.120527, 0.067706, 0.018668];
    const input = Float32Array.from({ length: 3 * ALIGNED_SIDE ** 2 }, (_, i) => Math.sin(i * 0.37) * 0.9);
    const vector = await embedAlignedInput(input);
    for (const [i, value] of onnxruntime.entries())
      assert.ok(
        Math.abs(vector[i]! - value / 2.632847) < 1e-5,
        `value ${i}: ${vector[i]} vs ${value / 2.632847}`,
      );
  });

  it('gives 512 finite values of unit length, the same for the same input', async () => {
    await warmUpFaceEmbedding();
    const width = 160;
    const height = 160;
    const data = Uint8Array.from({ length: width * height * 3 }, (_, i) => (i * 37) % 251);
    const landmarks = Array.from({ length: 68 }, (_, i) => ({
      x: 40 + (i % 9) * 10,
      y: 40 + Math.floor(i / 9) * 10,
    }));
    const a = await embedFace({ data, width, height }, landmarks);
    const b = await embedFace({ data, width, height }, landmarks);
    assert.equal(a.length, FACE_EMBEDDING_SIZE);
    assert.ok(a.every(Number.isFinite));
    assert.ok(Math.abs(Math.hypot(...a) - 1) < 1e-5);
    assert.deepEqual(a, b);
  });
});
