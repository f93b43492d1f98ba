/**
 * Optional per-video metadata next to the GT masks: `<osc>/meta/<video>.json` (WhereToChange) or
 * `meta/<video>.json` (DAVIS). Two forms are read:
 *
 * - The app's WhereToChange metadata (src/io/formats/wtcMeta.ts: `version`, `video`, `verb`, `noun`,
 *   `fps`, `frames: [{ name, timestamp_sec, phase?, ignored? }]`, optional `width`/`height`), which
 *   `demo` and `convert` write. A file with `version` or `format`, or with frame objects, is this
 *   form and is checked by parseWtcMeta, the very parser `convert` and the app's import use, so
 *   `eval` accepts exactly the files they accept. Its `width`/`height`, when given, are the size
 *   every GT mask must have.
 * - A simple form for hand-written files, read only by eval:
 *     phases   per-frame phase ("initial" | "transitioning" | "end", or null): an array aligned with
 *              `frames` (or, without `frames`, with the video's GT masks in natural order), or an
 *              object keyed by frame name.
 *     ignored  frames left out of evaluation: frame names, or 0-based indices into the same list as
 *              `phases`; or an object { "<frame>": true }.
 *   Every other field is informational.
 * A missing file means: no phases, no ignored frames.
 */
import type { Phase } from '../src/metrics';
import { parseJsonText, parseWtcMeta, type WtcMeta } from '../src/io/formats';
import { JsonReader, hasOwn } from '../src/io/formats/json';
import { DataError, asDataError, displayPath } from './io';
import type { MaskSet, MaskVideo } from './layout';

export interface VideoMeta {
  /** Display path of the metadata file, or null when there is none. */
  file: string | null;
  /**
   * Every frame of the clip in clip order (the app's form lists them all, painted or not), or null
   * when the file lists none: then the clip's frames are its GT masks.
   */
  frames: { key: string; name: string }[] | null;
  /** Frame keys (lower-case stems) marked ignored. */
  ignored: Set<string>;
  phases: Map<string, Phase>;
  /** The frame size the metadata declares (app form only); GT masks must have it. */
  size: { width: number; height: number } | null;
  warnings: string[];
}

const PHASE_NAMES: Record<string, Phase> = {
  initial: 'initial',
  init: 'initial',
  transitioning: 'transitioning',
  transition: 'transitioning',
  end: 'end',
  'end state': 'end',
  end_state: 'end',
  endstate: 'end',
};

export async function readVideoMeta(set: MaskSet, video: MaskVideo): Promise<VideoMeta> {
  const file = displayPath(set.dirArg, video.metaRel);
  const bytes = await set.tree.readFile(video.metaRel);
  if (bytes === null) return { file: null, frames: null, ignored: new Set(), phases: new Map(), size: null, warnings: [] };
  try {
    const reader = new JsonReader(file);
    const doc = reader.object(parseJsonText(bytes, file), '');
    if (isAppForm(doc)) {
      const warnings: string[] = [];
      return fromAppMeta(parseWtcMeta(bytes, file, video.video, warnings), file, warnings);
    }
    return parseVideoMeta(doc, video, file);
  } catch (err) {
    throw asDataError(err) ?? err;
  }
}

/** The app's schema says what it is (`format`, `version`) or lists frames as objects. */
function isAppForm(doc: Record<string, unknown>): boolean {
  if (hasOwn(doc, 'format') || hasOwn(doc, 'version')) return true;
  return Array.isArray(doc.frames) && doc.frames.some((f) => typeof f === 'object' && f !== null);
}

function fromAppMeta(meta: WtcMeta, file: string, warnings: string[]): VideoMeta {
  const phases = new Map<string, Phase>();
  const ignored = new Set<string>();
  // A listed frame without a GT mask is part of the clip (an unpainted frame: all-background GT, or
  // an ignored one): src/metrics/evalFrames.ts, as the app's panel counts it.
  const frames = meta.frames.map((f) => ({ key: f.name.toLowerCase(), name: f.name }));
  for (const f of meta.frames) {
    const key = f.name.toLowerCase();
    if (f.phase) phases.set(key, f.phase);
    if (f.ignored) ignored.add(key);
  }
  const size = meta.width !== undefined && meta.height !== undefined ? { width: meta.width, height: meta.height } : null;
  return { file, frames, ignored, phases, size, warnings };
}

