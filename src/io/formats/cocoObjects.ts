/**
 * COCO JSON for objects projects (docs/formats.md "COCO", objects): one category per class of the
 * schema (id: VISOR's number for the class — "12" is 12, the hands 300/301/303/304, others from 1000
 * up — name the class's, supercategory its macro-class's name or "object"), one annotation per
 * (frame, object) with `track_id` (one per object, unique in the file, as video datasets such as
 * TAO and YouTube-VIS number tracks) and our object's id in `spoc_object_id`. pycocotools reads it
 * as it is (COCO(), annToMask); an object without pixels on a frame (occluded) has area 0.
 *
 * Extensions for a lossless round trip: `spoc.kind: "objects"`; `spoc_classes` (the schema's
 * classes); `spoc_objects` ([{track_id, video_id, id, number, name, category_id?, attributes?}]);
 * on categories `spoc_class_id`; on annotations `spoc_presence`, `spoc_keyframe`,
 * `spoc_exhaustive`, `spoc_provenance`; on images `spoc_relations`
 * ([{type, subject_id, answer, object_id?}], object ids). Videos and images carry what the states
 * export writes (cocoExport.ts).
 *
 * Import reads ours and COCO from other tools: objects by `spoc_object_id`, else by `track_id`
 * within a video, else one object per annotation; classes from `spoc_classes`, else one per
 * category (macro-classes from supercategories). Annotations of one image that overlap give the
 * shared pixels to the later one (one owner per pixel), with a warning.
 */
import { MaskFormatError } from '../../masks/errors';
import { rleFromCounts, type CocoRle } from '../../masks/rle';
import { rleArea, rleToBbox } from '../../masks/rleOps';
import { handClasses, type LabelClass } from '../../objects/labelSchema';
import { CONTACT_ANSWERS, PRESENCES, RELATION_TYPES, type LayerSource } from '../../store/types';
import { PROVENANCE_KINDS } from '../../store/records/layer';
import { segmentationCounts } from './cocoSegmentation';
import { COCO_FORMAT, COCO_VERSION, type CocoRleJson } from './cocoExport';
import { at, JsonReader, UnknownFieldTally, type JsonObject } from './json';
import {
  checkClipAnnotations,
  sourceMasks,
  sourceObjects,
  type ClipAnnotations,
  type FrameObject,
  type FrameObjects,
  type FrameRelation,
  type ObjectMeta,
  type ObjectProvenance,
  type SourceMasks,
  type SourceObjects,
} from './model';
import { ownersLaterWins, unionOfObjects } from './objectModel';
import { canonicalClasses, readDeclaredClasses, visorClassNumbers, VISOR_HAND_CLASSES } from './visorObjects';
import type { CocoImportOptions } from './cocoImport';
import type { ImportResult, ClipMeta, FrameMeta } from './model';

export interface CocoObjectAnnotationJson {
  id: number;
  image_id: number;
  category_id: number;
  segmentation: CocoRleJson;
  area: number;
  bbox: [number, number, number, number];
  iscrowd: 0;
  track_id: number;
  spoc_object_id: string;
  spoc_presence?: string;
  spoc_keyframe?: true;
  spoc_exhaustive?: true;
  spoc_provenance?: ObjectProvenance;
}

export interface CocoObjectsJson {
  info: { description: string; version: string };
  licenses: [];
  spoc: { format: string; version: number; source: LayerSource; kind: 'objects' };
  videos: Record<string, unknown>[];
  images: Record<string, unknown>[];
  annotations: CocoObjectAnnotationJson[];
  categories: { id: number; name: string; supercategory: string; spoc_class_id?: string }[];
  spoc_classes: LabelClass[];
  spoc_objects: { track_id: number; video_id: number; id: string; number: number; name: string; category_id?: number; attributes?: Record<string, boolean | string> }[];
}

