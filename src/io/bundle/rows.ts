/**
 * The JSON entries of a bundle: their shapes, and strict reading of them back into store rows.
 * Every field is type-checked, unknown fields are refused, and the semantic checks the store makes
 * on its own writes (mask sizes, areas that match their RLE, revision boxes inside the frame,
 * known sources and provenance) are made here too, because bundle rows are written as they are.
 * Messages are "<bundle>: <entry>: <json path> <problem>".
 */
import { assertSize } from '../../masks/labelMap';
import { StoreError } from '../../store/errors';
import {
  CLIP_STATUSES,
  FRAME_VERDICTS,
  type Clip,
  type ClipComment,
  type ClipEvent,
  type ClipSourceKind,
  type Frame,
  type FlagDismissal,
  type FrameIgnored,
  type FramePhase,
  type FrameVerdict,
  IGNORE_REASONS,
  type Layer,
  type LayerSource,
  type MetaEntry,
  type Project,
  type Provenance,
  type ProvenanceKind,
  type Revision,
  type Rle,
  type SourceVideoRef,
} from '../../store/types';
import { MAX_VERDICT_NOTE } from '../../store/frameVerdicts';
import { checkRevision, isLayerSource, maskArea, sourceVideoProblem } from '../../store/validate';
import { JsonReader, hasOwn, parseJsonText, type JsonObject } from '../formats/json';
import { MAX_JSON_ENTRY_BYTES, ID_PATTERN, framePath, projectMetaPrefix, strictFields, thumbnailPath } from './format';

/** A blob of a row, kept as its own entry. */
export interface BlobRef {
  path: string;
  bytes: number;
  /** `Blob.type` as stored (restored exactly on import). */
  blobType: string;
}

/** FrameImage without its blob. */
export interface FrameImageRef extends BlobRef {
  index: number;
  mime: string;
  width: number;
  height: number;
}

export interface ClipJson {
  clip: Clip;
  frames: Frame[];
  frameImages: FrameImageRef[];
  thumbnail: BlobRef | null;
  layers: Layer[];
  /** Dismissed review flags (schema v3); absent in bundles of older stores. */
  reviewFlags: FlagDismissal[];
  /** Format v2: the clip's lifecycle log in seq order, without the store-local seq (absent in v1 bundles). */
  clipEvents: BundleClipEvent[];
  /** Format v2: every comment of the clip, roots and replies, by frame, time and id (absent in v1 bundles). */
  comments: ClipComment[];
  /** Format v3: the per-frame verdict log in seq order, without the store-local seq (absent in v1 and v2 bundles). */
  frameVerdicts: BundleFrameVerdict[];
}

/** A frame verdict as a bundle carries it: the order of the list is the order of the log. */
export type BundleFrameVerdict = Omit<FrameVerdict, 'seq'>;

/** A lifecycle event as a bundle carries it: the order of the list is the order of the log. */
export type BundleClipEvent = Omit<ClipEvent, 'seq'>;

export interface RevisionsJson {
  revisions: Revision[];
}

export interface ProjectJson {
  project: Project;
}

export interface MetaJson {
  meta: MetaEntry[];
}

const SOURCE_KINDS: readonly ClipSourceKind[] = ['video', 'images', 'zip', 'wtc', 'demo', 'bundle'];
const PHASES: readonly FramePhase[] = ['initial', 'transitioning', 'end'];
const PROVENANCE_KINDS: readonly ProvenanceKind[] = ['manual', 'imported', 'proposal', 'propagated', 'interpolated', 'demo'];
const MAX_TEXT = 100_000;

function reader(bundleName: string, entry: string): JsonReader {
  return new JsonReader(`${bundleName}: ${entry}`);
}

function parse(bytes: Uint8Array, bundleName: string, entry: string): unknown {
  return parseJsonText(bytes, `${bundleName}: ${entry}`, MAX_JSON_ENTRY_BYTES);
}

/** Runs a store check and turns its StoreError into a message at `path`. */
function storeCheck<T>(r: JsonReader, path: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof StoreError || err instanceof RangeError) r.fail(path, err.message.replace(/\.$/, ''));
    throw err;
  }
}

function rle(r: JsonReader, v: unknown, path: string): Rle {
  const o = r.object(v, path);
  strictFields(r, o, new Set(['size', 'counts']), path);
  const size = r.array(r.required(o, 'size', path), `${path}.size`, 2);
  if (size.length !== 2) r.fail(`${path}.size`, 'must be [height, width]');
  const h = r.integer(size[0], `${path}.size[0]`, 0, 8192);
  const w = r.integer(size[1], `${path}.size[1]`, 0, 8192);
  return { size: [h, w], counts: r.string(r.required(o, 'counts', path), `${path}.counts`, 64 * 2 ** 20) };
}

