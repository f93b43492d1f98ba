/**
 * The JSON entries of a bundle: their shapes, and strict reading of them back into store rows.
 * Every row passes the store's own validator for its type (store/records) as a stored row: every
 * field type-checked, unknown fields refused, mask sizes, areas that match their RLE, revision boxes
 * inside the frame, known sources and provenance, because bundle rows are written as they are.
 * What only the whole entry can tell (order, duplicates, threads, ids of the bundle, the objects a
 * layer or revision names) is checked here.
 * Messages are "<bundle>: <entry>: <json path> <problem>".
 */
import {
  checkClip,
  checkClipEvent,
  checkClipObject,
  checkComment,
  checkFlagDismissal,
  checkFrame,
  checkFrameVerdict,
  checkLayer,
  checkProject,
  checkRevision,
} from '../../store/records';
import type { Clip, ClipComment, ClipEvent, ClipObject, FlagDismissal, Frame, FrameVerdict, Layer, LayerRelation, MetaEntry, Project, Revision } from '../../store/types';
import { newRowId } from '../../store/ids';
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
  /** Format v2: the clip's lifecycle log in seq order, without the store-local seq (absent in v1 bundles); ids from v4. */
  clipEvents: BundleClipEvent[];
  /** Format v2: every comment of the clip, roots and replies, by frame, time and id (absent in v1 bundles). */
  comments: ClipComment[];
  /** Format v3: the per-frame verdict log in seq order, without the store-local seq (absent in v1 and v2 bundles); ids from v4. */
  frameVerdicts: BundleFrameVerdict[];
  /** Format v5: the clip's objects, removed ones included, by number then id (absent in v1–v4 bundles). */
  objects: ClipObject[];
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

function reader(bundleName: string, entry: string): JsonReader {
  return new JsonReader(`${bundleName}: ${entry}`);
}

function parse(bytes: Uint8Array, bundleName: string, entry: string): unknown {
  return parseJsonText(bytes, `${bundleName}: ${entry}`, MAX_JSON_ENTRY_BYTES);
}

function id(r: JsonReader, v: unknown, path: string): string {
  const s = r.string(v, path, 64);
  if (!ID_PATTERN.test(s)) r.fail(path, `${JSON.stringify(s)} is not a valid id`);
  return s;
}

// ---------------------------------------------------------------- project.json

