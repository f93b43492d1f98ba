import { describe, expect, it } from 'vitest';
import { checkModelPath, ManifestError, parseManifest, parseManifestText, resolveModelUrl } from './manifest';

const good = () => ({
  version: 1,
  models: [
    { id: 'sam-vit-b', family: 'sam-official', label: 'SAM ViT-B', files: { encoder: 'sam/enc.onnx', decoder: 'sam/dec.onnx' } },
    { id: 'clip-b32', family: 'clip', files: { vision: 'clip/vision_model.onnx', text: 'clip/text_model.onnx', tokenizer: 'clip/tokenizer.json' } },
  ],
});

function errorOf(f: () => unknown): ManifestError {
  try {
    f();
  } catch (e) {
    if (e instanceof ManifestError) return e;
    throw new Error(`expected a ManifestError, got ${String(e)}`, { cause: e });
  }
  throw new Error('expected a ManifestError, nothing was thrown');
}

describe('parseManifest', () => {
  it('accepts a valid manifest and fills defaults', () => {
    const m = parseManifest(good());
    expect(m.models.map((e) => [e.id, e.family, e.label])).toEqual([
      ['sam-vit-b', 'sam-official', 'SAM ViT-B'],
      ['clip-b32', 'clip', 'clip-b32'],
    ]);
    expect(m.models[0].selfTest).toEqual({});
  });

  it('accepts the committed empty manifest shape and ignores unknown keys', () => {
    expect(parseManifest({ version: 1, models: [], comment: 'x' }).models).toEqual([]);
  });

  const hostile: [string, unknown, RegExp][] = [
    ['null root', null, /^manifest: expected an object, got null/],
    ['array root', [], /^manifest: expected an object, got an array/],
    ['wrong version', { version: 2, models: [] }, /^manifest\.version: expected 1, got number/],
    ['version as string', { version: '1', models: [] }, /^manifest\.version: expected 1, got "1"/],
    ['models not an array', { version: 1, models: {} }, /^manifest\.models: expected an array/],
    ['too many models', { version: 1, models: new Array(65).fill({}) }, /more than 64 items/],
    ['model not an object', { version: 1, models: [42] }, /^manifest\.models\[0\]: expected an object/],
    ['bad id', { version: 1, models: [{ ...good().models[0], id: 'Bad Id' }] }, /models\[0\]\.id: "Bad Id" must be lowercase/],
    ['proto id', { version: 1, models: [{ ...good().models[0], id: '__proto__' }] }, /models\[0\]\.id/],
    ['duplicate id', { version: 1, models: [good().models[0], good().models[0]] }, /models\[1\]\.id: duplicate id "sam-vit-b"/],
    ['unknown family', { version: 1, models: [{ ...good().models[0], family: 'yolo' }] }, /models\[0\]\.family: expected one of sam-official, sam-transformersjs, clip, got "yolo"/],
    ['missing file', { version: 1, models: [{ id: 'a', family: 'sam-official', files: { encoder: 'e.onnx' } }] }, /files: family sam-official needs a "decoder" file/],
    ['extra file', { version: 1, models: [{ id: 'a', family: 'sam-official', files: { encoder: 'e.onnx', decoder: 'd.onnx', weights: 'w.bin' } }] }, /files\.weights: not a file of family sam-official/],
    ['file not a string', { version: 1, models: [{ id: 'a', family: 'sam-official', files: { encoder: 7, decoder: 'd.onnx' } }] }, /files\.encoder: expected a string, got number/],
    ['label too long', { version: 1, models: [{ ...good().models[0], label: 'x'.repeat(201) }] }, /label: string longer than 200/],
  ];
  for (const [name, json, message] of hostile) {
    it(`refuses ${name} with a path to the problem`, () => {
      expect(errorOf(() => parseManifest(json)).message).toMatch(message);
    });
  }

  it('reports invalid JSON text as a ManifestError', () => {
    expect(errorOf(() => parseManifestText('{"version": 1,')).message).toMatch(/^manifest: not valid JSON/);
    expect(errorOf(() => parseManifestText('x'.repeat(5 * 1024 * 1024))).message).toMatch(/larger than 4 MB/);
  });

  it('does not let "__proto__" keys touch prototypes', () => {
    const text = '{"version":1,"models":[{"id":"a","family":"sam-official","files":{"encoder":"e.onnx","decoder":"d.onnx","__proto__":"x.onnx"}}]}';
    expect(errorOf(() => parseManifestText(text)).message).toMatch(/files\.__proto__: not a file of family/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('model paths stay inside the models folder', () => {
  for (const bad of ['../secret.onnx', 'a/../../b.onnx', '/etc/passwd', 'http://evil.example/x.onnx', 'https:x', 'a//b.onnx', './a.onnx', 'a\\b.onnx', '', 'a b.onnx', '%2e%2e/x']) {
    it(`refuses ${JSON.stringify(bad)}`, () => {
      expect(() => checkModelPath(bad, 'p')).toThrow(ManifestError);
    });
  }
  it('accepts nested relative paths and resolves them against the manifest URL', () => {
    expect(checkModelPath('sam/vit_b-1.0.onnx', 'p')).toBe('sam/vit_b-1.0.onnx');
    expect(resolveModelUrl('http://localhost:5173/models/manifest.json', 'sam/enc.onnx')).toBe('http://localhost:5173/models/sam/enc.onnx');
  });
});

describe('self-test specs in the manifest', () => {
  const withSelfTest = (selfTest: unknown) => ({ version: 1, models: [{ ...good().models[0], selfTest }] });
  const spec = () => ({
    inputs: { x: { type: 'float32', dims: [1, 4], fill: { kind: 'wave', amplitude: 1, frequency: 0.5 } } },
    outputs: { y: { dims: [1, 4], mean: 0.5, samples: [[0, 1]] } },
    tolerance: { abs: 0.001, rel: 0 },
  });

  it('parses a golden spec', () => {
    const m = parseManifest(withSelfTest({ decoder: spec() }));
    expect(m.models[0].selfTest.decoder.inputs.x.fill).toEqual({ kind: 'wave', amplitude: 1, frequency: 0.5, offset: 0 });
    expect(m.models[0].selfTest.decoder.tolerance).toEqual({ abs: 0.001, rel: 0 });
  });

  const cases: [string, (s: ReturnType<typeof spec>) => unknown, RegExp][] = [
    ['a huge input', (s) => ({ ...s, inputs: { x: { ...s.inputs.x, dims: [1 << 20, 1 << 10] } } }), /exceed the self-test limit/],
    ['negative dims', (s) => ({ ...s, inputs: { x: { ...s.inputs.x, dims: [-1] } } }), /dims\[0\]: expected a non-negative integer/],
    ['an unknown fill', (s) => ({ ...s, inputs: { x: { ...s.inputs.x, fill: { kind: 'random' } } } }), /fill\.kind: expected "constant", "values" or "wave"/],
    ['an unsupported type', (s) => ({ ...s, inputs: { x: { ...s.inputs.x, type: 'float16' } } }), /type: expected "float32" or "int64"/],
    ['malformed samples', (s) => ({ ...s, outputs: { y: { ...s.outputs.y, samples: [[0.5, 1]] } } }), /samples\[0\]: expected \[index, value\]/],
    ['no outputs', (s) => ({ ...s, outputs: {} }), /outputs: needs at least one output/],
    ['NaN-like mean', (s) => ({ ...s, outputs: { y: { ...s.outputs.y, mean: 'NaN' } } }), /mean: expected a finite number/],
    ['negative tolerance', (s) => ({ ...s, tolerance: { abs: -1, rel: 0 } }), /tolerance: must not be negative/],
  ];
  for (const [name, mutate, message] of cases) {
    it(`refuses ${name}`, () => {
      expect(errorOf(() => parseManifest(withSelfTest({ decoder: mutate(spec()) }))).message).toMatch(message);
    });
  }

  it('refuses a self-test for a file the entry does not have', () => {
    expect(errorOf(() => parseManifest(withSelfTest({ tokenizer: spec() }))).message).toMatch(/selfTest\.tokenizer: not a model file/);
  });
});
