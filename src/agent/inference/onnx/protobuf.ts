/**
 * The little of protobuf an ONNX file needs (an ONNX model is a protobuf `ModelProto`): a writer for building
 * graphs (graph.ts: the engine probe, the tests' and the bench's models) and a reader of a message's top-level
 * fields (model metadata: class names). No schema, no dependency.
 */

/** Wire types. */
export const WIRE = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 } as const;

/** Base-128 varint of a non-negative integer, or of a negative one as 64-bit two's complement (10 bytes). */
export function varint(value: number | bigint): Uint8Array {
  let v = BigInt(value);
  if (v < 0n) v = BigInt.asUintN(64, v);
  const out: number[] = [];
  while (v > 0x7fn) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const tag = (field: number, wire: number) => varint(field * 8 + wire);

/** A varint field (int32/int64/enum/bool). */
export const intField = (field: number, value: number | bigint): Uint8Array =>
  concat([tag(field, WIRE.varint), varint(value)]);

/** A length-delimited field: bytes, a UTF-8 string, or an embedded message's bytes. */
export function bytesField(field: number, value: Uint8Array | string): Uint8Array {
  const body = typeof value === 'string' ? new TextEncoder().encode(value) : value;
  return concat([tag(field, WIRE.bytes), varint(body.length), body]);
}

/** An embedded message made of `parts` (already encoded fields). */
export const messageField = (field: number, ...parts: Uint8Array[]): Uint8Array =>
  bytesField(field, concat(parts));

/** A 32-bit float field (wire type 5, little-endian). */
export function floatField(field: number, value: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, value, true);
  return concat([tag(field, WIRE.fixed32), b]);
}

/** One top-level field as read: varints as bigint, length-delimited fields as a view of the bytes. */
export interface ReadField {
  field: number;
  wire: number;
  value: bigint | Uint8Array;
}

/**
 * The top-level fields of a protobuf message, in order. Embedded messages are not parsed (read them again
 * with this function). Throws RangeError on a truncated or malformed buffer.
 */
export function readFields(buf: Uint8Array): ReadField[] {
  const out: ReadField[] = [];
  let at = 0;
  const readVarint = (): bigint => {
    let shift = 0n;
    let v = 0n;
    for (;;) {
      if (at >= buf.length) throw new RangeError('protobuf: truncated varint');
      const b = buf[at++]!;
      v |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return v;
      shift += 7n;
      if (shift > 63n) throw new RangeError('protobuf: varint too long');
    }
  };
  while (at < buf.length) {
    const key = readVarint();
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === WIRE.varint) out.push({ field, wire, value: readVarint() });
    else if (wire === WIRE.bytes) {
      const len = Number(readVarint());
      if (at + len > buf.length) throw new RangeError('protobuf: truncated field');
      out.push({ field, wire, value: buf.subarray(at, at + len) });
      at += len;
    } else if (wire === WIRE.fixed32 || wire === WIRE.fixed64) {
      const len = wire === WIRE.fixed32 ? 4 : 8;
      if (at + len > buf.length) throw new RangeError('protobuf: truncated field');
      out.push({ field, wire, value: buf.subarray(at, at + len) });
      at += len;
    } else throw new RangeError(`protobuf: unsupported wire type ${wire}`);
  }
  return out;
}