function unknownFramesWarning(file: string, unknown: ReadonlySet<string>): string[] {
  if (unknown.size === 0) return [];
  const list = [...unknown].slice(0, 3).join(', ');
  return [`${file}: names ${unknown.size} frame(s) with no GT mask (${list}${unknown.size > 3 ? ', …' : ''}); ignored`];
}

/** The simple form (see the top of this file). */
export function parseVideoMeta(json: Record<string, unknown>, video: MaskVideo, file: string): VideoMeta {
  const fail = (problem: string): never => {
    throw new DataError(`${file}: ${problem}`);
  };
  const gtKeys = new Set(video.frames.map((f) => f.key));
  let order: string[] = video.frames.map((f) => f.key);
  let orderFrom = `the ${order.length} GT masks of ${video.key}`;
  if (json.frames !== undefined) {
    if (!Array.isArray(json.frames) || !json.frames.every((f) => typeof f === 'string')) fail('"frames" must be an array of frame names');
    order = (json.frames as string[]).map(frameKey);
    orderFrom = `"frames" (${order.length} names)`;
  }
  const warnings: string[] = [];
  const unknown = new Set<string>();
  const known = (key: string): string => {
    if (!gtKeys.has(key)) unknown.add(key);
    return key;
  };

  const phases = new Map<string, Phase>();
  const toPhase = (v: unknown, where: string): Phase | null => {
    if (v === null) return null;
    const p = typeof v === 'string' ? PHASE_NAMES[v.trim().toLowerCase()] : undefined;
    if (!p) fail(`${where}: ${JSON.stringify(v)} is not a phase (initial, transitioning, end or null)`);
    return p!;
  };
  const ph = json.phases;
  if (Array.isArray(ph)) {
    if (ph.length !== order.length) {
      fail(`"phases" has ${ph.length} entries but ${orderFrom} has ${order.length}; list the frames in "frames" or key "phases" by frame name`);
    }
    ph.forEach((v, i) => {
      const p = toPhase(v, `"phases"[${i}]`);
      if (p) phases.set(known(order[i]), p);
    });
  } else if (typeof ph === 'object' && ph !== null) {
    for (const [name, v] of Object.entries(ph)) {
      const p = toPhase(v, `"phases"."${name}"`);
      if (p) phases.set(known(frameKey(name)), p);
    }
  } else if (ph !== undefined && ph !== null) fail('"phases" must be an array or an object keyed by frame name');

  const ignored = new Set<string>();
  const ig = json.ignored;
  if (Array.isArray(ig)) {
    ig.forEach((v, i) => {
      if (typeof v === 'string') ignored.add(known(frameKey(v)));
      else if (Number.isInteger(v) && (v as number) >= 0 && (v as number) < order.length) ignored.add(known(order[v as number]));
      else fail(`"ignored"[${i}]: ${JSON.stringify(v)} is neither a frame name nor an index below ${order.length} into ${orderFrom}`);
    });
  } else if (typeof ig === 'object' && ig !== null) {
    for (const [name, v] of Object.entries(ig)) {
      if (typeof v !== 'boolean') fail(`"ignored"."${name}" must be true or false`);
      if (v) ignored.add(known(frameKey(name)));
    }
  } else if (ig !== undefined && ig !== null) fail('"ignored" must be an array or an object keyed by frame name');

  warnings.push(...unknownFramesWarning(file, unknown));
  return { file, frames: null, ignored, phases, size: null, warnings };
}

/** "frame0003.png" / "Frame0003" -> "frame0003": metadata may name frames with or without extension. */
function frameKey(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  return base.replace(/\.(png|jpe?g)$/i, '').toLowerCase();
}
