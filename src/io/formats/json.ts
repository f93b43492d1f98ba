/**
 * Strict, friendly reading of JSON files from outside: every problem becomes an ImportError
 * "<file>: <json path> <problem>" (e.g. `annotations.json: images[3].width must be an integer, got
 * string "640"`), so the person importing knows which file and which field to fix.
 *
 * Hostile input is bounded: the text is size-checked before JSON.parse (V8's parser is iterative,
 * so deep nesting cannot overflow the stack there), and nothing here recurses into values: readers
 * only walk the shape they expect, so "deeply nested junk" costs one type check.
 */
import { RecordCheck, listKeys, unknownKeys, type JsonObject } from '../../store/records/check';
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

export type { JsonObject } from '../../store/records/check';
export { describe, hasOwn, listKeys, unknownKeys } from '../../store/records/check';

/** `a` + `.b` or `[3]`; the root path is '' and prints as the file itself. */
export function at(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
}

/**
 * Reads one JSON file's values, failing with the file name and the JSON path, and collecting
 * warnings (unknown fields) into a shared list. The checks themselves are the store's
 * (store/records/check.ts), so a bundle row and a row the app writes pass the same validator.
 */
export class JsonReader extends RecordCheck {
  constructor(
    readonly fileName: string,
    readonly warnings: string[] = [],
  ) {
    super(fileName);
  }

  override fail(path: string, problem: string): never {
    throw new ImportError(this.fileName, path ? `${path} ${problem}` : problem);
  }

  warn(path: string, problem: string): void {
    this.warnings.push(`${this.fileName}: ${path ? `${path} ` : ''}${problem}`);
  }

  /** Warns once about fields the schema does not know (they are ignored, not kept). */
  unknownFields(obj: JsonObject, known: ReadonlySet<string>, path: string): void {
    const extra = unknownKeys(obj, known);
    if (extra.length > 0) this.warn(path, `has unknown ${extra.length === 1 ? 'field' : 'fields'} ${listKeys(extra)} (ignored)`);
  }
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
