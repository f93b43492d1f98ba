/**
 * public/models/manifest.json: which model files exist and which family each set belongs to.
 * The file is user-edited and may come from anywhere, so it is validated field by field; every
 * error names the JSON path ("models[1].files.decoder: ...") and nothing from it is used unchecked.
 * Unknown keys are ignored (forward compatibility); file paths must stay inside the models folder.
 *
 *   {
 *     "version": 1,
 *     "models": [
 *       { "id": "sam-vit-b", "family": "sam-official", "label": "SAM ViT-B",
 *         "files": { "encoder": "sam/vit_b_encoder.onnx", "decoder": "sam/vit_b_decoder.onnx" },
 *         "selfTest": { "decoder": { "inputs": {...}, "outputs": {...} } } }
 *     ]
 *   }
 */
import type { GoldenFill, GoldenInput, GoldenOutput, GoldenSpec } from './golden';
import { GOLDEN_MAX_ELEMENTS } from './golden';

export const MANIFEST_VERSION = 1;

/** Files each family needs (required) and may have (optional), by role. */
export const FAMILY_FILES = {
  'sam-official': { required: ['encoder', 'decoder'], optional: [] },
  'sam-transformersjs': { required: ['encoder', 'decoder'], optional: [] },
  clip: { required: ['vision', 'text', 'tokenizer'], optional: ['tokenizerConfig'] },
} as const satisfies Record<string, { required: readonly string[]; optional: readonly string[] }>;

export type ModelFamily = keyof typeof FAMILY_FILES;
export const MODEL_FAMILIES = Object.keys(FAMILY_FILES) as ModelFamily[];

export interface ManifestEntry {
  id: string;
  family: ModelFamily;
  label: string;
  /** role -> path relative to the manifest. */
  files: Record<string, string>;
  /** role -> golden spec. */
  selfTest: Record<string, GoldenSpec>;
}

export interface Manifest {
  version: 1;
  models: ManifestEntry[];
}

export class ManifestError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'ManifestError';
  }
}