function layerSource(r: JsonReader, v: unknown, path: string): LayerSource {
  const s = r.string(v, path, 300);
  if (!isLayerSource(s)) r.fail(path, `${JSON.stringify(s)} is not a layer source (gt, proposal, pred:<name> or ann:<name>)`);
  return s as LayerSource;
}

function id(r: JsonReader, v: unknown, path: string): string {
  const s = r.string(v, path, 64);
  if (!ID_PATTERN.test(s)) r.fail(path, `${JSON.stringify(s)} is not a valid id`);
  return s;
}

function optionalString(r: JsonReader, o: JsonObject, key: string, path: string, max = MAX_TEXT): string | undefined {
  const v = r.optional(o, key);
  return v === undefined ? undefined : r.string(v, `${path}.${key}`, max);
}

// ---------------------------------------------------------------- project.json

export function parseProjectJson(bytes: Uint8Array, bundleName: string, entry: string): ProjectJson {
  const r = reader(bundleName, entry);
  const doc = r.object(parse(bytes, bundleName, entry), '');
  strictFields(r, doc, new Set(['project']), '');
  const o = r.object(r.required(doc, 'project', ''), 'project');
  const p = 'project';
  strictFields(r, o, new Set(['id', 'name', 'createdAt', 'updatedAt', 'settings']), p);
  const settings = r.object(r.required(o, 'settings', p), `${p}.settings`);
  strictFields(r, settings, new Set(['sampleFps', 'thresholds']), `${p}.settings`);
  const sampleFps = r.number(r.required(settings, 'sampleFps', `${p}.settings`), `${p}.settings.sampleFps`, 0, 1000);
  if (!(sampleFps > 0)) r.fail(`${p}.settings.sampleFps`, 'must be positive');
  const th = r.object(r.required(settings, 'thresholds', `${p}.settings`), `${p}.settings.thresholds`);
  const thresholds: Project['settings']['thresholds'] = {};
  for (const verb in th) {
    if (!hasOwn(th, verb)) continue;
    const path = `${p}.settings.thresholds[${JSON.stringify(verb)}]`;
    if (verb === '__proto__' || verb === 'constructor' || verb === 'prototype' || verb.length > 200) r.fail(path, 'is not a verb name');
    const t = r.object(th[verb], path);
    strictFields(r, t, new Set(['tau', 'delta']), path);
    thresholds[verb] = { tau: r.number(r.required(t, 'tau', path), `${path}.tau`), delta: r.number(r.required(t, 'delta', path), `${path}.delta`) };
  }
  const name = r.nonEmptyString(r.required(o, 'name', p), `${p}.name`, 1000);
  return {
    project: {
      id: id(r, r.required(o, 'id', p), `${p}.id`),
      name,
      createdAt: r.number(r.required(o, 'createdAt', p), `${p}.createdAt`),
      updatedAt: r.number(r.required(o, 'updatedAt', p), `${p}.updatedAt`),
      settings: { sampleFps, thresholds },
    },
  };
}

// ---------------------------------------------------------------- meta.json

export function parseMetaJson(bytes: Uint8Array, bundleName: string, entry: string, projectId: string): MetaJson {
  const r = reader(bundleName, entry);
  const doc = r.object(parse(bytes, bundleName, entry), '');
  strictFields(r, doc, new Set(['meta']), '');
  const prefix = projectMetaPrefix(projectId);
  const seen = new Set<string>();
  const meta = r.array(r.required(doc, 'meta', ''), 'meta', 100_000).map((v, i): MetaEntry => {
    const path = `meta[${i}]`;
    const o = r.object(v, path);
    strictFields(r, o, new Set(['key', 'value']), path);
    const key = r.string(r.required(o, 'key', path), `${path}.key`, 1000);
    if (!key.startsWith(prefix)) r.fail(`${path}.key`, `${JSON.stringify(key)} does not belong to the bundle's project (keys must start with "${prefix}")`);
    if (seen.has(key)) r.fail(`${path}.key`, `${JSON.stringify(key)} appears twice`);
    seen.add(key);
    if (!hasOwn(o, 'value')) r.fail(path, 'has no value');
    return { key, value: o.value };
  });
  return { meta };
}

// ---------------------------------------------------------------- clip.json