export function exportCocoObjects(clips: readonly ClipAnnotations[], options: { source?: LayerSource; imageExtension?: string; description?: string } = {}): CocoObjectsJson {
  const source = options.source ?? 'gt';
  const ext = options.imageExtension ?? 'jpg';
  const classes = new Map<string, LabelClass>();
  for (const a of clips) for (const c of a.labels?.classes ?? []) if (!classes.has(c.id)) classes.set(c.id, c);
  const classList = canonicalClasses([...classes.values()], clips[0]?.clip.name ?? '');
  const numbers = visorClassNumbers(classList);
  const byId = new Map(classList.map((c) => [c.id, c]));
  const ds: CocoObjectsJson = {
    info: { description: options.description ?? 'SPOC Studio export', version: String(COCO_VERSION) },
    licenses: [],
    spoc: { format: COCO_FORMAT, version: COCO_VERSION, source, kind: 'objects' },
    videos: [],
    images: [],
    annotations: [],
    categories: classList.map((c) => ({ id: numbers.get(c.id)!, name: c.name, supercategory: (c.parentId && byId.get(c.parentId)?.name) || 'object', spoc_class_id: c.id })),
    spoc_classes: classList,
    spoc_objects: [],
  };
  let unclassified: number | undefined;
  const categoryOf = (classId: string | undefined): number => {
    if (classId !== undefined) return numbers.get(classId)!;
    if (unclassified === undefined) {
      unclassified = Math.max(0, ...ds.categories.map((c) => c.id)) + 1;
      ds.categories.push({ id: unclassified, name: 'unclassified', supercategory: 'object' });
    }
    return unclassified;
  };
  const names = new Set<string>();
  clips.forEach((a, v) => {
    checkClipAnnotations(a);
    const { clip } = a;
    if (names.has(clip.name)) throw new RangeError(`two clips are named "${clip.name}"; COCO image names "<video>/<frame>" would collide`);
    names.add(clip.name);
    const videoId = v + 1;
    ds.videos.push({ id: videoId, name: clip.name, width: clip.width, height: clip.height, fps: clip.fps, verb: clip.osc?.verb, noun: clip.osc?.noun, subset: clip.subset });
    const tracks = new Map<string, number>();
    for (const o of a.objects ?? []) {
      const track = ds.spoc_objects.length + 1;
      tracks.set(o.id, track);
      ds.spoc_objects.push({
        track_id: track,
        video_id: videoId,
        id: o.id,
        number: o.number,
        name: o.name,
        ...(o.classId !== undefined ? { category_id: categoryOf(o.classId) } : {}),
        ...(o.attributes ? { attributes: o.attributes } : {}),
      });
    }
    const metaOf = new Map((a.objects ?? []).map((o) => [o.id, o]));
    const masks = sourceMasks(a, source);
    const frames = sourceObjects(a, source);
    a.frames.forEach((f, k) => {
      const imageId = ds.images.length + 1;
      const annotated = masks.has(k);
      const frame = frames.get(k);
      ds.images.push({
        id: imageId,
        file_name: `${clip.name}/${f.name}.${ext}`,
        width: clip.width,
        height: clip.height,
        video_id: videoId,
        video: clip.name,
        frame: f.name,
        frame_index: k,
        timestamp_sec: f.timestampSec,
        phase: f.phase,
        ignored: f.ignored && { reason: f.ignored.reason, note: f.ignored.note, by: f.ignored.by, at: f.ignored.at },
        reviewed: f.reviewed,
        annotated: annotated ? undefined : false,
        spoc_relations:
          annotated && frame && frame.relations.length > 0
            ? frame.relations.map((r) => ({ type: r.type, subject_id: r.subjectId, answer: r.answer, object_id: r.objectId, provenance: r.provenance }))
            : undefined,
      });
      if (!annotated || !frame) return;
      for (const o of frame.objects) {
        const rle = o.rle as CocoRle;
        ds.annotations.push({
          id: ds.annotations.length + 1,
          image_id: imageId,
          category_id: categoryOf(metaOf.get(o.id)!.classId),
          segmentation: { size: [rle.size[0], rle.size[1]], counts: rle.counts },
          area: rleArea(rle),
          bbox: rleToBbox(rle),
          iscrowd: 0,
          track_id: tracks.get(o.id)!,
          spoc_object_id: o.id,
          ...(o.presence !== undefined ? { spoc_presence: o.presence } : {}),
          ...(o.keyframe ? { spoc_keyframe: true as const } : {}),
          ...(o.exhaustive ? { spoc_exhaustive: true as const } : {}),
          ...(o.provenance ? { spoc_provenance: o.provenance } : {}),
        });
      }
    });
  });
  return ds;
}

