/**
 * The per-clip metadata file of our WhereToChange export, `<osc>/meta/<video>.json`. The SPOC
 * release has no such file (its folder names carry verb and noun, nothing else), so this schema is
 * ours; it carries everything the layout's folders cannot, so WhereToChange round trips are lossless.
 *
 * Schema (version 1; snake_case like COCO). Required: version, video, verb, noun, fps, frames.
 * {
 *   "format": "spoc-studio/wtc-meta",          optional; if present it must be this string
 *   "version": 1,                              files from a newer version are refused
 *   "video": "v1",                             must equal the <video> of the file name
 *   "verb": "chopping", "noun": "avocado",
 *   "actionable": "whole avocado",             optional CLIP descriptions
 *   "transformed": "chopped avocado pieces",
 *   "subset": "seen" | "novel",                optional
 *   "fps": 1,                                  frames sampled per second
 *   "width": 640, "height": 360,               optional; checked against the masks
 *   "source": "gt",                            which layer the masks are (gt | proposal | pred:<name>)
 *   "frames": [                                every frame, in clip order
 *     { "name": "frame0000",                   file stem of the frame image and its mask
 *       "timestamp_sec": 0,
 *       "phase": "initial" | "transitioning" | "end",                       optional
 *       "ignored": { "reason": "not_visible" | "too_blurry" | "indistinguishable" | "mixed" | "other",
 *                    "note": "...", "by": "ann", "at": 1700000000000 },    optional; note/by/at optional
 *       "reviewed": true,                      optional
 *       "instances": [{ "id": 2, "x": 40, "y": 31 }] }   optional: instance tags of this frame's mask
 *                                              (the state region around pixel x, y is instance id)
 *   ]
 * }
 * Unknown fields are reported as warnings and ignored; a missing required field or a wrong type is
 * an ImportError naming the file and the JSON path.
 */
import { isLayerSource } from '../../store/validate';
import { at, JsonReader, parseJsonText, type JsonObject } from './json';
import {
  FRAME_PHASES,
  IGNORE_REASONS,
  SUBSETS,
  pathSegmentProblem,
  type ClipAnnotations,
  type FrameIgnore,
  type FrameMeta,
  type LayerSource,
  type Osc,
  type ClipSubset,
} from './model';
import { MAX_SIDE } from '../../masks/labelMap';
import { MAX_INSTANCE_ID, sourceTags, type InstanceTag } from './instanceRegions';
import type { ObjectMeta } from './objectModel';

export const WTC_META_FORMAT = 'spoc-studio/wtc-meta';
export const WTC_META_VERSION = 1;
/** A clip's metadata is small; anything near this is not a metadata file. */
const MAX_META_CHARS = 32 * 2 ** 20;
const MAX_FRAMES = 1_000_000;

const TOP_KEYS = new Set(['format', 'version', 'video', 'verb', 'noun', 'actionable', 'transformed', 'subset', 'fps', 'width', 'height', 'source', 'frames', 'objects']);
const FRAME_KEYS = new Set(['name', 'timestamp_sec', 'phase', 'ignored', 'reviewed', 'instances']);
const TAG_KEYS = new Set(['id', 'x', 'y']);
const IGNORED_KEYS = new Set(['reason', 'note', 'by', 'at']);

/** What a metadata file says, in model terms. */
export interface WtcMeta {
  video: string;
  verb: string;
  noun: string;
  actionable?: string;
  transformed?: string;
  subset?: ClipSubset;
  fps: number;
  width?: number;
  height?: number;
  source?: LayerSource;
  frames: FrameMeta[];
  /** Instance tags by frame position (only frames that list some). */
  instances: Map<number, InstanceTag[]>;
  /** The clip's objects (ids, numbers, names, classes), when it has some; the PNGs keep states only. */
  objects?: ObjectMeta[];
}

