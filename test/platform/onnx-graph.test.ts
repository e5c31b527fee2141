// The ONNX reader behind the face embedding: the committed model's graph, and files it must refuse.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { readOnnxGraph } from '../../src/platform/ml/onnx-graph.ts';

const model = readFileSync(new URL('../../models/face-embedding/fr_feature.onnx', import.meta.url));

describe('ONNX graph reader', () => {
  it('reads the face embedding model: its ops in order, float weights, one input and one output', () => {
    const graph = readOnnxGraph(model);
    assert.deepEqual(graph.inputs, ['input']);
    assert.deepEqual(graph.outputs, ['output']);
    assert.deepEqual(new Set(graph.nodes.map((n) => n.op)), new Set(['Conv', 'PRelu', 'Add', 'Reshape']));
    const first = graph.nodes[0]!;
    assert.equal(first.op, 'Conv');
    assert.deepEqual(first.ints.strides, [2, 2]);
    assert.deepEqual(first.ints.pads, [1, 1, 1, 1]);
    const weights = graph.initializers.get(first.inputs[1]!)!;
    assert.deepEqual(weights.dims, [64, 3, 3, 3]);
    assert.ok(weights.values instanceof Float32Array && weights.values.length === 64 * 27);
    assert.ok(weights.values.every(Number.isFinite));
    const reshape = graph.nodes.at(-1)!;
    assert.deepEqual(graph.initializers.get(reshape.inputs[1]!)!.values, [1, -1]);
  });

  it('reads the face antispoof model: its squeeze-excitation ops and Gemm with float attributes', () => {
    const graph = readOnnxGraph(
      readFileSync(new URL('../../models/face-antispoof/minifasnet-v1se-4.0.onnx', import.meta.url)),
    );
    const ops = new Set(graph.nodes.map((n) => n.op));
    for (const op of ['GlobalAveragePool', 'Relu', 'Sigmoid', 'Mul', 'Flatten', 'Gemm', 'Softmax'])
      assert.ok(ops.has(op), op);
    const gemm = graph.nodes.find((n) => n.op === 'Gemm')!;
    assert.deepEqual(gemm.floats.alpha, [1]);
    assert.deepEqual(gemm.floats.beta, [1]);
    assert.deepEqual(gemm.ints.transB, [1]);
    assert.equal(gemm.ints.alpha, undefined);
  });

  it('refuses a truncated file and bytes that hold no graph, with a message', () => {
    assert.throws(() => readOnnxGraph(model.subarray(0, model.length - 1000)), /ONNX: truncated/);
    assert.throws(() => readOnnxGraph(Buffer.from('not a model')), /ONNX: /);
    assert.throws(() => readOnnxGraph(new Uint8Array(0)), /ONNX: the file holds no graph/);
  });
});