const CLIP_FIELDS = new Set(['id', 'projectId', 'name', 'createdAt', 'updatedAt', 'width', 'height', 'frameCount', 'sampleFps', 'source', 'osc', 'subset', 'status', 'assignee']);
const FRAME_FIELDS = new Set(['clipId', 'index', 'timestampSec', 'name', 'phase', 'ignored', 'reviewed']);
const FLAG_FIELDS = new Set(['clipId', 'source', 'flagId', 'kind', 'frameIndex', 'box', 'reason', 'by', 'at']);
const IMAGE_FIELDS = new Set(['index', 'mime', 'width', 'height', 'path', 'bytes', 'blobType']);
const LAYER_FIELDS = new Set(['clipId', 'frameIndex', 'source', 'act', 'trf', 'instances', 'provenance', 'updatedAt', 'actArea', 'trfArea']);

/**
 * Reads clips/<clipId>/clip.json. `clipId` comes from the entry path and `projectId` from the
 * manifest: rows naming any other clip or project are refused ("rows referencing unknown clips").
 */
const CLIP_JSON_FIELDS_V1 = ['clip', 'frames', 'frameImages', 'thumbnail', 'layers', 'reviewFlags'];
const CLIP_JSON_FIELDS_V2 = [...CLIP_JSON_FIELDS_V1, 'clipEvents', 'comments'];
const CLIP_JSON_FIELDS_V3 = [...CLIP_JSON_FIELDS_V2, 'frameVerdicts'];

/**
 * Reads clips/<clipId>/clip.json of a bundle of `formatVersion` (format.ts): v1 has no `clipEvents`
 * or `comments` (they read as empty), v2 requires both.
 */
export function parseClipJson(bytes: Uint8Array, bundleName: string, entry: string, clipId: string, projectId: string, formatVersion: number): ClipJson {
  const r = reader(bundleName, entry);
  const doc = r.object(parse(bytes, bundleName, entry), '');
  strictFields(r, doc, new Set(formatVersion >= 3 ? CLIP_JSON_FIELDS_V3 : formatVersion === 2 ? CLIP_JSON_FIELDS_V2 : CLIP_JSON_FIELDS_V1), '');
  const clip = parseClip(r, r.required(doc, 'clip', ''), clipId, projectId);
  const n = clip.frameCount;

  const framesRaw = r.array(r.required(doc, 'frames', ''), 'frames', n);
  if (framesRaw.length !== n) r.fail('frames', `has ${framesRaw.length} rows but the clip has ${n} frames`);
  const frames = framesRaw.map((v, i) => parseFrame(r, v, `frames[${i}]`, clipId, i));
  const names = new Map<string, number>();
  frames.forEach((f, i) => {
    if (f.name === undefined) return;
    const other = names.get(f.name.toLowerCase());
    if (other !== undefined) r.fail(`frames[${i}].name`, `${JSON.stringify(f.name)} is also the name of frame ${other} (names must differ, ignoring case)`);
    names.set(f.name.toLowerCase(), i);
  });

  const imagesRaw = r.array(r.required(doc, 'frameImages', ''), 'frameImages', n);
  if (imagesRaw.length !== n) r.fail('frameImages', `has ${imagesRaw.length} rows but the clip has ${n} frames`);
  const frameImages = imagesRaw.map((v, i): FrameImageRef => {
    const path = `frameImages[${i}]`;
    const o = r.object(v, path);
    strictFields(r, o, IMAGE_FIELDS, path);
    const index = r.integer(r.required(o, 'index', path), `${path}.index`, 0);
    if (index !== i) r.fail(`${path}.index`, `is ${index}; frame images must be listed in frame order (expected ${i})`);
    const width = r.integer(r.required(o, 'width', path), `${path}.width`, 1, 8192);
    const height = r.integer(r.required(o, 'height', path), `${path}.height`, 1, 8192);
    if (width !== clip.width || height !== clip.height) r.fail(path, `is ${width}x${height} but the clip is ${clip.width}x${clip.height}`);
    const ref = blobRef(r, o, path);
    imageType(r, ref.blobType, `${path}.blobType`, true);
    const expected = framePath(clipId, i, ref.blobType);
    if (ref.path !== expected) r.fail(`${path}.path`, `is ${JSON.stringify(ref.path)}; expected ${JSON.stringify(expected)}`);
    const mime = imageType(r, r.string(r.required(o, 'mime', path), `${path}.mime`, 200), `${path}.mime`, false);
    return { index, mime, width, height, ...ref };
  });

  const thumbRaw = r.optional(doc, 'thumbnail');
  let thumbnail: BlobRef | null = null;
  if (thumbRaw !== undefined) {
    const o = r.object(thumbRaw, 'thumbnail');
    strictFields(r, o, new Set(['path', 'bytes', 'blobType']), 'thumbnail');
    thumbnail = blobRef(r, o, 'thumbnail');
    imageType(r, thumbnail.blobType, 'thumbnail.blobType', true);
    const expected = thumbnailPath(clipId, thumbnail.blobType);
    if (thumbnail.path !== expected) r.fail('thumbnail.path', `is ${JSON.stringify(thumbnail.path)}; expected ${JSON.stringify(expected)}`);
  }

  const seen = new Set<string>();
  const layers = r.array(r.required(doc, 'layers', ''), 'layers', n * 10_000).map((v, i) => {
    const layer = parseLayerRow(r, v, `layers[${i}]`, clip);
    const key = `${layer.source}\u0000${layer.frameIndex}`;
    if (seen.has(key)) r.fail(`layers[${i}]`, `is a second ${layer.source} layer for frame ${layer.frameIndex}`);
    seen.add(key);
    return layer;
  });
  const flagsRaw = r.optional(doc, 'reviewFlags');
  const flagKeys = new Set<string>();
  const reviewFlags = (flagsRaw === undefined ? [] : r.array(flagsRaw, 'reviewFlags', 1_000_000)).map((v, i) => {
    const flag = parseFlag(r, v, `reviewFlags[${i}]`, clip);
    const key = `${flag.source}\u0000${flag.flagId}`;
    if (flagKeys.has(key)) r.fail(`reviewFlags[${i}]`, `dismisses flag ${JSON.stringify(flag.flagId)} of ${flag.source} a second time`);
    flagKeys.add(key);
    return flag;
  });
  const clipEvents = formatVersion >= 2 ? r.array(r.required(doc, 'clipEvents', ''), 'clipEvents', 1_000_000).map((v, i) => parseClipEvent(r, v, `clipEvents[${i}]`, clip)) : [];
  const comments = formatVersion >= 2 ? parseComments(r, r.required(doc, 'comments', ''), clip) : [];
  const frameVerdicts =
    formatVersion >= 3 ? r.array(r.required(doc, 'frameVerdicts', ''), 'frameVerdicts', 1_000_000).map((v, i) => parseFrameVerdict(r, v, `frameVerdicts[${i}]`, clip)) : [];
  return { clip, frames, frameImages, thumbnail, layers, reviewFlags, clipEvents, comments, frameVerdicts };
}