/** Reads project.json; the label schema (`labels`) came with format v5. */
export function parseProjectJson(bytes: Uint8Array, bundleName: string, entry: string, formatVersion: number): ProjectJson {
  const r = reader(bundleName, entry);
  const doc = r.object(parse(bytes, bundleName, entry), '');
  strictFields(r, doc, new Set(['project']), '');
  const raw = doc.project;
  if (formatVersion < 5 && typeof raw === 'object' && raw !== null && hasOwn(raw as JsonObject, 'labels')) {
    r.fail('project', `has unknown field "labels" (bundle format v${formatVersion} projects have no label schema)`);
  }
  const project = checkProject(r, r.required(doc, 'project', ''), 'project', 'stored');
  id(r, project.id, 'project.id');
  return { project };
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

const IMAGE_FIELDS = new Set(['index', 'mime', 'width', 'height', 'path', 'bytes', 'blobType']);
/**
 * Reads clips/<clipId>/clip.json. `clipId` comes from the entry path and `projectId` from the
 * manifest: rows naming any other clip or project are refused ("rows referencing unknown clips").
 */
const CLIP_JSON_FIELDS_V1 = ['clip', 'frames', 'frameImages', 'thumbnail', 'layers', 'reviewFlags'];
const CLIP_JSON_FIELDS_V2 = [...CLIP_JSON_FIELDS_V1, 'clipEvents', 'comments'];
const CLIP_JSON_FIELDS_V3 = [...CLIP_JSON_FIELDS_V2, 'frameVerdicts'];
const CLIP_JSON_FIELDS_V5 = [...CLIP_JSON_FIELDS_V3, 'objects'];

function clipJsonFields(formatVersion: number): string[] {
  return formatVersion >= 5 ? CLIP_JSON_FIELDS_V5 : formatVersion >= 3 ? CLIP_JSON_FIELDS_V3 : formatVersion === 2 ? CLIP_JSON_FIELDS_V2 : CLIP_JSON_FIELDS_V1;
}

/**
 * Reads clips/<clipId>/clip.json of a bundle of `formatVersion` (format.ts): v1 has no `clipEvents`
 * or `comments` (they read as empty), v2 requires both; v3 adds `frameVerdicts`, v5 `objects`.
 */
export function parseClipJson(bytes: Uint8Array, bundleName: string, entry: string, clipId: string, projectId: string, formatVersion: number): ClipJson {
  const r = reader(bundleName, entry);
  const doc = r.object(parse(bytes, bundleName, entry), '');
  const fields = clipJsonFields(formatVersion);
  if (formatVersion < 5 && hasOwn(doc, 'objects')) r.fail('', `has unknown field "objects" (bundle format v${formatVersion} clips have no objects)`);
  strictFields(r, doc, new Set(fields), '');
  const clip = parseClip(r, r.required(doc, 'clip', ''), clipId, projectId);
  // Objects first: the layers below must name only these.
  const objects = formatVersion >= 5 ? parseObjects(r, r.required(doc, 'objects', ''), clip) : [];
  const objectIds = new Set(objects.map((o) => o.id));
  const n = clip.frameCount;

  const framesRaw = r.array(r.required(doc, 'frames', ''), 'frames', n);
  if (framesRaw.length !== n) r.fail('frames', `has ${framesRaw.length} rows but the clip has ${n} frames`);
  const frames = framesRaw.map((v, i): Frame => {
    const frame = checkFrame(r, v, `frames[${i}]`, clipId, 'stored');
    if (frame.index !== i) r.fail(`frames[${i}].index`, `is ${frame.index}; frames must be listed in order (expected ${i})`);
    return frame;
  });
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
    const layer = checkLayer(r, v, `layers[${i}]`, clip, 'stored');
    namesKnownObjects(r, layer.objects, `layers[${i}].objects`, objectIds);
    const key = `${layer.source}\u0000${layer.frameIndex}`;
    if (seen.has(key)) r.fail(`layers[${i}]`, `is a second ${layer.source} layer for frame ${layer.frameIndex}`);
    seen.add(key);
    return layer;
  });
  const flagsRaw = r.optional(doc, 'reviewFlags');
  const flagKeys = new Set<string>();
  const reviewFlags = (flagsRaw === undefined ? [] : r.array(flagsRaw, 'reviewFlags', 1_000_000)).map((v, i) => {
    const flag = checkFlagDismissal(r, v, `reviewFlags[${i}]`, clip, 'stored');
    const key = `${flag.source}\u0000${flag.flagId}`;
    if (flagKeys.has(key)) r.fail(`reviewFlags[${i}]`, `dismisses flag ${JSON.stringify(flag.flagId)} of ${flag.source} a second time`);
    flagKeys.add(key);
    return flag;
  });
  const clipEvents = formatVersion >= 2 ? uniqueIds(r, r.array(r.required(doc, 'clipEvents', ''), 'clipEvents', 1_000_000).map((v, i) => checkClipEvent(r, withId(r, v, `clipEvents[${i}]`, formatVersion), `clipEvents[${i}]`, clip, 'stored')), 'clipEvents') : [];
  const comments = formatVersion >= 2 ? parseComments(r, r.required(doc, 'comments', ''), clip) : [];
  const frameVerdicts =
    formatVersion >= 3
      ? uniqueIds(r, r.array(r.required(doc, 'frameVerdicts', ''), 'frameVerdicts', 1_000_000).map((v, i) => checkFrameVerdict(r, withId(r, v, `frameVerdicts[${i}]`, formatVersion), `frameVerdicts[${i}]`, clip, 'stored')), 'frameVerdicts')
      : [];
  return { clip, frames, frameImages, thumbnail, layers, reviewFlags, clipEvents, comments, frameVerdicts, objects };
}

/** A clip's objects (format v5): every row checked as the store keeps it, ids valid and unique in the clip. */
function parseObjects(r: JsonReader, v: unknown, clip: Clip): ClipObject[] {
  const seen = new Set<string>();
  return r.array(v, 'objects', 1_000_000).map((item, i): ClipObject => {
    const path = `objects[${i}]`;
    const o = checkClipObject(r, item, path, clip, 'stored');
    id(r, o.id, `${path}.id`);
    if (seen.has(o.id)) r.fail(`${path}.id`, `${JSON.stringify(o.id)} is the id of another object of this clip too`);
    seen.add(o.id);
    return o;
  });
}

/**
 * The objects a layer or a revision names must be objects of its clip (clip.json `objects`): a
 * mask owned by an object the bundle does not carry would have no identity, class or name here.
 */
function namesKnownObjects(r: JsonReader, objects: readonly { id: string }[] | undefined, path: string, known: ReadonlySet<string>): void {
  objects?.forEach((o, k) => {
    if (!known.has(o.id)) r.fail(`${path}[${k}].id`, `${JSON.stringify(o.id)} is not an object of this clip (clip.json objects)`);
  });
}