/** What the objects import needs from cocoImport.ts's readers (passed in to avoid an import cycle). */
export interface CocoImageLike {
  id: number | string;
  path: string;
  clipKey: string;
  width: number;
  height: number;
  frame: FrameMeta;
  annotated: boolean;
}

interface ReadAnnotation {
  path: string;
  key: string;
  counts: Uint32Array;
  categoryId: number;
  presence?: FrameObject['presence'];
  keyframe: boolean;
  exhaustive: boolean;
  provenance?: ObjectProvenance;
}

export const COCO_OBJECT_ANNOTATION_KEYS = new Set([
  'id',
  'image_id',
  'category_id',
  'segmentation',
  'area',
  'bbox',
  'iscrowd',
  'track_id',
  'instance_id',
  'spoc_object_id',
  'spoc_presence',
  'spoc_keyframe',
  'spoc_exhaustive',
  'spoc_provenance',
  'score',
]);
const CATEGORY_KEYS = new Set(['id', 'name', 'supercategory', 'spoc_class_id', 'keypoints', 'skeleton']);
const MAX_ENTRIES = 10_000_000;
const MAX_OBJECTS = 0xffff;

/** Categories: id -> class id, plus the classes a file without spoc_classes implies. */
function readCategories(r: JsonReader, doc: JsonObject): { classOf: Map<number, string | undefined>; derived: LabelClass[] } {
  const list = r.array(r.required(doc, 'categories', ''), 'categories', 100_000);
  const tally = new UnknownFieldTally(CATEGORY_KEYS);
  const classOf = new Map<number, string | undefined>();
  const hands = new Map(handClasses().map((c) => [c.id, c]));
  const derived: LabelClass[] = [];
  const names = new Set<string>();
  const supers: [LabelClass, string][] = [];
  list.forEach((raw, i) => {
    const path = at('categories', i);
    const c = r.object(raw, path);
    tally.add(c);
    const id = r.integer(r.required(c, 'id', path), at(path, 'id'));
    if (classOf.has(id)) r.fail(at(path, 'id'), `${id} is used by two categories`);
    const name = r.nonEmptyString(r.required(c, 'name', path), at(path, 'name'), 200).trim();
    const own = r.optional(c, 'spoc_class_id');
    const classId = own !== undefined ? r.nonEmptyString(own, at(path, 'spoc_class_id'), 200) : (VISOR_HAND_CLASSES.find(([n]) => n === id)?.[1] ?? String(id));
    classOf.set(id, own === undefined && name === 'unclassified' && doc.spoc !== undefined ? undefined : classId);
    if (names.has(name.toLowerCase())) r.fail(at(path, 'name'), `"${name}" names two categories`);
    names.add(name.toLowerCase());
    const cls = hands.get(classId) ?? { id: classId, name, colour: PALETTE[derived.length % PALETTE.length], attributes: [] };
    derived.push(cls);
    const sup = r.optional(c, 'supercategory');
    if (sup !== undefined) {
      const s = r.string(sup, at(path, 'supercategory'), 200).trim();
      if (s && s.toLowerCase() !== name.toLowerCase() && s !== 'object') supers.push([cls, s]);
    }
  });
  tally.report(r, 'categories');
  // A supercategory is the class of that name, or a macro-class of its own.
  for (const [cls, s] of supers) {
    let parent = derived.find((c) => c.name.toLowerCase() === s.toLowerCase());
    if (!parent) {
      parent = { id: `macro:${s}`, name: s, colour: '#808080', attributes: [] };
      derived.push(parent);
    }
    if (parent !== cls && !hands.has(cls.id)) cls.parentId = parent.id;
  }
  return { classOf, derived };
}

const PALETTE = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#bfef45', '#469990', '#9a6324', '#800000', '#808000'];