/** The metadata JSON text for one clip (deterministic: same clip, same bytes). */
export function wtcMetaJson(a: ClipAnnotations, source: LayerSource): string {
  const { clip } = a;
  const tags = sourceTags(a, source);
  const osc: Partial<Osc> = clip.osc ?? {};
  const doc = {
    format: WTC_META_FORMAT,
    version: WTC_META_VERSION,
    video: clip.name,
    verb: osc.verb,
    noun: osc.noun,
    actionable: osc.actionable,
    transformed: osc.transformed,
    subset: clip.subset,
    fps: clip.fps,
    width: clip.width,
    height: clip.height,
    source,
    frames: a.frames.map((f, k) => ({
      name: f.name,
      timestamp_sec: f.timestampSec,
      phase: f.phase,
      ignored: f.ignored && { reason: f.ignored.reason, note: f.ignored.note, by: f.ignored.by, at: f.ignored.at },
      reviewed: f.reviewed,
      instances: tags.get(k)?.length ? tags.get(k)!.map((t) => ({ id: t.id, x: t.x, y: t.y })) : undefined,
    })),
    // Only clips with objects write this field, so a SPOC clip's metadata is what it always was.
    objects: a.objects?.length ? a.objects.map((o) => ({ id: o.id, number: o.number, name: o.name, class_id: o.classId })) : undefined,
  };
  // JSON.stringify drops undefined fields, so absent optional values are simply not written.
  return `${JSON.stringify(doc, null, 1)}\n`;
}

/** Parses and validates a metadata file; `expectedVideo` is the <video> its file name says. */
export function parseWtcMeta(text: string | Uint8Array, fileName: string, expectedVideo: string, warnings: string[] = []): WtcMeta {
  const r = new JsonReader(fileName, warnings);
  const doc = r.object(parseJsonText(text, fileName, MAX_META_CHARS), '');
  r.unknownFields(doc, TOP_KEYS, '');

  const format = r.optional(doc, 'format');
  if (format !== undefined && format !== WTC_META_FORMAT) r.fail('format', `is ${JSON.stringify(format)}, expected "${WTC_META_FORMAT}"`);
  const version = r.integer(r.required(doc, 'version', ''), 'version', 1);
  if (version > WTC_META_VERSION) {
    r.fail('version', `is ${version}; this app reads version ${WTC_META_VERSION} (the file was written by a newer version)`);
  }
  const video = r.nonEmptyString(r.required(doc, 'video', ''), 'video', 200);
  if (video !== expectedVideo) r.fail('video', `is "${video}" but the file describes the video folder "${expectedVideo}"`);

  const meta: WtcMeta = {
    video,
    verb: r.nonEmptyString(r.required(doc, 'verb', ''), 'verb', 200).trim(),
    noun: r.nonEmptyString(r.required(doc, 'noun', ''), 'noun', 200).trim(),
    fps: positiveFps(r, r.required(doc, 'fps', ''), 'fps'),
    frames: [],
    instances: new Map(),
  };
  const objects = r.optional(doc, 'objects');
  if (objects !== undefined) meta.objects = parseObjects(r, objects);
  const actionable = r.optional(doc, 'actionable');
  if (actionable !== undefined) meta.actionable = r.string(actionable, 'actionable');
  const transformed = r.optional(doc, 'transformed');
  if (transformed !== undefined) meta.transformed = r.string(transformed, 'transformed');
  const subset = r.optional(doc, 'subset');
  if (subset !== undefined) meta.subset = r.oneOf(subset, 'subset', SUBSETS);
  const width = r.optional(doc, 'width');
  if (width !== undefined) meta.width = r.integer(width, 'width', 1, MAX_SIDE);
  const height = r.optional(doc, 'height');
  if (height !== undefined) meta.height = r.integer(height, 'height', 1, MAX_SIDE);
  if ((meta.width === undefined) !== (meta.height === undefined)) r.fail(meta.width === undefined ? 'width' : 'height', 'is missing (give both width and height, or neither)');
  const source = r.optional(doc, 'source');
  if (source !== undefined) {
    const s = r.string(source, 'source', 200);
    if (!isLayerSource(s)) r.fail('source', `is "${s}"; expected "gt", "proposal", "pred:<name>" or "ann:<name>"`);
    meta.source = s as LayerSource;
  }

  const frames = r.array(r.required(doc, 'frames', ''), 'frames', MAX_FRAMES);
  const names = new Map<string, number>();
  frames.forEach((raw, k) => {
    const path = at('frames', k);
    const f = r.object(raw, path);
    r.unknownFields(f, FRAME_KEYS, path);
    const name = r.string(r.required(f, 'name', path), at(path, 'name'), 200);
    const problem = pathSegmentProblem(name);
    if (problem) r.fail(at(path, 'name'), `${JSON.stringify(name)} ${problem}`);
    const other = names.get(name.toLowerCase());
    if (other !== undefined) r.fail(at(path, 'name'), `"${name}" is also the name of frames[${other}] (frame names must be unique, ignoring case)`);
    names.set(name.toLowerCase(), k);
    const frame: FrameMeta = { name, timestampSec: r.number(r.required(f, 'timestamp_sec', path), at(path, 'timestamp_sec'), 0) };
    const phase = r.optional(f, 'phase');
    if (phase !== undefined) frame.phase = r.oneOf(phase, at(path, 'phase'), FRAME_PHASES);
    const ignored = r.optional(f, 'ignored');
    if (ignored !== undefined) frame.ignored = parseIgnored(r, ignored, at(path, 'ignored'));
    const reviewed = r.optional(f, 'reviewed');
    if (reviewed !== undefined) frame.reviewed = r.boolean(reviewed, at(path, 'reviewed'));
    const instances = r.optional(f, 'instances');
    if (instances !== undefined) {
      const tags = parseTags(r, instances, at(path, 'instances'), meta.width, meta.height);
      if (tags.length > 0) meta.instances.set(k, tags);
    }
    meta.frames.push(frame);
  });
  return meta;
}

