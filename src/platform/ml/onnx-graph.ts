// Just enough of the ONNX file format (a protobuf ModelProto) to run a plain convolutional network
// on tfjs (face-embedding.ts): the graph's nodes in order, their integer attributes, and the float
// weights. Anything else in a file — other tensor types, subgraphs, external data — is refused
// with a message naming it, never guessed at.

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  /** Integer and integer-list attributes (kernel_shape, strides, pads, dilations, group). */
  ints: Record<string, number[]>;
  /** Float and float-list attributes (Gemm's alpha and beta). */
  floats: Record<string, number[]>;
}

export interface OnnxTensor {
  dims: number[];
  /** float32 weights; int64 tensors (a Reshape's shape) as numbers. */
  values: Float32Array | number[];
}

export interface OnnxGraph {
  nodes: OnnxNode[];
  initializers: Map<string, OnnxTensor>;
  /** The graph inputs that are not weights, and the outputs. */
  inputs: string[];
  outputs: string[];
}

type Span = readonly [start: number, end: number];
type Field =
  | { field: number; varint: bigint }
  | { field: number; span: Span }
  | { field: number; fixed32: number }
  | { field: number; fixed: true };

class ProtoReader {
  constructor(private readonly bytes: Uint8Array) {}

  varintAt(at: { p: number }): bigint {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (at.p >= this.bytes.length) throw new Error('ONNX: truncated file');
      const b = this.bytes[at.p++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return result;
    }
  }

  *fields([start, end]: Span): Generator<Field> {
    const at = { p: start };
    while (at.p < end) {
      const key = Number(this.varintAt(at));
      const field = key >>> 3;
      switch (key & 7) {
        case 0:
          yield { field, varint: this.varintAt(at) };
          break;
        case 2: {
          const length = Number(this.varintAt(at));
          if (at.p + length > end) throw new Error('ONNX: truncated field');
          yield { field, span: [at.p, at.p + length] };
          at.p += length;
          break;
        }
        case 5:
          if (at.p + 4 > end) throw new Error('ONNX: truncated field');
          at.p += 4;
          yield { field, fixed32: at.p - 4 };
          break;
        case 1:
          at.p += 8;
          yield { field, fixed: true };
          break;
        default:
          throw new Error(`ONNX: unsupported protobuf wire type ${key & 7}`);
      }
    }
  }

  text([start, end]: Span): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + start, end - start).toString('utf8');
  }

  /** Signed 64-bit integers, packed or one per field. */
  ints(f: Field, into: number[]): void {
    if ('varint' in f) into.push(Number(BigInt.asIntN(64, f.varint)));
    else if ('span' in f) {
      const at = { p: f.span[0] };
      while (at.p < f.span[1]) into.push(Number(BigInt.asIntN(64, this.varintAt(at))));
    }
  }

  /** Float32 values, packed or one per field. */
  floats(f: Field, into: number[]): void {
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length);
    if ('fixed32' in f) into.push(view.getFloat32(f.fixed32, true));
    else if ('span' in f)
      for (let p = f.span[0]; p + 4 <= f.span[1]; p += 4) into.push(view.getFloat32(p, true));
  }

  /** A copy: the weights may sit at an offset that a typed array view cannot start at. */
  copy([start, end]: Span): ArrayBuffer {
    // (Not Buffer#slice, which is a view into the same memory.)
    return Uint8Array.prototype.slice.call(this.bytes, start, end).buffer;
  }
}

const FLOAT = 1;
const INT64 = 7;

/** The graph of an ONNX model file's bytes. */
export function readOnnxGraph(bytes: Uint8Array): OnnxGraph {
  const reader = new ProtoReader(bytes);
  let graph: Span | undefined;
  for (const f of reader.fields([0, bytes.length])) if (f.field === 7 && 'span' in f) graph = f.span;
  if (!graph) throw new Error('ONNX: the file holds no graph');
  const nodes: OnnxNode[] = [];
  const initializers = new Map<string, OnnxTensor>();
  const declaredInputs: string[] = [];
  const outputs: string[] = [];
  const valueName = (span: Span) => {
    for (const g of reader.fields(span)) if (g.field === 1 && 'span' in g) return reader.text(g.span);
    throw new Error('ONNX: a graph input or output without a name');
  };
  for (const f of reader.fields(graph)) {
    if (!('span' in f)) continue;
    if (f.field === 1) nodes.push(readNode(reader, f.span));
    else if (f.field === 5) {
      const [name, tensor] = readTensor(reader, f.span);
      initializers.set(name, tensor);
    } else if (f.field === 11) declaredInputs.push(valueName(f.span));
    else if (f.field === 12) outputs.push(valueName(f.span));
  }
  return { nodes, initializers, inputs: declaredInputs.filter((n) => !initializers.has(n)), outputs };
}

function readNode(reader: ProtoReader, span: Span): OnnxNode {
  const node: OnnxNode = { op: '', inputs: [], outputs: [], ints: {}, floats: {} };
  for (const f of reader.fields(span)) {
    if (!('span' in f)) continue;
    if (f.field === 1) node.inputs.push(reader.text(f.span));
    else if (f.field === 2) node.outputs.push(reader.text(f.span));
    else if (f.field === 4) node.op = reader.text(f.span);
    else if (f.field === 5) {
      let name = '';
      const values: number[] = [];
      const floats: number[] = [];
      for (const a of reader.fields(f.span)) {
        if (a.field === 1 && 'span' in a) name = reader.text(a.span);
        else if (a.field === 3 || a.field === 8) reader.ints(a, values);
        else if (a.field === 2 || a.field === 7) reader.floats(a, floats);
      }
      if (floats.length > 0) node.floats[name] = floats;
      else node.ints[name] = values;
    }
  }
  return node;
}

function readTensor(reader: ProtoReader, span: Span): [string, OnnxTensor] {
  const dims: number[] = [];
  const int64: number[] = [];
  let name = '';
  let type = 0;
  let raw: Span | undefined;
  for (const f of reader.fields(span)) {
    if (f.field === 1) reader.ints(f, dims);
    else if (f.field === 2 && 'varint' in f) type = Number(f.varint);
    else if (f.field === 7) reader.ints(f, int64);
    else if (f.field === 8 && 'span' in f) name = reader.text(f.span);
    else if (f.field === 9 && 'span' in f) raw = f.span;
    else if (f.field === 14) throw new Error(`ONNX: tensor ${name || '?'} keeps its data outside the file`);
  }
  const count = dims.reduce((a, b) => a * b, 1);
  if (type === FLOAT) {
    if (!raw || raw[1] - raw[0] !== count * 4)
      throw new Error(`ONNX: float tensor ${name} is not stored as ${count} raw values`);
    return [name, { dims, values: new Float32Array(reader.copy(raw)) }];
  }
  if (type === INT64) {
    if (raw) {
      const view = new DataView(reader.copy(raw));
      for (let i = 0; i < count; i++) int64.push(Number(view.getBigInt64(i * 8, true)));
    }
    return [name, { dims, values: int64 }];
  }
  throw new Error(`ONNX: tensor ${name} has data type ${type}; only float32 and int64 are read`);
}
