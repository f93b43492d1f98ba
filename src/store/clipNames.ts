/**
 * The naming rules of clips and their object state changes, pure (no Dexie, no DOM) so the store,
 * the importers and the exporters apply the very same ones.
 *
 * Names become paths in every export: a clip name is a folder (WhereToChange, DAVIS) or a file
 * (VISOR) and a COCO video name; `<verb>_<noun>` is the WhereToChange top folder, which
 * `parseOscName` splits at the first underscore. So imports and edits refuse names that cannot be
 * written, and exports (of rows stored before these rules) rewrite them with a note.
 */

/** Longest name a path segment may have (NAME_MAX is 255 bytes on most file systems; keep room for suffixes). */
export const MAX_NAME_CHARS = 200;

// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[/\\:*?"<>|\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const UNSAFE_RUNS = /[/\\:*?"<>|\u0000-\u001f\u007f]+/g;

/**
 * Why `name` cannot be a frame or video name in a file path, or null when it can. Separators,
 * "." / "..", control characters and names Windows cannot store are refused.
 */
export function pathSegmentProblem(name: string): string | null {
  if (typeof name !== 'string' || name.length === 0) return 'is empty';
  if (name.length > MAX_NAME_CHARS) return `is ${name.length} characters long (at most ${MAX_NAME_CHARS})`;
  if (name === '.' || name === '..') return 'is "." or ".."';
  if (UNSAFE_CHARS.test(name)) return 'contains a character not allowed in file names (/ \\ : * ? " < > | or a control character)';
  if (name !== name.trim() || name.endsWith('.')) return 'starts or ends with a space, or ends with a dot';
  return null;
}

/** Why `verb` cannot name a WhereToChange folder `<verb>_<noun>`, as a sentence; null when it can. */
export function verbProblem(verb: string): string | null {
  const v = verb.trim();
  if (!v) return 'The verb is empty; type one word, e.g. "mashing".';
  if (/[\s_]/.test(v)) return `The verb "${v}" must be one word (no spaces or underscores): it names the WhereToChange folder <verb>_<noun>.`;
  const problem = pathSegmentProblem(v);
  if (problem) return `The verb "${v}" ${problem}.`;
  return null;
}

/** Why `noun` cannot be the object of a clip (it is part of the folder `<verb>_<noun>`), or null. */
export function nounProblem(noun: string): string | null {
  const n = noun.trim();
  if (!n) return 'The object is empty; type what changes state, e.g. "potato".';
  const problem = pathSegmentProblem(n);
  if (problem) return `The object "${n}" ${problem}; it names the WhereToChange folder <verb>_<noun>.`;
  return null;
}

/** Why `name` cannot be a clip name (it becomes a folder or file name in every export), or null. */
export function clipNameProblem(name: string): string | null {
  const n = name.trim();
  if (!n) return 'A clip needs a name.';
  const problem = pathSegmentProblem(n);
  if (problem) return `The clip name "${n}" ${problem}.`;
  return null;
}

/** The first problem of a verb and noun pair, or null. */
export function oscNameProblem(osc: { verb: string; noun: string }): string | null {
  return verbProblem(osc.verb) ?? nounProblem(osc.noun);
}

/**
 * `name` made usable as a path segment: each run of forbidden characters becomes "-", surrounding
 * spaces and trailing dots go, long names are cut; `fallback` when nothing is left.
 */
export function safeSegment(name: string, fallback: string): string {
  let s = name.replace(UNSAFE_RUNS, '-').trim().replace(/\.+$/, '').trim();
  if (s.length > MAX_NAME_CHARS) s = s.slice(0, MAX_NAME_CHARS).trim();
  if (s === '' || s === '.' || s === '..' || s.replace(/-/g, '') === '') return fallback;
  return s;
}

/** A verb usable in `<verb>_<noun>`: whitespace and underscores become "-"; "unknown" when empty. */
export function safeVerb(verb: string): string {
  return safeSegment(verb.trim().replace(/[\s_]+/g, '-'), 'unknown');
}

/** A noun usable in `<verb>_<noun>`; "object" (the import form's default) when empty. */
export function safeNoun(noun: string): string {
  return safeSegment(noun, 'object');
}

/**
 * `name`, or the first of `name-2`, `name-3`, ... not in `taken` (compared ignoring case, since
 * exported folders land on case-insensitive file systems too). Deterministic: the same names in the
 * same order give the same result. Does not add the result to `taken`.
 */
export function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name.toLowerCase())) return name;
  for (let k = 2; ; k++) {
    const suffix = `-${k}`;
    const candidate = `${name.slice(0, MAX_NAME_CHARS - suffix.length)}${suffix}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