/** `[{ id, x, y }]`: instance numbers are 1..999 and used once per frame; seeds lie in the frame when its size is known. */
function parseTags(r: JsonReader, raw: unknown, path: string, width: number | undefined, height: number | undefined): InstanceTag[] {
  const ids = new Set<number>();
  return r.array(raw, path, MAX_INSTANCE_ID).map((rawTag, i) => {
    const p = at(path, i);
    const o = r.object(rawTag, p);
    r.unknownFields(o, TAG_KEYS, p);
    const id = r.integer(r.required(o, 'id', p), at(p, 'id'), 1, MAX_INSTANCE_ID);
    if (ids.has(id)) r.fail(at(p, 'id'), `${id} is used twice on this frame (an instance number names one region)`);
    ids.add(id);
    const x = r.integer(r.required(o, 'x', p), at(p, 'x'), 0, (width ?? MAX_SIDE) - 1);
    const y = r.integer(r.required(o, 'y', p), at(p, 'y'), 0, (height ?? MAX_SIDE) - 1);
    return { id, x, y };
  });
}

/** `{ reason, note?, by?, at? }`, shared with the COCO extension fields. */
export function parseIgnored(r: JsonReader, raw: unknown, path: string): FrameIgnore {
  const o: JsonObject = r.object(raw, path);
  r.unknownFields(o, IGNORED_KEYS, path);
  const ignored: FrameIgnore = { reason: r.oneOf(r.required(o, 'reason', path), at(path, 'reason'), IGNORE_REASONS) };
  const note = r.optional(o, 'note');
  if (note !== undefined) ignored.note = r.string(note, at(path, 'note'));
  const by = r.optional(o, 'by');
  if (by !== undefined) ignored.by = r.string(by, at(path, 'by'), 200);
  const time = r.optional(o, 'at');
  if (time !== undefined) ignored.at = r.number(time, at(path, 'at'));
  return ignored;
}

/** Frames per second: a positive number (WhereToChange uses 1; nobody samples above 1000). */
export function positiveFps(r: JsonReader, v: unknown, path: string): number {
  const fps = r.number(v, path, 0, 1000);
  if (fps === 0) r.fail(path, 'must be greater than 0');
  return fps;
}

/** The `objects` list: ids and numbers unique. */
function parseObjects(r: JsonReader, v: unknown): ObjectMeta[] {
  const ids = new Set<string>();
  const numbers = new Set<number>();
  return r.array(v, 'objects', 0xffff).map((item, i) => {
    const p = at('objects', i);
    const o = r.object(item, p);
    const id = r.nonEmptyString(r.required(o, 'id', p), at(p, 'id'), 64);
    if (ids.has(id)) r.fail(at(p, 'id'), `${id} is listed twice`);
    ids.add(id);
    const number = r.integer(r.required(o, 'number', p), at(p, 'number'), 1, 0xffff);
    if (numbers.has(number)) r.fail(at(p, 'number'), `${number} is the number of another object`);
    numbers.add(number);
    const meta: ObjectMeta = { id, number, name: r.nonEmptyString(r.required(o, 'name', p), at(p, 'name'), 200) };
    const classId = r.optional(o, 'class_id');
    if (classId !== undefined) meta.classId = r.nonEmptyString(classId, at(p, 'class_id'), 200);
    return meta;
  });
}