/**
 * The objects half of importCoco: `images` and `ordered` come from cocoImport.ts's readers (image
 * id -> entry; per clip its frames in order), so grouping, frame names and metadata are one code.
 */
export function importCocoObjectsDoc(
  r: JsonReader,
  doc: JsonObject,
  images: Map<number | string, CocoImageLike>,
  clips: { meta: ClipMeta; ordered: CocoImageLike[] }[],
  /** Video id (of `videos`) -> clip name, to place spoc_objects in their clips. */
  videoKeys: Map<number | string, string>,
  source: LayerSource,
  options: CocoImportOptions,
): ImportResult {
  const declaredClasses = readDeclaredClasses(r, doc);
  const { classOf, derived } = readCategories(r, doc);
  const declared = readSpocObjects(r, doc, classOf);
  const perImage = new Map<number | string, ReadAnnotation[]>();
  const ids = new Set<number | string>();
  const tally = new UnknownFieldTally(COCO_OBJECT_ANNOTATION_KEYS);
  r.array(r.required(doc, 'annotations', ''), 'annotations', MAX_ENTRIES).forEach((raw, i) => {
    const path = at('annotations', i);
    const o = r.object(raw, path);
    tally.add(o);
    const id = readId(r, r.required(o, 'id', path), at(path, 'id'));
    if (ids.has(id)) r.fail(at(path, 'id'), `${JSON.stringify(id)} is used by two annotations`);
    ids.add(id);
    const imageId = readId(r, r.required(o, 'image_id', path), at(path, 'image_id'));
    const image = images.get(imageId);
    if (!image) return r.fail(at(path, 'image_id'), `${JSON.stringify(imageId)} is not the id of an image`);
    const categoryId = r.integer(r.required(o, 'category_id', path), at(path, 'category_id'));
    if (!classOf.has(categoryId)) r.fail(at(path, 'category_id'), `${categoryId} is not the id of a category`);
    const iscrowd = r.optional(o, 'iscrowd');
    if (iscrowd !== undefined && iscrowd !== 0 && iscrowd !== 1) r.fail(at(path, 'iscrowd'), `must be 0 or 1, got ${JSON.stringify(iscrowd)}`);
    const counts = segmentationCounts(r, r.required(o, 'segmentation', path), at(path, 'segmentation'), image);
    let key: string;
    const own = r.optional(o, 'spoc_object_id');
    const track = r.optional(o, 'track_id');
    if (own !== undefined) {
      key = r.nonEmptyString(own, at(path, 'spoc_object_id'), 64);
      if (declared && !declared.has(key)) r.fail(at(path, 'spoc_object_id'), `names object ${key}, which spoc_objects does not list`);
    } else if (track !== undefined) {
      key = `track\n${String(readId(r, track, at(path, 'track_id')))}`;
    } else {
      key = `annotation\n${String(id)}`;
    }
    const a: ReadAnnotation = { path, key, counts, categoryId, keyframe: false, exhaustive: false };
    const presence = r.optional(o, 'spoc_presence');
    if (presence !== undefined) a.presence = r.oneOf(presence, at(path, 'spoc_presence'), PRESENCES);
    for (const flag of ['keyframe', 'exhaustive'] as const) {
      const v = r.optional(o, `spoc_${flag}`);
      if (v !== undefined) a[flag] = r.boolean(v, at(path, `spoc_${flag}`));
    }
    const provenance = r.optional(o, 'spoc_provenance');
    if (provenance !== undefined) a.provenance = readProvenance(r, provenance, at(path, 'spoc_provenance'));
    let list = perImage.get(imageId);
    if (!list) perImage.set(imageId, (list = []));
    if (list.some((x) => x.key === key)) r.fail(path, `is a second annotation of object ${key.replace('\n', ' ')} on image ${JSON.stringify(imageId)}`);
    list.push(a);
  });
  tally.report(r, 'annotations');

  const result: ImportResult = { clips: [], warnings: r.warnings };
  const relationsRaw = new Map<number | string, { raw: unknown; path: string }>();
  r.array(r.required(doc, 'images', ''), 'images').forEach((raw, i) => {
    const o = raw as JsonObject;
    if (o.spoc_relations !== undefined) relationsRaw.set(readId(r, o.id, at(at('images', i), 'id')), { raw: o.spoc_relations, path: at(at('images', i), 'spoc_relations') });
  });
  let overlapPixels = 0;
  let overlapImages = 0;
  for (const clip of clips) {
    const { width: w, height: h } = clip.meta;
    const n = w * h;
    const objects = new Map<string, ObjectMeta>();
    if (declared) for (const [id, d] of declared) if (videoKeys.get(d.videoId) === clip.meta.name) objects.set(id, d.meta);
    const masks: SourceMasks = new Map();
    const frames: SourceObjects = new Map();
    clip.ordered.forEach((img, k) => {
      const list = perImage.get(img.id) ?? [];
      if (!img.annotated && list.length === 0) return;
      for (const a of list) {
        if (objects.has(a.key)) continue;
        if (objects.size >= MAX_OBJECTS) r.fail(a.path, `is object ${objects.size + 1} of video "${clip.meta.name}"; at most ${MAX_OBJECTS}`);
        const number = Math.max(0, ...[...objects.values()].map((o) => o.number)) + 1;
        const classId = classOf.get(a.categoryId);
        const category = derived.find((c) => c.id === classId);
        objects.set(a.key, { id: options.newId ? options.newId() : crypto.randomUUID(), number, name: `${category?.name ?? 'object'} ${number}`, ...(classId !== undefined ? { classId } : {}) });
      }
      let owned: Uint32Array[];
      try {
        const resolved = ownersLaterWins(
          list.map((a) => a.counts),
          n,
        );
        owned = resolved.owned;
        if (resolved.overlap > 0) {
          overlapPixels += resolved.overlap;
          overlapImages++;
        }
      } catch (err) {
        if (err instanceof MaskFormatError) r.fail(img.path, err.problem);
        throw err;
      }
      const frame: FrameObjects = {
        objects: list.map((a, i) => {
          const out: FrameObject = { id: objects.get(a.key)!.id, rle: rleFromCounts(owned[i], h, w) };
          if (a.presence !== undefined) out.presence = a.presence;
          if (a.keyframe) out.keyframe = true;
          if (a.exhaustive) out.exhaustive = true;
          if (a.provenance) out.provenance = a.provenance;
          return out;
        }),
        relations: readRelations(r, relationsRaw.get(img.id), new Set(list.map((a) => objects.get(a.key)!.id))),
      };
      masks.set(k, { act: unionOfObjects(frame.objects, h, w), trf: rleFromCounts([n], h, w) });
      if (frame.objects.length > 0 || frame.relations.length > 0) frames.set(k, frame);
    });
    result.clips.push({
      annotations: {
        clip: clip.meta,
        frames: clip.ordered.map((i) => i.frame),
        sources: new Map([[source, masks]]),
        labels: { kind: 'objects', classes: declaredClasses ?? derived },
        objects: [...objects.values()].sort((x, y) => x.number - y.number),
        objectMasks: new Map([[source, frames]]),
      },
    });
  }
  if (overlapImages > 0) r.warn('', `${overlapPixels} pixels on ${overlapImages} image(s) were in two annotations; the later annotation in the file keeps them`);
  return result;
}

