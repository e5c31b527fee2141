// An ONNX graph (onnx-graph.ts) as tfjs operations, for the plain convolutional networks the
// project runs on the process's tfjs runtime (tfjs.ts): the face embedding and the face
// presentation-attack nets. Tensors are kept NHWC (ONNX is NCHW: the weights are turned when
// loaded, and an op that depends on the channel order — Flatten, Reshape — turns its input back).
// Only the ops and settings these networks use are supported; anything else is an error at load,
// naming the op, never a guess.
import type * as Tf from '@tensorflow/tfjs';
import type { OnnxGraph, OnnxNode } from './onnx-graph.ts';

/** One step of the network: reads its inputs from `values` and sets its output there. */
type Step = (values: Map<string, Tf.Tensor>) => void;

export interface CompiledGraph {
  input: string;
  output: string;
  /** The output for an NHWC input; call inside tf.tidy (intermediate tensors are not disposed). */
  run(input: Tf.Tensor4D): Tf.Tensor;
}

/** The graph's one input and one output and its nodes as steps; `label` names the model in errors. */
export function compileOnnxGraph(tf: typeof Tf, graph: OnnxGraph, label: string): CompiledGraph {
  const [input] = graph.inputs;
  const [output] = graph.outputs;
  if (graph.inputs.length !== 1 || graph.outputs.length !== 1 || !input || !output)
    throw new Error(`${label}: the model should have one input and one output`);
  const steps = graph.nodes.map((node) => stepOf(tf, graph, node, label));
  return {
    input,
    output,
    run(x) {
      const values = new Map<string, Tf.Tensor>([[input, x]]);
      for (const step of steps) step(values);
      const result = values.get(output);
      if (!result) throw new Error(`${label}: the network computed no ${output}`);
      return result;
    },
  };
}

function stepOf(tf: typeof Tf, graph: OnnxGraph, node: OnnxNode, label: string): Step {
  const weight = (name: string | undefined) => {
    const t = name === undefined ? undefined : graph.initializers.get(name);
    if (!t) throw new Error(`${label}: ${node.op} needs the weight ${name}`);
    return t;
  };
  const [from, ...rest] = node.inputs;
  const [to] = node.outputs;
  if (!from || !to) throw new Error(`${label}: ${node.op} without an input or output`);
  const read = (values: Map<string, Tf.Tensor>, name: string) => {
    const t = values.get(name);
    if (!t) throw new Error(`${label}: ${name} is used before it is computed`);
    return t;
  };
  // ONNX's channel-first order of an NHWC tensor, for ops whose result depends on it.
  const channelFirst = (x: Tf.Tensor) => (x.rank === 4 ? tf.transpose(x, [0, 3, 1, 2]) : x);
  const unary = (op: (x: Tf.Tensor) => Tf.Tensor): Step => {
    return (values) => values.set(to, op(read(values, from)));
  };
  const binary = (op: (a: Tf.Tensor, b: Tf.Tensor) => Tf.Tensor): Step => {
    const [other] = rest;
    if (!other || graph.initializers.has(other) || graph.initializers.has(from))
      throw new Error(`${label}: ${node.op} of two computed tensors only is supported`);
    return (values) => values.set(to, op(read(values, from), read(values, other)));
  };
  switch (node.op) {
    case 'Conv': {
      const w = weight(rest[0]);
      const [outChannels, perGroup, kh, kw] = w.dims as [number, number, number, number];
      const group = node.ints.group?.[0] ?? 1;
      const [padTop, padLeft, padBottom, padRight] = node.ints.pads ?? [0, 0, 0, 0];
      const strides = (node.ints.strides ?? [1, 1]) as [number, number];
      const symmetric = padTop === padBottom && padLeft === padRight && padTop === padLeft;
      if (!symmetric || (node.ints.dilations ?? [1, 1]).some((d) => d !== 1))
        throw new Error(`${label}: Conv with asymmetric padding or dilation is not supported`);
      const isDepthwise = group === outChannels && perGroup === 1 && group > 1;
      if (group !== 1 && !isDepthwise)
        throw new Error(`${label}: Conv with ${group} groups is not supported`);
      const oihw = tf.tensor4d(w.values as Float32Array, [outChannels, perGroup, kh, kw]);
      // OIHW → HWIO (conv2d) or → HW·C·1 (depthwise: O = C, I = 1).
      const filter = tf.transpose(oihw, isDepthwise ? [2, 3, 0, 1] : [2, 3, 1, 0]) as Tf.Tensor4D;
      oihw.dispose();
      const bias = rest[1] ? tf.tensor1d(weight(rest[1]).values as Float32Array) : undefined;
      const pad = padTop ?? 0;
      return (values) => {
        const x = read(values, from) as Tf.Tensor4D;
        const args = { x, filter, strides, pad, ...(bias ? { bias } : {}) };
        values.set(to, isDepthwise ? tf.fused.depthwiseConv2d(args) : tf.fused.conv2d(args));
      };
    }
    case 'PRelu': {
      const alpha = tf.tensor1d(weight(rest[0]).values as Float32Array);
      return unary((x) => tf.prelu(x, alpha));
    }
    case 'Relu':
      return unary((x) => tf.relu(x));
    case 'Sigmoid':
      return unary((x) => tf.sigmoid(x));
    case 'Add':
      // NHWC broadcasting is ONNX's NCHW broadcasting for same-rank tensors with 1-sized axes.
      return binary((a, b) => tf.add(a, b));
    case 'Mul':
      return binary((a, b) => tf.mul(a, b));
    case 'GlobalAveragePool':
      return unary((x) => tf.mean(x, [1, 2], true));
    case 'Flatten': {
      if ((node.ints.axis?.[0] ?? 1) !== 1) throw new Error(`${label}: Flatten on an axis other than 1`);
      return unary((x) => tf.reshape(channelFirst(x), [x.shape[0] ?? 1, -1]));
    }
    case 'Reshape': {
      const shape = weight(rest[0]).values as number[];
      // In ONNX's channel-first order, as the model means it.
      return unary((x) => tf.reshape(channelFirst(x), shape));
    }
    case 'Gemm': {
      const alpha = node.floats.alpha?.[0] ?? 1;
      const beta = node.floats.beta?.[0] ?? 1;
      if (alpha !== 1 || beta !== 1 || (node.ints.transA?.[0] ?? 0) !== 0)
        throw new Error(`${label}: Gemm with alpha, beta or transA is not supported`);
      const b = weight(rest[0]);
      const matrix = tf.tensor2d(b.values as Float32Array, b.dims as [number, number]);
      const transB = (node.ints.transB?.[0] ?? 0) === 1;
      const c = rest[1] ? tf.tensor1d(weight(rest[1]).values as Float32Array) : undefined;
      return unary((x) => {
        const product = tf.matMul(x as Tf.Tensor2D, matrix, false, transB);
        return c ? tf.add(product, c) : product;
      });
    }
    case 'MatMul': {
      const b = weight(rest[0]);
      const matrix = tf.tensor2d(b.values as Float32Array, b.dims as [number, number]);
      return unary((x) => tf.matMul(x as Tf.Tensor2D, matrix));
    }
    case 'Softmax': {
      const axis = node.ints.axis?.[0] ?? 1;
      return unary((x) => {
        if (x.rank !== 2 || (axis !== 1 && axis !== -1))
          throw new Error(`${label}: Softmax only over the last axis of a matrix`);
        return tf.softmax(x);
      });
    }
    default:
      throw new Error(`${label}: ONNX op ${node.op} is not supported`);
  }
}
