/**
 * A minimal protobuf *writer*: exactly the wire types an ONNX ModelProto needs (varint, 64-bit
 * varint, fixed32 float, length-delimited). We write our own instead of using `onnx-proto` because
 * that package is CommonJS on protobufjs 6 (a second protobuf runtime next to ORT's), and ~80 lines
 * are easier to audit than a generated schema. `onnx-proto` is still used in a test to decode what
 * we write, so the two must agree.
 *
 * Messages are built bottom-up: encode a child message into bytes, then embed it as a
 * length-delimited field of its parent. Sizes are tiny (a few KB), so the copies are irrelevant.
 */

const WIRE_VARINT = 0;
const WIRE_LEN = 2;
const WIRE_FIXED32 = 5;

export class ProtoWriter {
  private chunks: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.size += bytes.length;
  }

  private tag(field: number, wire: number): void {
    this.rawVarint(BigInt(field) << 3n | BigInt(wire));
  }

  /** Unsigned LEB128. Negative int64/int32 values are sent as their 64-bit two's complement (10 bytes), as protobuf does. */
  private rawVarint(value: bigint): void {
    let v = BigInt.asUintN(64, value);
    const out: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) byte |= 0x80;
      out.push(byte);
    } while (v !== 0n);
    this.push(Uint8Array.from(out));
  }

  /** int32/int64/enum/bool field. Accepts number or bigint (int64 dims and initializer values may exceed 2^53). */
  int(field: number, value: number | bigint): this {
    if (typeof value === 'number' && !Number.isInteger(value)) throw new RangeError(`field ${field}: ${value} is not an integer`);
    this.tag(field, WIRE_VARINT);
    this.rawVarint(BigInt(value));
    return this;
  }

  /** 32-bit float field (AttributeProto.f). */
  float(field: number, value: number): this {
    this.tag(field, WIRE_FIXED32);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.push(b);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, WIRE_LEN);
    this.rawVarint(BigInt(value.length));
    this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  /** Embedded message, given as the bytes of an already-finished writer. */
  message(field: number, child: ProtoWriter): this {
    return this.bytes(field, child.finish());
  }

  /** Packed repeated int64 (proto3 default for repeated scalars). */
  packedInts(field: number, values: readonly (number | bigint)[]): this {
    const inner = new ProtoWriter();
    for (const v of values) inner.rawVarint(BigInt(v));
    return this.bytes(field, inner.finish());
  }

  /** Packed repeated float. */
  packedFloats(field: number, values: readonly number[]): this {
    const b = new Uint8Array(values.length * 4);
    const view = new DataView(b.buffer);
    values.forEach((v, i) => view.setFloat32(i * 4, v, true));
    return this.bytes(field, b);
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}
