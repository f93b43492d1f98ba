/**
 * A tiny DSL for writing ONNX graphs by hand: every call appends a node or an initializer and
 * returns the name of the produced value, so a model reads like the arithmetic it computes.
 * It checks only what would otherwise surface as an obscure ORT load error (duplicate names,
 * outputs that nothing produces, declared inputs that nothing reads).
 */
import type { Attribute, Dim, Initializer, OnnxElemType, OnnxGraph, OnnxNode, TensorValues, ValueInfo } from './modelProto';

export const attr = {
  i: (value: number): Attribute => ({ kind: 'int', value }),
  f: (value: number): Attribute => ({ kind: 'float', value }),
  s: (value: string): Attribute => ({ kind: 'string', value }),
  ints: (value: readonly number[]): Attribute => ({ kind: 'ints', value }),
  floats: (value: readonly number[]): Attribute => ({ kind: 'floats', value }),
};

export class GraphBuilder {
  private readonly nodes: OnnxNode[] = [];
  private readonly inputs: ValueInfo[] = [];
  private readonly outputs: ValueInfo[] = [];
  private readonly initializers: Initializer[] = [];
  private readonly names = new Set<string>();
  private counter = 0;

  constructor(private readonly name: string) {}

  private fresh(hint: string): string {
    let n: string;
    do n = `${hint}_${this.counter++}`;
    while (this.names.has(n));
    this.names.add(n);
    return n;
  }

  private claim(name: string): string {
    if (this.names.has(name)) throw new Error(`graph ${this.name}: value name "${name}" used twice`);
    this.names.add(name);
    return name;
  }

  input(name: string, type: OnnxElemType, dims: readonly Dim[]): string {
    this.inputs.push({ name: this.claim(name), type, dims });
    return name;
  }

  /** An initializer (constant tensor). `values` are converted to the element type. */
  tensor(type: OnnxElemType, dims: readonly number[], values: ArrayLike<number> | TensorValues, hint = 'const'): string {
    let data: TensorValues;
    if (type === 'float32') data = Float32Array.from(values as ArrayLike<number>);
    else if (type === 'int64') data = BigInt64Array.from(Array.from(values as ArrayLike<number>, (v) => BigInt(v)));
    else if (type === 'int32') data = Int32Array.from(values as ArrayLike<number>);
    else data = Uint8Array.from(values as ArrayLike<number>);
    const name = this.fresh(hint);
    this.initializers.push({ name, type, dims, data });
    return name;
  }

  f32(values: readonly number[] | Float32Array, dims: readonly number[] = [values.length], hint = 'f'): string {
    return this.tensor('float32', dims, values, hint);
  }

  i64(values: readonly number[], dims: readonly number[] = [values.length], hint = 'i'): string {
    return this.tensor('int64', dims, values, hint);
  }

  /** A 0-d float constant. */
  scalar(value: number, hint = 'k'): string {
    return this.tensor('float32', [], [value], hint);
  }

  /** Append a node with one output and return that output's name. An empty input name means "optional input omitted". */
  op(op: string, inputs: readonly string[], attributes?: Record<string, Attribute>, outName?: string): string {
    const out = outName === undefined ? this.fresh(op.toLowerCase()) : this.claim(outName);
    this.nodes.push({ op, inputs, outputs: [out], ...(attributes ? { attributes } : {}) });
    return out;
  }

  /** Declare a graph output, produced by an Identity from `from` so the public name is exact. */
  output(name: string, type: OnnxElemType, dims: readonly Dim[], from: string): void {
    this.op('Identity', [from], undefined, name);
    this.outputs.push({ name, type, dims });
  }

  build(doc?: string): OnnxGraph {
    const produced = new Set<string>([...this.inputs.map((i) => i.name), ...this.initializers.map((i) => i.name)]);
    const read = new Set<string>();
    for (const n of this.nodes) {
      for (const i of n.inputs) {
        if (i === '') continue;
        if (!produced.has(i)) throw new Error(`graph ${this.name}: node ${n.op} reads "${i}" before anything produces it`);
        read.add(i);
      }
      for (const o of n.outputs) produced.add(o);
    }
    // Signature tests only mean something if every declared input influences the outputs.
    for (const i of this.inputs) {
      if (!read.has(i.name)) throw new Error(`graph ${this.name}: declared input "${i.name}" is never read`);
    }
    return {
      name: this.name,
      nodes: this.nodes,
      inputs: this.inputs,
      outputs: this.outputs,
      initializers: this.initializers,
      ...(doc ? { doc } : {}),
    };
  }
}
