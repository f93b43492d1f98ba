/**
 * The input and output names of an ONNX file, read straight from its protobuf on the UI thread
 * (no onnxruntime): enough for models/detect.ts to tell which family and role a picked file is
 * before it is cached and sent to the worker. Skips every other field (weights included) by length,
 * so even a 300 MB encoder is scanned in microseconds.
 *
 * ModelProto.graph = 7; GraphProto.initializer = 5, input = 11, output = 12;
 * ValueInfoProto.name = 1; TensorProto.name = 8. Older exports list initializers among the graph
 * inputs; like ORT's session.inputNames, those are left out.
 */

export interface OnnxSignature {
  inputNames: string[];
  outputNames: string[];
}

interface Field {
  no: number;
  wire: number;
  start: number;
  end: number;
}

function* fields(b: Uint8Array, start: number, end: number): Generator<Field> {
  let p = start;
  const varint = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (p >= end) throw new RangeError('truncated protobuf');
      const byte = b[p++];
      v += (byte & 0x7f) * mul;
      if (byte < 0x80) return v;
      mul *= 128;
    }
  };
  while (p < end) {
    const key = varint();
    const no = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === 0) {
      varint();
      continue;
    }
    if (wire === 1) {
      p += 8;
      continue;
    }
    if (wire === 5) {
      p += 4;
      continue;
    }
    if (wire !== 2) throw new RangeError(`unsupported protobuf wire type ${wire}`);
    const len = varint();
    if (p + len > end) throw new RangeError('truncated protobuf');
    yield { no, wire, start: p, end: p + len };
    p += len;
  }
}

const utf8 = new TextDecoder();

function stringField(b: Uint8Array, start: number, end: number, no: number): string | null {
  for (const f of fields(b, start, end)) if (f.no === no) return utf8.decode(b.subarray(f.start, f.end));
  return null;
}

/** Reads the graph's input/output names; throws RangeError when the bytes are not an ONNX model. */
export function onnxSignature(bytes: Uint8Array): OnnxSignature {
  let graph: Field | null = null;
  for (const f of fields(bytes, 0, bytes.length)) if (f.no === 7) graph = f;
  if (!graph) throw new RangeError('not an ONNX model (no graph)');
  const inputs: string[] = [];
  const outputs: string[] = [];
  const initializers = new Set<string>();
  for (const f of fields(bytes, graph.start, graph.end)) {
    if (f.no === 11 || f.no === 12) {
      const name = stringField(bytes, f.start, f.end, 1);
      if (name !== null) (f.no === 11 ? inputs : outputs).push(name);
    } else if (f.no === 5) {
      const name = stringField(bytes, f.start, f.end, 8);
      if (name !== null) initializers.add(name);
    }
  }
  return { inputNames: inputs.filter((n) => !initializers.has(n)), outputNames: outputs };
}
