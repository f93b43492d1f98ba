/**
 * The import form's choices (verb, object, CLIP descriptions, sampling rate), remembered per project
 * in localStorage: the form used to reset to grating / carrot on every visit, so a dog video was
 * stored as "carrot" by someone who never looked at the field. With nothing remembered the object
 * starts empty (the form asks for it) rather than naming a carrot nobody chose.
 * Pure apart from the Storage handed in, so it is tested without a browser.
 */
import { MAX_SAMPLE_FPS, MIN_SAMPLE_FPS } from '../../io/video/sampling';

export interface ImportFormValues {
  verb: string;
  noun: string;
  actionable: string;
  transformed: string;
  fps: number;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

const KEY_PREFIX = 'spoc.importForm.';
const MAX_TEXT = 200;

export function importFormKey(projectId: string): string {
  return `${KEY_PREFIX}${projectId}`;
}

/** What a project's form starts with when nothing is remembered. */
export function defaultImportForm(sampleFps: number): ImportFormValues {
  return { verb: 'grating', noun: '', actionable: '', transformed: '', fps: sampleFps };
}

/** The remembered values, each checked; anything missing or malformed falls back to the default. */
export function loadImportForm(storage: KeyValueStorage | null, projectId: string, sampleFps: number): ImportFormValues {
  const fallback = defaultImportForm(sampleFps);
  let raw: unknown;
  try {
    const text = storage?.getItem(importFormKey(projectId));
    if (!text) return fallback;
    raw = JSON.parse(text);
  } catch {
    // Storage refused (privacy mode) or held something that is not JSON: start from the default.
    return fallback;
  }
  if (typeof raw !== 'object' || raw === null) return fallback;
  const o = raw as Record<string, unknown>;
  const text = (v: unknown, d: string) => (typeof v === 'string' && v.length <= MAX_TEXT ? v : d);
  const fps = typeof o.fps === 'number' && Number.isFinite(o.fps) && o.fps >= MIN_SAMPLE_FPS && o.fps <= MAX_SAMPLE_FPS ? o.fps : fallback.fps;
  return {
    verb: text(o.verb, fallback.verb),
    noun: text(o.noun, fallback.noun),
    actionable: text(o.actionable, ''),
    transformed: text(o.transformed, ''),
    fps,
  };
}

/** Remembers the values; a full or refused storage only means the form is not remembered. */
export function saveImportForm(storage: KeyValueStorage | null, projectId: string, values: ImportFormValues): void {
  try {
    storage?.setItem(importFormKey(projectId), JSON.stringify(values));
  } catch {
    // Nothing to do: remembering the form is a convenience, never worth an error.
  }
}

/** The page's localStorage, or null where the browser withholds it. */
export function browserStorage(): KeyValueStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