const VERDICT_FIELDS = new Set(['clipId', 'frameIndex', 'verdict', 'note', 'by', 'at']);

function parseFrameVerdict(r: JsonReader, v: unknown, path: string, clip: Clip): BundleFrameVerdict {
  const o = r.object(v, path);
  strictFields(r, o, VERDICT_FIELDS, path);
  const cid = r.string(r.required(o, 'clipId', path), `${path}.clipId`, 64);
  if (cid !== clip.id) r.fail(`${path}.clipId`, `is ${JSON.stringify(cid)}, not this clip (${JSON.stringify(clip.id)})`);
  const row: BundleFrameVerdict = {
    clipId: clip.id,
    frameIndex: r.integer(r.required(o, 'frameIndex', path), `${path}.frameIndex`, 0, clip.frameCount - 1),
    verdict: r.oneOf(r.required(o, 'verdict', path), `${path}.verdict`, FRAME_VERDICTS),
    by: r.nonEmptyString(r.required(o, 'by', path), `${path}.by`, 1000),
    at: r.number(r.required(o, 'at', path), `${path}.at`),
  };
  const note = optionalString(r, o, 'note', path, MAX_VERDICT_NOTE);
  if (note !== undefined) row.note = note;
  return row;
}

const EVENT_FIELDS = new Set(['clipId', 'action', 'from', 'to', 'by', 'at', 'note']);
const COMMENT_FIELDS = new Set(['id', 'clipId', 'frameIndex', 'x', 'y', 'author', 'at', 'text', 'parentId', 'resolved']);
/** store/comments.ts MAX_TEXT (the text as the store keeps it, trimmed). */
const MAX_COMMENT_TEXT = 4000;

function parseClipEvent(r: JsonReader, v: unknown, path: string, clip: Clip): BundleClipEvent {
  const o = r.object(v, path);
  strictFields(r, o, EVENT_FIELDS, path);
  const cid = r.string(r.required(o, 'clipId', path), `${path}.clipId`, 64);
  if (cid !== clip.id) r.fail(`${path}.clipId`, `is ${JSON.stringify(cid)}, not this clip (${JSON.stringify(clip.id)})`);
  const event: BundleClipEvent = {
    clipId: clip.id,
    action: r.nonEmptyString(r.required(o, 'action', path), `${path}.action`, 200),
    from: r.oneOf(r.required(o, 'from', path), `${path}.from`, CLIP_STATUSES),
    to: r.oneOf(r.required(o, 'to', path), `${path}.to`, CLIP_STATUSES),
    by: r.nonEmptyString(r.required(o, 'by', path), `${path}.by`, 1000),
    at: r.number(r.required(o, 'at', path), `${path}.at`),
  };
  const note = optionalString(r, o, 'note', path, MAX_TEXT);
  if (note !== undefined) event.note = note;
  return event;
}