function readSpocObjects(r: JsonReader, doc: JsonObject, classOf: Map<number, string | undefined>): Map<string, { meta: ObjectMeta; videoId: number | string }> | null {
  const raw = r.optional(doc, 'spoc_objects');
  if (raw === undefined) return null;
  const out = new Map<string, { meta: ObjectMeta; videoId: number | string }>();
  const numbers = new Set<string>();
  r.array(raw, 'spoc_objects', MAX_ENTRIES).forEach((item, i) => {
    const p = at('spoc_objects', i);
    const o = r.object(item, p);
    const id = r.nonEmptyString(r.required(o, 'id', p), at(p, 'id'), 64);
    if (out.has(id)) r.fail(at(p, 'id'), `${id} is listed twice`);
    const videoId = readId(r, r.required(o, 'video_id', p), at(p, 'video_id'));
    const number = r.integer(r.required(o, 'number', p), at(p, 'number'), 1, MAX_OBJECTS);
    if (numbers.has(`${String(videoId)}\n${number}`)) r.fail(at(p, 'number'), `${number} is the number of another object of video ${JSON.stringify(videoId)}`);
    numbers.add(`${String(videoId)}\n${number}`);
    const meta: ObjectMeta = { id, number, name: r.nonEmptyString(r.required(o, 'name', p), at(p, 'name'), 200) };
    const category = r.optional(o, 'category_id');
    if (category !== undefined) {
      const c = r.integer(category, at(p, 'category_id'));
      if (!classOf.has(c)) r.fail(at(p, 'category_id'), `${c} is not the id of a category`);
      const classId = classOf.get(c);
      if (classId !== undefined) meta.classId = classId;
    }
    const attributes = r.optional(o, 'attributes');
    if (attributes !== undefined) {
      const ao = r.object(attributes, at(p, 'attributes'));
      const values: Record<string, boolean | string> = {};
      for (const k of Object.keys(ao)) values[k] = typeof ao[k] === 'boolean' ? ao[k] : r.string(ao[k], at(at(p, 'attributes'), k));
      meta.attributes = values;
    }
    out.set(id, { meta, videoId });
  });
  return out;
}

