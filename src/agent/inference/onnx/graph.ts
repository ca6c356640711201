/**
 * Building ONNX models in code (ONNX IR, `onnx.proto3`: ModelProto, GraphProto, NodeProto, TensorProto,
 * ValueInfoProto, AttributeProto) and reading a model's metadata. Used for the engine probe (a one-node model
 * that tells whether an execution provider really loads), by the tests (small detectors whose output is known)
 * and by the bench (a YOLO-sized graph). Reading: `metadata_props` (Ultralytics exports keep the class names
 * there as `names`).
 */
import { bytesField, concat, floatField, intField, messageField, readFields } from './protobuf';

/** ONNX TensorProto.DataType values used here. */
export const ONNX_TYPE = { float: 1, int64: 7 } as const;
export type OnnxElemType = keyof typeof ONNX_TYPE;

/** An attribute value: an integer, a list of integers, a string, or a float ({ float }). */
export type AttrValue = number | readonly number[] | string | { float: number };

export interface OnnxNode {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  attrs?: Record<string, AttrValue>;
  name?: string;
}

/** A constant (initializer): float32 or int64 data, row-major over `dims`. */
export interface OnnxInitializer {
  name: string;
  dims: readonly number[];
  data: Float32Array | BigInt64Array;
}

/** A graph input or output: element type and shape (a string is a symbolic dimension). */
export interface OnnxValueInfo {
  name: string;
  type: OnnxElemType;
  shape: readonly (number | string)[];
}

export interface OnnxModelSpec {
  name: string;
  nodes: readonly OnnxNode[];
  initializers?: readonly OnnxInitializer[];
  inputs: readonly OnnxValueInfo[];
  outputs: readonly OnnxValueInfo[];
  /** ModelProto.metadata_props (key → value). */
  metadata?: Record<string, string>;
  /** Default-domain opset (default 17). */
  opset?: number;
}

const ATTR_TYPE = { float: 1, int: 2, string: 3, ints: 7 } as const;

function attribute(name: string, v: AttrValue): Uint8Array {
  if (typeof v === 'string')
    return concat([bytesField(1, name), bytesField(4, v), intField(20, ATTR_TYPE.string)]);
  if (typeof v === 'number')
    return concat([bytesField(1, name), intField(3, v), intField(20, ATTR_TYPE.int)]);
  if (Array.isArray(v)) {
    return concat([bytesField(1, name), ...v.map((i) => intField(8, i)), intField(20, ATTR_TYPE.ints)]);
  }
  return concat([
    bytesField(1, name),
    floatField(2, (v as { float: number }).float),
    intField(20, ATTR_TYPE.float),
  ]);
}

function node(n: OnnxNode, index: number): Uint8Array {
  return concat([
    ...n.inputs.map((i) => bytesField(1, i)),
    ...n.outputs.map((o) => bytesField(2, o)),
    bytesField(3, n.name ?? `${n.op.toLowerCase()}_${index}`),
    bytesField(4, n.op),
    ...Object.entries(n.attrs ?? {}).map(([k, v]) => messageField(5, attribute(k, v))),
  ]);
}

function initializer(t: OnnxInitializer): Uint8Array {
  const count = t.dims.reduce((a, b) => a * b, 1);
  if (count !== t.data.length)
    throw new Error(`initializer ${t.name}: ${t.data.length} values for dims ${t.dims}`);
  const type = t.data instanceof Float32Array ? ONNX_TYPE.float : ONNX_TYPE.int64;
  // raw_data is little-endian; every platform Node runs on here is little-endian.
  const raw = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  return concat([
    ...t.dims.map((d) => intField(1, d)),
    intField(2, type),
    bytesField(8, t.name),
    bytesField(9, raw),
  ]);
}

function valueInfo(v: OnnxValueInfo): Uint8Array {
  const dims = v.shape.map((d) => messageField(1, typeof d === 'number' ? intField(1, d) : bytesField(2, d)));
  const tensorType = concat([intField(1, ONNX_TYPE[v.type]), messageField(2, ...dims)]);
  return concat([bytesField(1, v.name), messageField(2, messageField(1, tensorType))]);
}

/** Encodes a model (ir_version 8) as the bytes of an .onnx file. */
export function encodeModel(spec: OnnxModelSpec): Uint8Array {
  const graph = concat([
    ...spec.nodes.map((n, i) => messageField(1, node(n, i))),
    bytesField(2, spec.name),
    ...(spec.initializers ?? []).map((t) => messageField(5, initializer(t))),
    ...spec.inputs.map((v) => messageField(11, valueInfo(v))),
    ...spec.outputs.map((v) => messageField(12, valueInfo(v))),
  ]);
  return concat([
    intField(1, 8),
    bytesField(2, 'edge-console'),
    bytesField(3, '1'),
    messageField(7, graph),
    messageField(8, bytesField(1, ''), intField(2, spec.opset ?? 17)),
    ...Object.entries(spec.metadata ?? {}).map(([k, v]) =>
      messageField(14, bytesField(1, k), bytesField(2, v)),
    ),
  ]);
}

/** ModelProto.metadata_props of an .onnx file's bytes (key → value); {} when there are none. */
export function readOnnxMetadata(model: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  const text = new TextDecoder();
  for (const f of readFields(model)) {
    if (f.field !== 14 || !(f.value instanceof Uint8Array)) continue;
    let key = '';
    let value = '';
    for (const e of readFields(f.value)) {
      if (!(e.value instanceof Uint8Array)) continue;
      if (e.field === 1) key = text.decode(e.value);
      else if (e.field === 2) value = text.decode(e.value);
    }
    if (key) out[key] = value;
  }
  return out;
}

/**
 * The class names of an Ultralytics-style `names` metadata value: a Python dict literal
 * `{0: 'person', 1: 'bicycle'}` (or JSON `{"0": "person"}` / `["person", …]`), in index order; null when it
 * cannot be read.
 */
export function parseClassNames(value: string | undefined): string[] | null {
  if (!value) return null;
  const trimmed = value.trim();
  try {
    const json: unknown = JSON.parse(trimmed);
    if (Array.isArray(json) && json.every((n) => typeof n === 'string')) return json as string[];
  } catch {
    // not JSON: a Python dict literal
  }
  const entries = [...trimmed.matchAll(/["']?(\d+)["']?\s*:\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/g)];
  if (entries.length === 0) return null;
  const names: string[] = [];
  for (const m of entries) names[Number(m[1])] = m[2] ?? m[3] ?? '';
  for (let i = 0; i < names.length; i++) names[i] ??= `class_${i}`;
  return names;
}

/** A one-node model (`y = Identity(x)`, x float[1, 4]): loads on any execution provider (the probe). */
export function identityModel(): Uint8Array {
  return encodeModel({
    name: 'probe',
    nodes: [{ op: 'Identity', inputs: ['x'], outputs: ['y'] }],
    inputs: [{ name: 'x', type: 'float', shape: [1, 4] }],
    outputs: [{ name: 'y', type: 'float', shape: [1, 4] }],
  });
}