/**
 * Comments of a clip: ids unique, frames inside the clip, points inside the frame, and every reply's
 * `parentId` naming a root comment (threads are one level deep) of this clip on the same frame.
 */
function parseComments(r: JsonReader, v: unknown, clip: Clip): ClipComment[] {
  const comments = r.array(v, 'comments', 1_000_000).map((item, i): ClipComment => {
    const path = `comments[${i}]`;
    const o = r.object(item, path);
    strictFields(r, o, COMMENT_FIELDS, path);
    const cid = r.string(r.required(o, 'clipId', path), `${path}.clipId`, 64);
    if (cid !== clip.id) r.fail(`${path}.clipId`, `is ${JSON.stringify(cid)}, not this clip (${JSON.stringify(clip.id)})`);
    const frameIndex = r.integer(r.required(o, 'frameIndex', path), `${path}.frameIndex`, 0);
    if (frameIndex >= clip.frameCount) r.fail(`${path}.frameIndex`, `is ${frameIndex}, outside the clip's ${clip.frameCount} frames`);
    // The store rounds points to pixels, so a point may sit on the far edge (x = width).
    const x = r.integer(r.required(o, 'x', path), `${path}.x`, 0, clip.width);
    const y = r.integer(r.required(o, 'y', path), `${path}.y`, 0, clip.height);
    const text = r.nonEmptyString(r.required(o, 'text', path), `${path}.text`, MAX_COMMENT_TEXT);
    const c: ClipComment = {
      id: id(r, r.required(o, 'id', path), `${path}.id`),
      clipId: clip.id,
      frameIndex,
      x,
      y,
      author: r.nonEmptyString(r.required(o, 'author', path), `${path}.author`, 1000),
      at: r.number(r.required(o, 'at', path), `${path}.at`),
      text,
      resolved: r.boolean(r.required(o, 'resolved', path), `${path}.resolved`),
    };
    const parentId = r.optional(o, 'parentId');
    if (parentId !== undefined) c.parentId = id(r, parentId, `${path}.parentId`);
    return c;
  });
  const byId = new Map<string, ClipComment>();
  comments.forEach((c, i) => {
    if (byId.has(c.id)) r.fail(`comments[${i}].id`, `${JSON.stringify(c.id)} is the id of another comment too`);
    byId.set(c.id, c);
  });
  comments.forEach((c, i) => {
    if (c.parentId === undefined) return;
    const path = `comments[${i}].parentId`;
    const parent = byId.get(c.parentId);
    if (!parent) r.fail(path, `${JSON.stringify(c.parentId)} is not a comment of this clip`);
    if (parent!.parentId !== undefined) r.fail(path, `${JSON.stringify(c.parentId)} is itself a reply (threads are one level deep)`);
    if (parent!.frameIndex !== c.frameIndex) r.fail(path, `${JSON.stringify(c.parentId)} is on frame ${parent!.frameIndex}, not on this reply's frame ${c.frameIndex}`);
  });
  return comments;
}

function parseFlag(r: JsonReader, v: unknown, path: string, clip: Clip): FlagDismissal {
  const o = r.object(v, path);
  strictFields(r, o, FLAG_FIELDS, path);
  const cid = r.string(r.required(o, 'clipId', path), `${path}.clipId`, 64);
  if (cid !== clip.id) r.fail(`${path}.clipId`, `is ${JSON.stringify(cid)}, not this clip (${JSON.stringify(clip.id)})`);
  const frameIndex = r.integer(r.required(o, 'frameIndex', path), `${path}.frameIndex`, 0);
  if (frameIndex >= clip.frameCount) r.fail(`${path}.frameIndex`, `is ${frameIndex}, outside the clip's ${clip.frameCount} frames`);
  const flag: FlagDismissal = {
    clipId: clip.id,
    source: layerSource(r, r.required(o, 'source', path), `${path}.source`),
    flagId: r.nonEmptyString(r.required(o, 'flagId', path), `${path}.flagId`, 1000),
    kind: r.nonEmptyString(r.required(o, 'kind', path), `${path}.kind`, 200),
    frameIndex,
    reason: r.nonEmptyString(r.required(o, 'reason', path), `${path}.reason`, 2000),
    by: r.nonEmptyString(r.required(o, 'by', path), `${path}.by`, 1000),
    at: r.number(r.required(o, 'at', path), `${path}.at`),
  };
  const boxRaw = r.optional(o, 'box');
  if (boxRaw !== undefined) {
    const bp = `${path}.box`;
    const b = r.object(boxRaw, bp);
    strictFields(r, b, new Set(['x', 'y', 'w', 'h']), bp);
    const box = {
      x: r.integer(r.required(b, 'x', bp), `${bp}.x`, 0),
      y: r.integer(r.required(b, 'y', bp), `${bp}.y`, 0),
      w: r.integer(r.required(b, 'w', bp), `${bp}.w`, 1),
      h: r.integer(r.required(b, 'h', bp), `${bp}.h`, 1),
    };
    if (box.x + box.w > clip.width || box.y + box.h > clip.height) r.fail(bp, `${box.w}x${box.h} at (${box.x}, ${box.y}) is not inside the ${clip.width}x${clip.height} frame`);
    flag.box = box;
  }
  return flag;
}