/** A revision's relations name objects of the clip (both ends), as its owners do. */
function relationsNameKnownObjects(r: JsonReader, relations: readonly LayerRelation[] | undefined, path: string, known: ReadonlySet<string>): void {
  relations?.forEach((rel, k) => {
    if (!known.has(rel.subjectId)) r.fail(`${path}[${k}].subjectId`, `${JSON.stringify(rel.subjectId)} is not an object of this clip (clip.json objects)`);
    if (rel.objectId !== undefined && !known.has(rel.objectId)) r.fail(`${path}[${k}].objectId`, `${JSON.stringify(rel.objectId)} is not an object of this clip (clip.json objects)`);
  });
}

/**
 * Comments of a clip: ids unique, frames inside the clip, points inside the frame, and every reply's
 * `parentId` naming a root comment (threads are one level deep) of this clip on the same frame.
 */
function parseComments(r: JsonReader, v: unknown, clip: Clip): ClipComment[] {
  const comments = r.array(v, 'comments', 1_000_000).map((item, i): ClipComment => {
    const path = `comments[${i}]`;
    const c = checkComment(r, item, path, clip, 'stored');
    id(r, c.id, `${path}.id`);
    if (c.parentId !== undefined) id(r, c.parentId, `${path}.parentId`);
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
  const cid = id(r, r.required(o, 'id', p), `${p}.id`);
  if (cid !== clipId) r.fail(`${p}.id`, `is ${JSON.stringify(cid)} but the entry is for clip ${JSON.stringify(clipId)}`);
  const pid = r.string(r.required(o, 'projectId', p), `${p}.projectId`, 64);
  if (pid !== projectId) r.fail(`${p}.projectId`, `is ${JSON.stringify(pid)}, a project that is not in this bundle (${JSON.stringify(projectId)})`);
  return checkClip(r, o, p, 'stored');
}

// ---------------------------------------------------------------- revisions.json

/**
 * Reads clips/<clipId>/revisions.json: the clip's history in ascending `seq`. `objectIds` are the
 * clip's objects (clip.json): the owners a revision records must be among them.
 */
export function parseRevisionsJson(bytes: Uint8Array, bundleName: string, entry: string, clip: Clip, formatVersion: number, objectIds: ReadonlySet<string>): RevisionsJson {
  const r = reader(bundleName, entry);
  const doc = r.object(parse(bytes, bundleName, entry), '');
  strictFields(r, doc, new Set(['revisions']), '');
  let lastSeq = 0;
  const revisions = r.array(r.required(doc, 'revisions', ''), 'revisions').map((v, i): Revision => {
    const rev = checkRevision(r, withId(r, v, `revisions[${i}]`, formatVersion), `revisions[${i}]`, clip, 'stored');
    namesKnownObjects(r, rev.objectsBefore, `revisions[${i}].objectsBefore`, objectIds);
    namesKnownObjects(r, rev.objectsAfter, `revisions[${i}].objectsAfter`, objectIds);
    relationsNameKnownObjects(r, rev.relationsBefore, `revisions[${i}].relationsBefore`, objectIds);
    relationsNameKnownObjects(r, rev.relationsAfter, `revisions[${i}].relationsAfter`, objectIds);
    if (rev.seq <= lastSeq) r.fail(`revisions[${i}].seq`, `is ${rev.seq}; revisions must be in ascending seq order (previous ${lastSeq})`);
    lastSeq = rev.seq;
    return rev;
  });
  return { revisions: uniqueIds(r, revisions, 'revisions') };
}

// ---------------------------------------------------------------- ids of log rows (format v4)

/**
 * A log row as the store keeps it: from format v4 it carries its id (the validator requires it);
 * a row of an older bundle must not, and gets a new one here, in list order, so ids sort as the log
 * does and the rest of the import sees whole rows (docs/sync.md "Row identity").
 */
function withId(r: JsonReader, v: unknown, path: string, formatVersion: number): unknown {
  if (formatVersion >= 4) return v;
  const o = r.object(v, path);
  if (hasOwn(o, 'id')) r.fail(path, `has unknown field "id" (bundle format v${formatVersion} rows have no ids)`);
  return { ...o, id: newRowId() };
}

/** No two rows of one log share an id: each id names one row. */
function uniqueIds<T extends { id: string }>(r: JsonReader, rows: T[], list: string): T[] {
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    if (seen.has(row.id)) r.fail(`${list}[${i}].id`, `${JSON.stringify(row.id)} is the id of another row too`);
    seen.add(row.id);
  });
  return rows;
}
