/**
 * The field checker every row validator in this folder is written against. It walks a value of
 * unknown shape (a bundle's JSON, an importer's draft, a repository's input) and fails at the first
 * problem, naming the field. Who reads the message decides how the field is named:
 *
 * - `RecordCheck` (the store's repositories and the import commit) throws StoreError('invalid')
 *   "<record>: <field in words> <problem>." ("The gt layer at frame index 3: actionable mask is 6x8 but must be 8x6.");
 * - io/formats/json.ts JsonReader (bundles and other files) extends it and throws ImportError
 *   "<file>: <json path> <problem>" ("layers[0].act is 6x8 but must be 8x6").
 *
 * Validators build child paths with `at(path, key)` and never format messages themselves.
 */
import { StoreError } from '../errors';

export type JsonObject = Record<string, unknown>;

/** The store's words for the fields its messages name (any other field is named by its key). */
const FIELD_WORDS: Record<string, string> = {
  frameIndex: 'frame index',
  act: 'actionable mask',
  trf: 'transformed mask',
  before: 'revision "before" patch',
  after: 'revision "after" patch',
  beforeTrf: 'revision "beforeTrf" patch',
  afterTrf: 'revision "afterTrf" patch',
  'source.video': 'source video reference',
};

export class RecordCheck {
  /**
   * `record` names the row in messages ("The gt layer at frame index 3", "frame 2"); `words` names
   * its fields where the key would read badly, '' where the problem reads on from the record
   * ("frame 1" + "is ignored with an unknown reason ...").
   */
  constructor(
    readonly record: string,
    private readonly words: Readonly<Record<string, string>> = {},
  ) {}

  /** Throws naming the field at `path` ('' for the record itself). */
  fail(path: string, problem: string): never {
    const text = problem.replace(/\.$/, '');
    if (path === '') throw new StoreError('invalid', `${this.record}: ${text}.`);
    const field = this.words[path] ?? FIELD_WORDS[path] ?? path;
    throw new StoreError('invalid', field === '' ? `${this.record} ${text}.` : `${this.record}: ${field} ${text}.`);
  }

  /** The path of `key` under `path`: `a` + `.b` or `[3]`; the root path is ''. */
  at(path: string, key: string | number): string {
    return typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
  }

  object(v: unknown, path: string): JsonObject {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(path, `must be an object, got ${describe(v)}`);
    return v as JsonObject;
  }

  array(v: unknown, path: string, maxLength = Infinity): unknown[] {
    if (!Array.isArray(v)) this.fail(path, `must be an array, got ${describe(v)}`);
    const a = v as unknown[];
    if (a.length > maxLength) this.fail(path, `has ${a.length} entries; at most ${maxLength} are accepted`);
    return a;
  }

  string(v: unknown, path: string, maxLength = 4096): string {
    if (typeof v !== 'string') this.fail(path, `must be a string, got ${describe(v)}`);
    const s = v as string;
    if (s.length > maxLength) this.fail(path, `is ${s.length} characters long; at most ${maxLength} are accepted`);
    return s;
  }

  nonEmptyString(v: unknown, path: string, maxLength = 4096): string {
    const s = this.string(v, path, maxLength);
    if (s.trim() === '') this.fail(path, 'must not be empty');
    return s;
  }

  number(v: unknown, path: string, min = -Infinity, max = Infinity): number {
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(path, `must be a finite number, got ${describe(v)}`);
    const n = v as number;
    if (n < min || n > max) this.fail(path, `is ${n}; it must be between ${min} and ${max}`);
    return n;
  }

  integer(v: unknown, path: string, min = -Number.MAX_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number {
    if (typeof v !== 'number' || !Number.isInteger(v)) this.fail(path, `must be an integer, got ${describe(v)}`);
    const n = v as number;
    if (n < min || n > max) this.fail(path, `is ${n}; it must be between ${min} and ${max}`);
    return n;
  }

  boolean(v: unknown, path: string): boolean {
    if (typeof v !== 'boolean') this.fail(path, `must be true or false, got ${describe(v)}`);
    return v as boolean;
  }

  oneOf<T extends string>(v: unknown, path: string, allowed: readonly T[]): T {
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
      this.fail(path, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, got ${describe(v)}`);
    }
    return v as T;
  }

  /** The value of a required field (own properties only, so "constructor" or "__proto__" never resolve). */
  required(obj: JsonObject, key: string, path: string): unknown {
    if (!hasOwn(obj, key) || obj[key] === undefined) this.fail(this.at(path, key), 'is missing');
    return obj[key];
  }

  /** The value of an optional field; null counts as absent. */
  optional(obj: JsonObject, key: string): unknown {
    return hasOwn(obj, key) && obj[key] !== null ? obj[key] : undefined;
  }

  /** Refuses fields the row does not have (bundles are written back as read: a stray field would be stored). */
  strictFields(obj: JsonObject, known: ReadonlySet<string>, path: string): void {
    const extra = unknownKeys(obj, known);
    if (extra.length > 0) this.fail(path, `has unknown ${extra.length === 1 ? 'field' : 'fields'} ${listKeys(extra)}`);
  }
}

/** A short description of a value for messages; never prints a whole (possibly huge) value. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return `an array of length ${v.length}`;
  if (typeof v === 'string') return v.length <= 40 ? `string ${JSON.stringify(v)}` : `a string of length ${v.length}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

export function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Keys of `obj` not in `known`, without materialising more than needed for a message. */
export function unknownKeys(obj: JsonObject, known: ReadonlySet<string>): string[] {
  const extra: string[] = [];
  for (const k in obj) if (hasOwn(obj, k) && !known.has(k)) extra.push(k);
  return extra;
}

/** "a", "b", "c" and 4 more. */
export function listKeys(keys: readonly string[], max = 5): string {
  const shown = keys.slice(0, max).map((k) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k));
  return keys.length > max ? `${shown.join(', ')} and ${keys.length - max} more` : shown.join(', ');
}