/**
 * Frames and thumbnails are images: their MIME type and Blob type must say so (a Blob type is only
 * empty when the browser knew none). A "text/html" frame would be a page of this origin if its
 * object URL were ever opened.
 */
function imageType(r: JsonReader, type: string, path: string, mayBeEmpty: boolean): string {
  if (!(mayBeEmpty && type === '') && !/^image\/[a-z0-9.+-]+$/i.test(type)) r.fail(path, `is ${JSON.stringify(type)}, not an image type`);
  return type;
}

function blobRef(r: JsonReader, o: JsonObject, path: string): BlobRef {
  return {
    path: r.string(r.required(o, 'path', path), `${path}.path`, 300),
    bytes: r.integer(r.required(o, 'bytes', path), `${path}.bytes`, 0, Number.MAX_SAFE_INTEGER),
    blobType: r.string(r.required(o, 'blobType', path), `${path}.blobType`, 200),
  };
}

function parseClip(r: JsonReader, v: unknown, clipId: string, projectId: string): Clip {
  const p = 'clip';
  const o = r.object(v, p);
  strictFields(r, o, CLIP_FIELDS, p);
  const cid = id(r, r.required(o, 'id', p), `${p}.id`);
  if (cid !== clipId) r.fail(`${p}.id`, `is ${JSON.stringify(cid)} but the entry is for clip ${JSON.stringify(clipId)}`);
  const pid = r.string(r.required(o, 'projectId', p), `${p}.projectId`, 64);
  if (pid !== projectId) r.fail(`${p}.projectId`, `is ${JSON.stringify(pid)}, a project that is not in this bundle (${JSON.stringify(projectId)})`);
  const width = r.integer(r.required(o, 'width', p), `${p}.width`, 1, 8192);
  const height = r.integer(r.required(o, 'height', p), `${p}.height`, 1, 8192);
  storeCheck(r, p, () => assertSize(width, height));
  const sampleFps = r.number(r.required(o, 'sampleFps', p), `${p}.sampleFps`, 0, 1000);
  if (!(sampleFps > 0)) r.fail(`${p}.sampleFps`, 'must be positive');
  const src = r.object(r.required(o, 'source', p), `${p}.source`);
  strictFields(r, src, new Set(['kind', 'fileName', 'durationSec', 'videoCodec', 'video']), `${p}.source`);
  const source: Clip['source'] = {
    kind: r.oneOf(r.required(src, 'kind', `${p}.source`), `${p}.source.kind`, SOURCE_KINDS),
    fileName: r.string(r.required(src, 'fileName', `${p}.source`), `${p}.source.fileName`, 4096),
  };
  const duration = r.optional(src, 'durationSec');
  if (duration !== undefined) source.durationSec = r.number(duration, `${p}.source.durationSec`, 0);
  const codec = optionalString(r, src, 'videoCodec', `${p}.source`, 200);
  if (codec !== undefined) source.videoCodec = codec;
  // The reference travels with the clip; the video itself does not (the editor offers to link it).
  const video = r.optional(src, 'video');
  if (video !== undefined) {
    const problem = sourceVideoProblem(video);
    if (problem) r.fail(`${p}.source.video`, problem);
    source.video = { ...(video as SourceVideoRef) };
  }
  const oscO = r.object(r.required(o, 'osc', p), `${p}.osc`);
  strictFields(r, oscO, new Set(['verb', 'noun', 'actionable', 'transformed']), `${p}.osc`);
  const osc: Clip['osc'] = {
    verb: r.string(r.required(oscO, 'verb', `${p}.osc`), `${p}.osc.verb`, 200),
    noun: r.string(r.required(oscO, 'noun', `${p}.osc`), `${p}.osc.noun`, 200),
    actionable: r.string(r.required(oscO, 'actionable', `${p}.osc`), `${p}.osc.actionable`, 2000),
    transformed: r.string(r.required(oscO, 'transformed', `${p}.osc`), `${p}.osc.transformed`, 2000),
  };
  const clip: Clip = {
    id: cid,
    projectId: pid,
    name: r.nonEmptyString(r.required(o, 'name', p), `${p}.name`, 1000),
    createdAt: r.number(r.required(o, 'createdAt', p), `${p}.createdAt`),
    updatedAt: r.number(r.required(o, 'updatedAt', p), `${p}.updatedAt`),
    width,
    height,
    frameCount: r.integer(r.required(o, 'frameCount', p), `${p}.frameCount`, 1, 1_000_000),
    sampleFps,
    source,
    osc,
    subset: r.oneOf(r.required(o, 'subset', p), `${p}.subset`, ['seen', 'novel'] as const),
    status: r.oneOf(r.required(o, 'status', p), `${p}.status`, CLIP_STATUSES),
  };
  const assignee = optionalString(r, o, 'assignee', p, 200);
  if (assignee !== undefined) clip.assignee = assignee;
  return clip;
}

