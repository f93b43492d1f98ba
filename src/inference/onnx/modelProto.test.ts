import { onnx } from 'onnx-proto';
import { describe, expect, it } from 'vitest';
import { attr, GraphBuilder } from './graphBuilder';
import { encodeModel, irVersionForOpset } from './modelProto';
import { ProtoWriter } from './protobuf';

interface DecodedAttr {
  name: string;
  type: number;
  i: unknown;
  f: number;
  ints: unknown[];
}
interface DecodedValueInfo {
  name: string;
  type: { tensorType: { elemType: number; shape: { dim: { dimValue?: unknown; dimParam?: string }[] } } };
}
interface DecodedModel {
  irVersion: unknown;
  producerName: string;
  opsetImport: { domain: string; version: unknown }[];
  graph: {
    name: string;
    docString: string;
    input: DecodedValueInfo[];
    output: DecodedValueInfo[];
    node: { opType: string; attribute: DecodedAttr[] }[];
    initializer: { dims: unknown[]; dataType: number; rawData: Uint8Array }[];
  };
}

/** Decodes with onnx-proto (protobufjs, generated from onnx.proto): an independent reader. */
function decode(bytes: Uint8Array): DecodedModel {
  return onnx.ModelProto.decode(bytes) as unknown as DecodedModel;
}

const num = (v: unknown) => Number(v as number);

describe('ProtoWriter', () => {
  it('writes varints, negative int64 as ten bytes, and fixed32 floats', () => {
    expect([...new ProtoWriter().int(1, 300).finish()]).toEqual([0x08, 0xac, 0x02]);
    const neg = new ProtoWriter().int(3, -1).finish();
    expect(neg.length).toBe(11); // tag + 10-byte varint
    expect([...new ProtoWriter().float(2, 1).finish()]).toEqual([0x15, 0, 0, 0x80, 0x3f]);
  });

  it('rejects non-integer ints', () => {
    expect(() => new ProtoWriter().int(1, 1.5)).toThrow(/not an integer/);
  });
});

describe('encodeModel', () => {
  function sample() {
    const g = new GraphBuilder('sample');
    const x = g.input('x', 'float32', [1, 'n', 2]);
    const k = g.input('k', 'int64', [1]);
    const w = g.f32([1, 2, 3, 4], [2, 2], 'w');
    const y = g.op('MatMul', [x, w]);
    const z = g.op('Add', [y, g.op('Cast', [k], { to: attr.i(1) })]);
    g.output('y', 'float32', [1, 'n', 2], z);
    return encodeModel({ graph: g.build('doc'), opset: 17, producer: 'test' });
  }

  it('round-trips through an independent protobuf reader', () => {
    const m = decode(sample());
    expect(num(m.irVersion)).toBe(irVersionForOpset(17));
    expect(m.producerName).toBe('test');
    expect(m.opsetImport.map((o) => [o.domain, num(o.version)])).toEqual([['', 17]]);
    const g = m.graph;
    expect(g.name).toBe('sample');
    expect(g.docString).toBe('doc');
    expect(g.input.map((i) => i.name)).toEqual(['x', 'k']);
    const dims = g.input[0].type.tensorType.shape.dim.map((d) => (d.dimParam ? d.dimParam : num(d.dimValue)));
    expect(dims).toEqual([1, 'n', 2]);
    expect(g.input[1].type.tensorType.elemType).toBe(7); // INT64
    expect(g.output.map((o) => o.name)).toEqual(['y']);
    expect(g.node.map((n) => n.opType)).toEqual(['MatMul', 'Cast', 'Add', 'Identity']);
    const cast = g.node[1];
    expect(cast.attribute[0].name).toBe('to');
    expect(num(cast.attribute[0].i)).toBe(1);
    expect(cast.attribute[0].type).toBe(2); // INT
    const w = g.initializer[0];
    expect(w.dims.map(num)).toEqual([2, 2]);
    expect(w.dataType).toBe(1);
    expect([...new Float32Array(new Uint8Array(w.rawData).buffer)]).toEqual([1, 2, 3, 4]);
  });

  it('encodes int64 initializers, float and ints attributes', () => {
    const g = new GraphBuilder('attrs');
    const x = g.input('x', 'float32', [1, 1, 4, 4]);
    const p = g.op('AveragePool', [x], { kernel_shape: attr.ints([2, 2]), strides: attr.ints([2, 2]) });
    const l = g.op('LeakyRelu', [p], { alpha: attr.f(0.25) });
    const r = g.op('Reshape', [l, g.i64([-1, 4])]);
    g.output('y', 'float32', [1, 4], r);
    const m = decode(encodeModel({ graph: g.build(), opset: 17 }));
    const pool = m.graph.node[0];
    expect((pool.attribute.find((a) => a.name === 'kernel_shape')?.ints ?? []).map(num)).toEqual([2, 2]);
    expect(m.graph.node[1].attribute[0].f).toBeCloseTo(0.25);
    const shape = m.graph.initializer[0];
    expect(shape.dataType).toBe(7);
    expect([...new BigInt64Array(new Uint8Array(shape.rawData).buffer)]).toEqual([-1n, 4n]);
  });

  it('refuses an initializer whose values do not match its dims', () => {
    const g = new GraphBuilder('bad');
    const x = g.input('x', 'float32', [2]);
    g.output('y', 'float32', [2], g.op('Add', [x, g.f32([1, 2, 3], [2])]));
    expect(() => encodeModel({ graph: g.build(), opset: 17 })).toThrow(/need 2 values, got 3/);
  });
});

describe('GraphBuilder checks', () => {
  it('refuses a declared input that nothing reads', () => {
    const g = new GraphBuilder('unused');
    const x = g.input('x', 'float32', [1]);
    g.input('ignored', 'float32', [1]);
    g.output('y', 'float32', [1], g.op('Neg', [x]));
    expect(() => g.build()).toThrow(/declared input "ignored" is never read/);
  });

  it('refuses reads of values nobody produced and duplicate names', () => {
    const g = new GraphBuilder('dangling');
    g.input('x', 'float32', [1]);
    g.op('Neg', ['nowhere']);
    expect(() => g.build()).toThrow(/reads "nowhere"/);
    expect(() => g.input('x', 'float32', [1])).toThrow(/used twice/);
  });

  it('treats an empty input name as an omitted optional input', () => {
    const g = new GraphBuilder('resize');
    const x = g.input('x', 'float32', [1, 1, 2, 2]);
    g.output('y', 'float32', [1, 1, 4, 4], g.op('Resize', [x, '', '', g.i64([1, 1, 4, 4])], { mode: attr.s('linear') }));
    expect(() => g.build()).not.toThrow();
  });
});
