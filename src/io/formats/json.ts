/**
 * Strict, friendly reading of JSON files from outside: every problem becomes an ImportError
 * "<file>: <json path> <problem>" (e.g. `annotations.json: images[3].width must be an integer, got
 * string "640"`), so the person importing knows which file and which field to fix.
 *
 * Hostile input is bounded: the text is size-checked before JSON.parse (V8's parser is iterative,
 * so deep nesting cannot overflow the stack there), and nothing here recurses into values: readers
 * only walk the shape they expect, so "deeply nested junk" costs one type check.
 */
import { ImportError } from '../importError';

/** Default size limit for one JSON file (COCO files of whole datasets are big; this is not). */
export const MAX_JSON_CHARS = 512 * 2 ** 20;

/** Text (or UTF-8 bytes) to a JSON value; invalid, truncated or oversized input is an ImportError. */
export function parseJsonText(input: string | Uint8Array, fileName: string, maxChars = MAX_JSON_CHARS): unknown {
  if (input instanceof Uint8Array) {
    if (input.length > maxChars * 4) throw tooBig(fileName, input.length, maxChars);
    try {
      input = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      throw new ImportError(fileName, 'is not UTF-8 text; a JSON file must be UTF-8');
    }
  }
  if (typeof input !== 'string') throw new ImportError(fileName, 'is not text');
  if (input.length > maxChars) throw tooBig(fileName, input.length, maxChars);
  if (input.trim() === '') throw new ImportError(fileName, 'is empty; expected a JSON document');
  try {
    // A byte-order mark is legal in files but not for JSON.parse.
    return JSON.parse(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new ImportError(fileName, `is not valid JSON (${why}); it may be truncated or not a JSON file`);
  }
}

function tooBig(fileName: string, size: number, max: number): ImportError {
  return new ImportError(fileName, `is ${(size / 2 ** 20).toFixed(1)} MB; JSON files up to ${(max / 2 ** 20).toFixed(0)} MB are accepted`);
}

export type JsonObject = Record<string, unknown>;

/** A short description of a value for messages; never prints a whole (possibly huge) value. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return `an array of length ${v.length}`;
  if (typeof v === 'string') return v.length <= 40 ? `string ${JSON.stringify(v)}` : `a string of length ${v.length}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/** `a` + `.b` or `[3]`; the root path is '' and prints as the file itself. */
export function at(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
}

/**
 * Reads one JSON file's values, failing with the file name and the JSON path, and collecting
 * warnings (unknown fields) into a shared list.
 */
export class JsonReader {
  constructor(
    readonly fileName: string,
    readonly warnings: string[] = [],
  ) {}

  fail(path: string, problem: string): never {
    throw new ImportError(this.fileName, path ? `${path} ${problem}` : problem);
  }

  warn(path: string, problem: string): void {
    this.warnings.push(`${this.fileName}: ${path ? `${path} ` : ''}${problem}`);
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
    if (!hasOwn(obj, key) || obj[key] === undefined) this.fail(at(path, key), 'is missing');
    return obj[key];
  }

  /** The value of an optional field; null counts as absent. */
  optional(obj: JsonObject, key: string): unknown {
    return hasOwn(obj, key) && obj[key] !== null ? obj[key] : undefined;
  }

  /** Warns once about fields the schema does not know (they are ignored, not kept). */
  unknownFields(obj: JsonObject, known: ReadonlySet<string>, path: string): void {
    const extra = unknownKeys(obj, known);
    if (extra.length > 0) this.warn(path, `has unknown ${extra.length === 1 ? 'field' : 'fields'} ${listKeys(extra)} (ignored)`);
  }
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

/**
 * Collects unknown field names over many entries of one array (COCO annotations often carry
 * tool-specific fields) and reports them in one warning instead of one per entry.
 */
export class UnknownFieldTally {
  private readonly seen = new Set<string>();
  constructor(private readonly known: ReadonlySet<string>) {}

  add(obj: JsonObject): void {
    if (this.seen.size >= 100) return; // enough for a message; stop growing on hostile input
    for (const k of unknownKeys(obj, this.known)) this.seen.add(k);
  }

  report(reader: JsonReader, path: string): void {
    if (this.seen.size > 0) reader.warn(path, `entries have unknown fields ${listKeys([...this.seen])} (ignored)`);
  }
}