function parseFrame(r: JsonReader, v: unknown, path: string, clipId: string, index: number): Frame {
  const o = r.object(v, path);
  strictFields(r, o, FRAME_FIELDS, path);
  const cid = r.string(r.required(o, 'clipId', path), `${path}.clipId`, 64);
  if (cid !== clipId) r.fail(`${path}.clipId`, `is ${JSON.stringify(cid)}, not this clip (${JSON.stringify(clipId)})`);
  const i = r.integer(r.required(o, 'index', path), `${path}.index`, 0);
  if (i !== index) r.fail(`${path}.index`, `is ${i}; frames must be listed in order (expected ${index})`);
  const frame: Frame = { clipId, index, timestampSec: r.number(r.required(o, 'timestampSec', path), `${path}.timestampSec`, 0) };
  const name = r.optional(o, 'name');
  if (name !== undefined) {
    const n = r.nonEmptyString(name, `${path}.name`, 200);
    if (n !== n.trim()) r.fail(`${path}.name`, 'must not start or end with spaces');
    frame.name = n;
  }
  const phase = r.optional(o, 'phase');
  if (phase !== undefined) frame.phase = r.oneOf(phase, `${path}.phase`, PHASES);
  const ign = r.optional(o, 'ignored');
  if (ign !== undefined) {
    const ip = `${path}.ignored`;
    const io = r.object(ign, ip);
    strictFields(r, io, new Set(['reason', 'note', 'by', 'at']), ip);
    const ignored: FrameIgnored = { reason: r.oneOf(r.required(io, 'reason', ip), `${ip}.reason`, IGNORE_REASONS), at: r.number(r.required(io, 'at', ip), `${ip}.at`) };
    const note = optionalString(r, io, 'note', ip);
    if (note !== undefined) ignored.note = note;
    const by = optionalString(r, io, 'by', ip, 200);
    if (by !== undefined) ignored.by = by;
    frame.ignored = ignored;
  }
  const reviewed = r.optional(o, 'reviewed');
  if (reviewed !== undefined) frame.reviewed = r.boolean(reviewed, `${path}.reviewed`);
  return frame;
}

function parseProvenance(r: JsonReader, v: unknown, path: string): Provenance {
  const o = r.object(v, path);
  strictFields(r, o, new Set(['kind', 'by', 'at', 'from', 'confidence']), path);
  const p: Provenance = {
    kind: r.oneOf(r.required(o, 'kind', path), `${path}.kind`, PROVENANCE_KINDS),
    by: r.nonEmptyString(r.required(o, 'by', path), `${path}.by`, 1000),
    at: r.number(r.required(o, 'at', path), `${path}.at`),
  };
  const from = optionalString(r, o, 'from', path, 4096);
  if (from !== undefined) p.from = from;
  const confidence = r.optional(o, 'confidence');
  if (confidence !== undefined) p.confidence = r.number(confidence, `${path}.confidence`, 0, 1);
  return p;
}