function readRelations(r: JsonReader, entry: { raw: unknown; path: string } | undefined, onFrame: Set<string>): FrameRelation[] {
  if (!entry) return [];
  const subjects = new Set<string>();
  return r.array(entry.raw, entry.path, 10_000).map((item, i) => {
    const p = at(entry.path, i);
    const o = r.object(item, p);
    const type = r.oneOf(r.required(o, 'type', p), at(p, 'type'), RELATION_TYPES);
    const subjectId = r.nonEmptyString(r.required(o, 'subject_id', p), at(p, 'subject_id'), 64);
    if (!onFrame.has(subjectId)) r.fail(at(p, 'subject_id'), `names object ${subjectId}, which has no annotation on this image`);
    if (subjects.has(subjectId)) r.fail(at(p, 'subject_id'), `has a second ${type} relation on this image`);
    subjects.add(subjectId);
    const answer = r.oneOf(r.required(o, 'answer', p), at(p, 'answer'), CONTACT_ANSWERS);
    const rel: FrameRelation = { type, subjectId, answer };
    const objectId = r.optional(o, 'object_id');
    if (answer === 'contact') {
      const id = r.nonEmptyString(r.required(o, 'object_id', p), at(p, 'object_id'), 64);
      if (!onFrame.has(id)) r.fail(at(p, 'object_id'), `names object ${id}, which has no annotation on this image`);
      if (id === subjectId) r.fail(at(p, 'object_id'), 'names the subject itself');
      rel.objectId = id;
    } else if (objectId !== undefined) {
      r.fail(at(p, 'object_id'), `must be absent when the answer is ${answer}`);
    }
    const provenance = r.optional(o, 'provenance');
    if (provenance !== undefined) rel.provenance = readProvenance(r, provenance, at(p, 'provenance'));
    return rel;
  });
}

function readProvenance(r: JsonReader, v: unknown, path: string): ObjectProvenance {
  const o = r.object(v, path);
  const out: ObjectProvenance = {
    kind: r.oneOf(r.required(o, 'kind', path), at(path, 'kind'), PROVENANCE_KINDS),
    by: r.string(r.required(o, 'by', path), at(path, 'by'), 1000),
  };
  const time = r.optional(o, 'at');
  if (time !== undefined) out.at = r.number(time, at(path, 'at'));
  const from = r.optional(o, 'from');
  if (from !== undefined) out.from = r.string(from, at(path, 'from'), 1000);
  const confidence = r.optional(o, 'confidence');
  if (confidence !== undefined) out.confidence = r.number(confidence, at(path, 'confidence'), 0, 1);
  return out;
}

function readId(r: JsonReader, v: unknown, path: string): number | string {
  if (typeof v === 'string' && v.length > 0 && v.length <= 200) return v;
  return r.integer(v, path);
}