const MAX_MODELS = 64;
const MAX_STRING = 512;
const ID_RE = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const PATH_RE = /^[A-Za-z0-9._\-/]+$/;

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function own(o: Record<string, Json>, key: string): Json {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

function str(v: Json, path: string, max = MAX_STRING): string {
  if (typeof v !== 'string') throw new ManifestError(path, `expected a string, got ${kind(v)}`);
  if (v.length > max) throw new ManifestError(path, `string longer than ${max} characters`);
  return v;
}

function num(v: Json, path: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ManifestError(path, `expected a finite number, got ${kind(v)}`);
  return v;
}

function kind(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'string' ? `"${v.slice(0, 40)}"` : typeof v;
}

function arr(v: Json, path: string, max: number): Json[] {
  if (!Array.isArray(v)) throw new ManifestError(path, `expected an array, got ${kind(v)}`);
  if (v.length > max) throw new ManifestError(path, `more than ${max} items`);
  return v;
}

function obj(v: Json, path: string): Record<string, Json> {
  if (!isObject(v)) throw new ManifestError(path, `expected an object, got ${kind(v)}`);
  return v;
}

/** A relative path inside the models folder: no scheme, no absolute path, no "..", plain characters. */
export function checkModelPath(v: Json, path: string): string {
  const p = str(v, path);
  const problem =
    p.length === 0
      ? 'empty path'
      : !PATH_RE.test(p)
        ? 'only letters, digits, ".", "_", "-" and "/" are allowed'
        : p.startsWith('/')
          ? 'must be relative to the manifest'
          : p.split('/').some((seg) => seg === '..' || seg === '.' || seg === '')
            ? 'no "..", "." or empty path segments'
            : null;
  if (problem) throw new ManifestError(path, `${problem} (got "${p.slice(0, 80)}")`);
  return p;
}

function dims(v: Json, path: string): number[] {
  const out = arr(v, path, 8).map((d, i) => {
    const n = num(d, `${path}[${i}]`);
    if (!Number.isInteger(n) || n < 0) throw new ManifestError(`${path}[${i}]`, 'expected a non-negative integer');
    return n;
  });
  const count = out.reduce((a, b) => a * b, 1);
  if (count > GOLDEN_MAX_ELEMENTS) throw new ManifestError(path, `${count} elements exceed the self-test limit of ${GOLDEN_MAX_ELEMENTS}`);
  return out;
}

function fill(v: Json, path: string): GoldenFill {
  const o = obj(v, path);
  const k = own(o, 'kind');
  if (k === 'constant') return { kind: 'constant', value: num(own(o, 'value'), `${path}.value`) };
  if (k === 'values') {
    const values = arr(own(o, 'values'), `${path}.values`, 4096).map((x, i) => num(x, `${path}.values[${i}]`));
    if (values.length === 0) throw new ManifestError(`${path}.values`, 'needs at least one value');
    return { kind: 'values', values };
  }
  if (k === 'wave') {
    return {
      kind: 'wave',
      amplitude: num(own(o, 'amplitude'), `${path}.amplitude`),
      offset: num(own(o, 'offset') ?? 0, `${path}.offset`),
      frequency: num(own(o, 'frequency'), `${path}.frequency`),
    };
  }
  throw new ManifestError(`${path}.kind`, `expected "constant", "values" or "wave", got ${kind(k)}`);
}

/** Keys of a name -> spec map: at most 32, each a sane tensor name. */
function keys(o: Record<string, Json>, path: string): string[] {
  const names = Object.keys(o);
  if (names.length > 32) throw new ManifestError(path, 'more than 32 entries');
  for (const n of names) {
    if (n.length === 0 || n.length > 128) throw new ManifestError(path, 'tensor names must be 1-128 characters');
    // Assigning "__proto__" on a plain object would replace its prototype instead of adding a key.
    if (n === '__proto__') throw new ManifestError(path, '"__proto__" is not a tensor name');
  }
  return names;
}

function golden(v: Json, path: string): GoldenSpec {
  const o = obj(v, path);
  const inputs: Record<string, GoldenInput> = {};
  const inObj = obj(own(o, 'inputs'), `${path}.inputs`);
  for (const name of keys(inObj, `${path}.inputs`)) {
    const p = `${path}.inputs.${name}`;
    const i = obj(inObj[name], p);
    const type = own(i, 'type');
    if (type !== 'float32' && type !== 'int64') throw new ManifestError(`${p}.type`, `expected "float32" or "int64", got ${kind(type)}`);
    inputs[name] = { type, dims: dims(own(i, 'dims'), `${p}.dims`), fill: fill(own(i, 'fill'), `${p}.fill`) };
  }
  const outputs: Record<string, GoldenOutput> = {};
  const outObj = obj(own(o, 'outputs'), `${path}.outputs`);
  if (Object.keys(outObj).length === 0) throw new ManifestError(`${path}.outputs`, 'needs at least one output');
  for (const name of keys(outObj, `${path}.outputs`)) {
    const p = `${path}.outputs.${name}`;
    const g = obj(outObj[name], p);
    const samples = arr(own(g, 'samples'), `${p}.samples`, 1024).map((s, i): [number, number] => {
      const pair = arr(s, `${p}.samples[${i}]`, 2);
      const idx = num(pair[0], `${p}.samples[${i}][0]`);
      if (pair.length !== 2 || !Number.isInteger(idx) || idx < 0) throw new ManifestError(`${p}.samples[${i}]`, 'expected [index, value]');
      return [idx, num(pair[1], `${p}.samples[${i}][1]`)];
    });
    outputs[name] = { dims: dims(own(g, 'dims'), `${p}.dims`), mean: num(own(g, 'mean'), `${p}.mean`), samples };
  }
  const spec: GoldenSpec = { inputs, outputs };
  const tol = own(o, 'tolerance');
  if (tol !== undefined) {
    const t = obj(tol, `${path}.tolerance`);
    const abs = num(own(t, 'abs'), `${path}.tolerance.abs`);
    const rel = num(own(t, 'rel'), `${path}.tolerance.rel`);
    if (abs < 0 || rel < 0) throw new ManifestError(`${path}.tolerance`, 'must not be negative');
    spec.tolerance = { abs, rel };
  }
  return spec;
}

function entry(v: Json, path: string, seen: Set<string>): ManifestEntry {
  const o = obj(v, path);
  const id = str(own(o, 'id'), `${path}.id`, 64);
  if (!ID_RE.test(id)) throw new ManifestError(`${path}.id`, `"${id}" must be lowercase letters, digits, ".", "_" or "-"`);
  if (seen.has(id)) throw new ManifestError(`${path}.id`, `duplicate id "${id}"`);
  seen.add(id);
  const family = own(o, 'family');
  if (typeof family !== 'string' || !Object.prototype.hasOwnProperty.call(FAMILY_FILES, family)) {
    throw new ManifestError(`${path}.family`, `expected one of ${MODEL_FAMILIES.join(', ')}, got ${kind(family)}`);
  }
  const fam = family as ModelFamily;
  const spec = FAMILY_FILES[fam];
  const filesObj = obj(own(o, 'files'), `${path}.files`);
  const files: Record<string, string> = {};
  const allowed: readonly string[] = [...spec.required, ...spec.optional];
  for (const role of spec.required) {
    if (own(filesObj, role) === undefined) throw new ManifestError(`${path}.files`, `family ${fam} needs a "${role}" file`);
  }
  for (const role of Object.keys(filesObj)) {
    if (!allowed.includes(role)) throw new ManifestError(`${path}.files.${role.slice(0, 40)}`, `not a file of family ${fam} (expected ${allowed.join(', ')})`);
    files[role] = checkModelPath(filesObj[role], `${path}.files.${role}`);
  }
  const label = own(o, 'label') === undefined ? id : str(own(o, 'label'), `${path}.label`, 200);
  const selfTest: Record<string, GoldenSpec> = {};
  const st = own(o, 'selfTest');
  if (st !== undefined) {
    const sto = obj(st, `${path}.selfTest`);
    for (const role of Object.keys(sto)) {
      if (!allowed.includes(role) || role.startsWith('tokenizer')) throw new ManifestError(`${path}.selfTest.${role.slice(0, 40)}`, 'not a model file of this entry');
      selfTest[role] = golden(sto[role], `${path}.selfTest.${role}`);
    }
  }
  return { id, family: fam, label, files, selfTest };
}

/** Validates parsed manifest JSON. */
export function parseManifest(json: Json): Manifest {
  const root = obj(json, 'manifest');
  const version = own(root, 'version');
  if (version !== MANIFEST_VERSION) throw new ManifestError('manifest.version', `expected ${MANIFEST_VERSION}, got ${kind(version)}`);
  const seen = new Set<string>();
  const models = arr(own(root, 'models'), 'manifest.models', MAX_MODELS).map((m, i) => entry(m, `manifest.models[${i}]`, seen));
  return { version: MANIFEST_VERSION, models };
}

/** Parses manifest text; JSON syntax errors become ManifestErrors too. */
export function parseManifestText(text: string): Manifest {
  if (text.length > 4 * 1024 * 1024) throw new ManifestError('manifest', 'file larger than 4 MB');
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ManifestError('manifest', `not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  return parseManifest(json);
}

/** Absolute URL of a manifest file path (paths are relative to the manifest's own URL). */
export function resolveModelUrl(manifestUrl: string, path: string): string {
  return new URL(path, manifestUrl).href;
}