function parseLayerRow(r: JsonReader, v: unknown, path: string, clip: Clip): Layer {
  const o = r.object(v, path);
  strictFields(r, o, LAYER_FIELDS, path);
  const cid = r.string(r.required(o, 'clipId', path), `${path}.clipId`, 64);
  if (cid !== clip.id) r.fail(`${path}.clipId`, `is ${JSON.stringify(cid)}, not this clip (${JSON.stringify(clip.id)})`);
  const frameIndex = r.integer(r.required(o, 'frameIndex', path), `${path}.frameIndex`, 0);
  if (frameIndex >= clip.frameCount) r.fail(`${path}.frameIndex`, `is ${frameIndex}, outside the clip's ${clip.frameCount} frames`);
  const source = layerSource(r, r.required(o, 'source', path), `${path}.source`);
  const act = rle(r, r.required(o, 'act', path), `${path}.act`);
  const trf = rle(r, r.required(o, 'trf', path), `${path}.trf`);
  const actArea = r.integer(r.required(o, 'actArea', path), `${path}.actArea`, 0);
  const trfArea = r.integer(r.required(o, 'trfArea', path), `${path}.trfArea`, 0);
  const realAct = storeCheck(r, `${path}.act`, () => maskArea(act, clip.height, clip.width, 'actionable mask'));
  const realTrf = storeCheck(r, `${path}.trf`, () => maskArea(trf, clip.height, clip.width, 'transformed mask'));
  if (realAct !== actArea) r.fail(`${path}.actArea`, `is ${actArea} but the actionable RLE has ${realAct} pixels`);
  if (realTrf !== trfArea) r.fail(`${path}.trfArea`, `is ${trfArea} but the transformed RLE has ${realTrf} pixels`);
  const layer: Layer = {
    clipId: clip.id,
    frameIndex,
    source,
    act,
    trf,
    provenance: parseProvenance(r, r.required(o, 'provenance', path), `${path}.provenance`),
    updatedAt: r.number(r.required(o, 'updatedAt', path), `${path}.updatedAt`),
    actArea,
    trfArea,
  };
  // Opaque to the store; kept exactly as it was (it is plain JSON by construction).
  if (hasOwn(o, 'instances') && o.instances !== undefined) layer.instances = o.instances;
  return layer;
}

// ---------------------------------------------------------------- revisions.json

const REVISION_FIELDS = new Set(['seq', 'clipId', 'frameIndex', 'source', 'author', 'at', 'action', 'box', 'before', 'after', 'beforeTrf', 'afterTrf']);

/** Reads clips/<clipId>/revisions.json: the clip's history in ascending `seq`. */
export function parseRevisionsJson(bytes: Uint8Array, bundleName: string, entry: string, clip: Clip): RevisionsJson {
  const r = reader(bundleName, entry);
  const doc = r.object(parse(bytes, bundleName, entry), '');
  strictFields(r, doc, new Set(['revisions']), '');
  let lastSeq = 0;
  const revisions = r.array(r.required(doc, 'revisions', ''), 'revisions').map((v, i): Revision => {
    const path = `revisions[${i}]`;
    const o = r.object(v, path);
    strictFields(r, o, REVISION_FIELDS, path);
    const seq = r.integer(r.required(o, 'seq', path), `${path}.seq`, 1);
    if (seq <= lastSeq) r.fail(`${path}.seq`, `is ${seq}; revisions must be in ascending seq order (previous ${lastSeq})`);
    lastSeq = seq;
    const cid = r.string(r.required(o, 'clipId', path), `${path}.clipId`, 64);
    if (cid !== clip.id) r.fail(`${path}.clipId`, `is ${JSON.stringify(cid)}, not this clip (${JSON.stringify(clip.id)})`);
    const boxO = r.object(r.required(o, 'box', path), `${path}.box`);
    strictFields(r, boxO, new Set(['x', 'y', 'w', 'h']), `${path}.box`);
    const box = {
      x: r.integer(r.required(boxO, 'x', `${path}.box`), `${path}.box.x`),
      y: r.integer(r.required(boxO, 'y', `${path}.box`), `${path}.box.y`),
      w: r.integer(r.required(boxO, 'w', `${path}.box`), `${path}.box.w`),
      h: r.integer(r.required(boxO, 'h', `${path}.box`), `${path}.box.h`),
    };
    const rev: Revision = {
      seq,
      clipId: clip.id,
      frameIndex: r.integer(r.required(o, 'frameIndex', path), `${path}.frameIndex`, 0),
      source: layerSource(r, r.required(o, 'source', path), `${path}.source`),
      author: r.string(r.required(o, 'author', path), `${path}.author`, 1000),
      at: r.number(r.required(o, 'at', path), `${path}.at`),
      action: r.string(r.required(o, 'action', path), `${path}.action`, 1000),
      box,
      before: rle(r, r.required(o, 'before', path), `${path}.before`),
      after: rle(r, r.required(o, 'after', path), `${path}.after`),
    };
    const beforeTrf = r.optional(o, 'beforeTrf');
    if (beforeTrf !== undefined) rev.beforeTrf = rle(r, beforeTrf, `${path}.beforeTrf`);
    const afterTrf = r.optional(o, 'afterTrf');
    if (afterTrf !== undefined) rev.afterTrf = rle(r, afterTrf, `${path}.afterTrf`);
    storeCheck(r, path, () => checkRevision(rev, clip));
    return rev;
  });
  return { revisions };
}
