/**
 * VISOR JSON for objects projects (docs/formats.md "VISOR", objects): every object of a frame is
 * one VISOR entity, as EPIC-KITCHENS VISOR publishes them (sparse files and the dense
 * `*_interpolations.json` files have this one structure):
 *   { "id": "<entity id>", "name": "onion", "class_id": 12, "exhaustive": 1,
 *     "segments": [[[x, y], ...], ...],
 *     "in_contact_object"?: "<entity id on this frame>" | "hand-not-in-contact" | "none-of-the-above" | "inconclusive",
 *     "on_which_hand"?: ["left hand"] | ["right hand"] | ["left hand", "right hand"] | "inconclusive" }
 * An object is followed across frames by its entity name and class (VISOR keeps names consistent
 * within a video), or by `spoc_object_id` in our own files. Classes: VISOR's class_id n is our
 * class "n", except the hands and gloves (300, 301, 303, 304 are our hand:left, hand:right,
 * glove:left, glove:right); a class id of ours that is neither gets a free number from 1000 up
 * and rides in `spoc_class_id`. A hand's `in_contact_object` is its contact relation; a glove's
 * `on_which_hand` is kept as the object's attribute `on_which_hand` (one value per object: VISOR
 * gives it per frame, and a glove stays on its hand). The file's entity id is kept in the frame
 * object's provenance (`imported`, by `visor`, from the id) so an export writes it back.
 *
 * Our export adds, for a lossless round trip: top-level `spoc_classes` (the schema's classes) and
 * `spoc_objects` (id, number, name, class, attributes), and per entity `spoc_object_id`,
 * `spoc_presence` (when set) and `spoc_keyframe`. Pixels are exact both ways (contours.ts), and
 * entities that overlap in a foreign file get one owner per pixel: the later entity wins, as
 * VISOR's mask scripts paint entities in file order (a warning counts the pixels).
 */
import { MaskFormatError } from '../../masks/errors';
import { decodeRle, rleFromCounts, type CocoRle } from '../../masks/rle';
import { checkLabelSchema, handClasses, LabelSchemaError, type LabelClass, type LabelSchema } from '../../objects/labelSchema';
import { PRESENCES, type ContactAnswer, type LayerSource } from '../../store/types';
import { traceContours } from './contours';
import { at, JsonReader, UnknownFieldTally, type JsonObject } from './json';
import {
  checkClipAnnotations,
  sourceMasks,
  sourceObjects,
  type ClipAnnotations,
  type FrameMeta,
  type FrameObject,
  type FrameObjects,
  type FrameRelation,
  type ImportResult,
  type ObjectMeta,
  type SourceMasks,
  type SourceObjects,
} from './model';
import { ownersLaterWins, unionOfObjects } from './objectModel';
import { xorCounts } from './stateMasks';
import { coordinateScale, frameSize, polygon, readVisorImage, type VisorImportOptions, type VisorPoint } from './visor';

/** VISOR's hand and glove class ids and ours. */
export const VISOR_HAND_CLASSES: readonly [number, string][] = [
  [300, 'hand:left'],
  [301, 'hand:right'],
  [303, 'glove:left'],
  [304, 'glove:right'],
];
const CONTACT_VALUES: Record<string, ContactAnswer> = {
  'hand-not-in-contact': 'no_contact',
  'none-of-the-above': 'none_of_the_above',
  inconclusive: 'inconclusive',
};
const CONTACT_WORDS: Record<Exclude<ContactAnswer, 'contact'>, string> = {
  no_contact: 'hand-not-in-contact',
  none_of_the_above: 'none-of-the-above',
  inconclusive: 'inconclusive',
};
/** The attribute a glove's `on_which_hand` is kept in. */
export const ON_WHICH_HAND = 'on_which_hand';
const HAND_WORDS = ['left hand', 'right hand'];
const MAX_CLASS_ID = 1_000_000_000;

/** Our class id -> VISOR class_id: "n" is n, hands as VISOR numbers them, the rest from 1000 up. */
export function visorClassNumbers(classes: readonly Pick<LabelClass, 'id'>[]): Map<string, number> {
  const out = new Map<string, number>();
  const used = new Set<number>();
  for (const c of classes) {
    if (/^\d{1,9}$/.test(c.id) && !used.has(Number(c.id))) {
      out.set(c.id, Number(c.id));
      used.add(Number(c.id));
    }
  }
  for (const [n, id] of VISOR_HAND_CLASSES) {
    if (classes.some((c) => c.id === id) && !used.has(n)) {
      out.set(id, n);
      used.add(n);
    }
  }
  let next = 1000;
  for (const c of classes) {
    if (out.has(c.id)) continue;
    while (used.has(next)) next++;
    out.set(c.id, next);
    used.add(next);
  }
  return out;
}

/** VISOR class_id -> our class id, the inverse of visorClassNumbers for VISOR's own ids. */
function classIdOf(n: number): string {
  return VISOR_HAND_CLASSES.find(([v]) => v === n)?.[1] ?? String(n);
}

interface VisorEntity {
  id: string;
  name: string;
  class_id?: number;
  exhaustive: 0 | 1;
  segments: VisorPoint[][];
  in_contact_object?: string;
  on_which_hand?: string[] | 'inconclusive';
  spoc_object_id: string;
  spoc_class_id?: string;
  spoc_presence?: string;
  spoc_keyframe?: true;
}

export interface VisorObjectsJson {
  info: { description: string; width: number; height: number };
  spoc_classes: LabelClass[];
  spoc_objects: { id: string; number: number; name: string; class_id?: number; spoc_class_id?: string; attributes?: Record<string, boolean | string> }[];
  video_annotations: { image: { name: string; video: string; image_path: string }; annotations: VisorEntity[]; annotated?: false }[];
}

/** An objects clip as VISOR JSON: one entity per (frame, object), relations as in_contact_object. */
export function exportVisorObjects(a: ClipAnnotations, options: { source?: LayerSource; imageExtension?: string } = {}): VisorObjectsJson {
  checkClipAnnotations(a);
  const { clip } = a;
  const ext = options.imageExtension ?? 'jpg';
  const source = options.source ?? 'gt';
  const classes = a.labels?.classes ?? [];
  const numbers = visorClassNumbers(classes);
  const classFields = (classId: string | undefined) => {
    if (classId === undefined) return {};
    const n = numbers.get(classId)!;
    return classIdOf(n) === classId ? { class_id: n } : { class_id: n, spoc_class_id: classId };
  };
  const objects = a.objects ?? [];
  const byId = new Map(objects.map((o) => [o.id, o]));
  const masks = sourceMasks(a, source);
  const frames = sourceObjects(a, source);
  const doc: VisorObjectsJson = {
    info: { description: 'SPOC Studio export', width: clip.width, height: clip.height },
    spoc_classes: canonicalClasses(classes, clip.name),
    spoc_objects: objects.map((o) => ({
      id: o.id,
      number: o.number,
      name: o.name,
      ...classFields(o.classId),
      ...(o.attributes ? { attributes: o.attributes } : {}),
    })),
    video_annotations: [],
  };
  a.frames.forEach((f, k) => {
    const image = { name: `${f.name}.${ext}`, video: clip.name, image_path: `${clip.name}/${f.name}.${ext}` };
    if (!masks.has(k)) {
      doc.video_annotations.push({ image, annotations: [], annotated: false });
      return;
    }
    const frame = frames.get(k) ?? { objects: [], relations: [] };
    const entityIds = new Map<string, string>();
    const taken = new Set<string>();
    for (const o of frame.objects) {
      const own = o.provenance?.kind === 'imported' && o.provenance.by === 'visor' ? o.provenance.from : undefined;
      let id = own && !taken.has(own) ? own : `${f.name}/${byId.get(o.id)!.number}`;
      while (taken.has(id)) id += '+';
      taken.add(id);
      entityIds.set(o.id, id);
    }
    const contactOf = new Map(frame.relations.filter((r) => r.type === 'contact').map((r) => [r.subjectId, r]));
    const annotations = frame.objects.map((o): VisorEntity => {
      const meta = byId.get(o.id)!;
      const relation = contactOf.get(o.id);
      const onHand = meta.attributes?.[ON_WHICH_HAND];
      return {
        id: entityIds.get(o.id)!,
        name: meta.name,
        ...classFields(meta.classId),
        exhaustive: o.exhaustive ? 1 : 0,
        segments: segmentsOf(o.rle as CocoRle),
        ...(relation ? { in_contact_object: relation.answer === 'contact' ? entityIds.get(relation.objectId!)! : CONTACT_WORDS[relation.answer] } : {}),
        ...(typeof onHand === 'string' ? { on_which_hand: onHand === 'inconclusive' ? 'inconclusive' : onHand.split(',').map((s) => s.trim()) } : {}),
        spoc_object_id: o.id,
        ...(o.presence !== undefined ? { spoc_presence: o.presence } : {}),
        ...(o.keyframe ? { spoc_keyframe: true as const } : {}),
      };
    });
    doc.video_annotations.push({ image, annotations });
  });
  return doc;
}

/** The classes as checkLabelSchema returns them (checked, fields in one order), so exports are stable. */
export function canonicalClasses(classes: readonly LabelClass[], clipName: string): LabelClass[] {
  try {
    return checkLabelSchema({ kind: 'objects', classes }).classes;
  } catch (err) {
    if (err instanceof LabelSchemaError) throw new RangeError(`clip "${clipName}": the label schema's ${err.message}`, { cause: err });
    throw err;
  }
}

function segmentsOf(rle: CocoRle): VisorPoint[][] {
  const [h, w] = rle.size;
  const rings = traceContours({ width: w, height: h, data: decodeRle(rle) }, 1);
  return rings.map((ring) => {
    const points: VisorPoint[] = [];
    for (let i = 0; i < ring.length; i += 2) points.push([ring[i], ring[i + 1]]);
    return points;
  });
}

const TOP_KEYS = new Set(['info', 'video_annotations', 'spoc_classes', 'spoc_objects']);
const ENTRY_KEYS = new Set(['image', 'annotations', 'annotated']);
const IMAGE_KEYS = new Set(['name', 'video', 'image_path', 'subsequence']);
const ENTITY_KEYS = new Set([
  'id',
  'name',
  'class_id',
  'segments',
  'exhaustive',
  'in_contact_object',
  'on_which_hand',
  'type',
  'instance_id',
  'spoc_seed',
  'spoc_object_id',
  'spoc_class_id',
  'spoc_presence',
  'spoc_keyframe',
]);
const MAX_ENTRIES = 10_000_000;
const MAX_OBJECTS = 0xffff;

interface ReadEntity {
  path: string;
  entityId: string;
  key: string;
  counts: Uint32Array;
  exhaustive: boolean;
  contact?: { value: string; path: string };
  presence?: FrameObject['presence'];
  keyframe: boolean;
  ownId: boolean;
}

interface ReadFrame {
  meta: FrameMeta;
  path: string;
  annotated: boolean;
  entities: ReadEntity[];
}

interface ReadObject {
  meta: ObjectMeta;
  classNumber?: number;
  firstName: string;
  onHand?: { value: string; path: string };
}

/** A VISOR document (already parsed, `r` reading it) as objects clips, one per video. */
export function importVisorObjectsDoc(r: JsonReader, doc: JsonObject, fileName: string, options: VisorImportOptions, newId: () => string): ImportResult {
  r.unknownFields(doc, TOP_KEYS, '');
  const size = frameSize(r, doc, options);
  const { width: w, height: h } = size;
  const n = w * h;
  const scale = coordinateScale(options, size);
  const fps = options.fps ?? 1;
  if (!(Number.isFinite(fps) && fps > 0)) throw new RangeError(`fps ${fps} must be a positive number`);
  const declaredClasses = readDeclaredClasses(r, doc);
  const declaredObjects = readDeclaredObjects(r, doc, declaredClasses);

  const videos = new Map<string, { frames: ReadFrame[]; objects: Map<string, ReadObject> }>();
  const frameNames = new Map<string, string>();
  const entryTally = new UnknownFieldTally(ENTRY_KEYS);
  const imageTally = new UnknownFieldTally(IMAGE_KEYS);
  const entityTally = new UnknownFieldTally(ENTITY_KEYS);
  r.array(r.required(doc, 'video_annotations', ''), 'video_annotations', MAX_ENTRIES).forEach((raw, i) => {
    const path = at('video_annotations', i);
    const entry = r.object(raw, path);
    entryTally.add(entry);
    const { video, name } = readVisorImage(r, entry, path, fileName, frameNames, imageTally);
    let v = videos.get(video);
    if (!v) videos.set(video, (v = { frames: [], objects: new Map() }));
    const annotated = r.optional(entry, 'annotated');
    const frame: ReadFrame = { meta: { name, timestampSec: 0 }, path, annotated: annotated === undefined ? true : r.boolean(annotated, at(path, 'annotated')), entities: [] };
    const listPath = at(path, 'annotations');
    const entityIds = new Set<string>();
    const keysOnFrame = new Set<string>();
    r.array(r.required(entry, 'annotations', path), listPath, MAX_ENTRIES).forEach((rawObj, j) => {
      const op = at(listPath, j);
      const obj = r.object(rawObj, op);
      entityTally.add(obj);
      const entityName = r.nonEmptyString(r.required(obj, 'name', op), at(op, 'name'), 200);
      const rawId = r.required(obj, 'id', op);
      const entityId = typeof rawId === 'number' ? String(r.integer(rawId, at(op, 'id'))) : r.nonEmptyString(rawId, at(op, 'id'), 200);
      if (entityIds.has(entityId)) r.fail(at(op, 'id'), `"${entityId}" is the id of another entity on this frame (ids must be unique per frame)`);
      entityIds.add(entityId);
      const classRaw = r.optional(obj, 'class_id');
      const classNumber = classRaw === undefined || classRaw === null ? undefined : r.integer(classRaw, at(op, 'class_id'), 0, MAX_CLASS_ID);
      const spocClassRaw = r.optional(obj, 'spoc_class_id');
      const spocClass = spocClassRaw === undefined ? undefined : r.nonEmptyString(spocClassRaw, at(op, 'spoc_class_id'), 200);
      const classId = spocClass ?? (classNumber === undefined ? undefined : classIdOf(classNumber));
      const ownRaw = r.optional(obj, 'spoc_object_id');
      let key: string;
      if (ownRaw !== undefined) {
        key = r.nonEmptyString(ownRaw, at(op, 'spoc_object_id'), 64);
        if (declaredObjects && !declaredObjects.has(key)) r.fail(at(op, 'spoc_object_id'), `names object ${key}, which spoc_objects does not list`);
      } else {
        key = `${classId ?? ''}\n${entityName}`;
        // Two entities of one name and class on a frame are two objects (the second, third, ... of that name).
        for (let copy = 2; keysOnFrame.has(key); copy++) key = `${classId ?? ''}\n${entityName}\n${copy}`;
      }
      if (keysOnFrame.has(key)) r.fail(op, `is a second entity of object ${key} on this frame`);
      keysOnFrame.add(key);
      let object = v.objects.get(key);
      if (!object) {
        if (v.objects.size >= MAX_OBJECTS) r.fail(op, `is object ${v.objects.size + 1} of video "${video}"; at most ${MAX_OBJECTS}`);
        const declared = declaredObjects?.get(key);
        const copy = /\n(\d+)$/.exec(key.slice(key.indexOf('\n') + 1));
        object = {
          meta: declared ?? {
            id: newId(),
            number: v.objects.size + 1,
            name: copy ? `${entityName} ${copy[1]}` : entityName,
            ...(classId !== undefined ? { classId } : {}),
          },
          classNumber,
          firstName: entityName,
        };
        v.objects.set(key, object);
      }
      const counts = xorCounts(
        r.array(r.required(obj, 'segments', op), at(op, 'segments')).map((seg, s) => polygon(r, seg, at(at(op, 'segments'), s), h, w, scale)),
        n,
      );
      const e: ReadEntity = {
        path: op,
        entityId,
        key,
        counts,
        exhaustive: readExhaustive(r, r.optional(obj, 'exhaustive'), at(op, 'exhaustive')),
        keyframe: false,
        ownId: ownRaw !== undefined && entityId === `${name}/${object.meta.number}`,
      };
      const contact = r.optional(obj, 'in_contact_object');
      if (contact !== undefined && contact !== null) {
        e.contact = { value: typeof contact === 'number' ? String(contact) : r.nonEmptyString(contact, at(op, 'in_contact_object'), 200), path: at(op, 'in_contact_object') };
      }
      const onHand = r.optional(obj, 'on_which_hand');
      if (onHand !== undefined && onHand !== null) {
        const value = readOnWhichHand(r, onHand, at(op, 'on_which_hand'));
        if (!object.onHand) object.onHand = { value, path: at(op, 'on_which_hand') };
        else if (object.onHand.value !== value) r.warn(at(op, 'on_which_hand'), `is "${value}" but was "${object.onHand.value}" at ${object.onHand.path}; the object keeps the first`);
      }
      const presence = r.optional(obj, 'spoc_presence');
      if (presence !== undefined) e.presence = r.oneOf(presence, at(op, 'spoc_presence'), PRESENCES);
      const keyframe = r.optional(obj, 'spoc_keyframe');
      if (keyframe !== undefined) e.keyframe = r.boolean(keyframe, at(op, 'spoc_keyframe'));
      frame.entities.push(e);
    });
    v.frames.push(frame);
  });
  entryTally.report(r, 'video_annotations');
  imageTally.report(r, 'video_annotations[].image');
  entityTally.report(r, 'video_annotations[].annotations');

  const source = options.source ?? 'gt';
  const result: ImportResult = { clips: [], warnings: r.warnings };
  let overlapPixels = 0;
  let overlapFrames = 0;
  for (const [video, v] of videos) {
    const objects = [...v.objects.values()];
    if (declaredObjects) for (const o of declaredObjects.values()) if (!objects.some((x) => x.meta.id === o.id)) objects.push({ meta: o, firstName: o.name });
    objects.sort((x, y) => x.meta.number - y.meta.number);
    for (const o of objects) {
      if (o.onHand) o.meta = { ...o.meta, attributes: { ...o.meta.attributes, [ON_WHICH_HAND]: o.onHand.value } };
    }
    const idOf = new Map([...v.objects].map(([key, o]) => [key, o.meta.id]));
    const masks: SourceMasks = new Map();
    const objectFrames: SourceObjects = new Map();
    v.frames.forEach((f, k) => {
      f.meta.timestampSec = k / fps;
      if (!f.annotated && f.entities.length === 0) return;
      let owned: Uint32Array[];
      try {
        const resolved = ownersLaterWins(
          f.entities.map((e) => e.counts),
          n,
        );
        owned = resolved.owned;
        if (resolved.overlap > 0) {
          overlapPixels += resolved.overlap;
          overlapFrames++;
        }
      } catch (err) {
        if (err instanceof MaskFormatError) r.fail(f.path, err.problem);
        throw err;
      }
      const byEntity = new Map(f.entities.map((e) => [e.entityId, e]));
      const frame: FrameObjects = {
        objects: f.entities.map((e, i): FrameObject => {
          const rle = rleFromCounts(owned[i], h, w);
          const out: FrameObject = { id: idOf.get(e.key)!, rle };
          if (e.presence !== undefined) out.presence = e.presence;
          if (e.keyframe) out.keyframe = true;
          if (e.exhaustive) out.exhaustive = true;
          if (!e.ownId) out.provenance = { kind: 'imported', by: 'visor', from: e.entityId };
          return out;
        }),
        relations: [],
      };
      for (const e of f.entities) {
        if (!e.contact) continue;
        const answer = CONTACT_VALUES[e.contact.value];
        const relation: FrameRelation = { type: 'contact', subjectId: idOf.get(e.key)!, answer: answer ?? 'contact' };
        if (!answer) {
          const touched = byEntity.get(e.contact.value);
          if (!touched) {
            r.fail(
              e.contact.path,
              `is "${e.contact.value}", which is neither an entity id on this frame nor one of "hand-not-in-contact", "none-of-the-above", "inconclusive"`,
            );
          }
          if (touched === e) r.fail(e.contact.path, 'names the entity itself');
          relation.objectId = idOf.get(touched.key)!;
        }
        frame.relations.push(relation);
      }
      masks.set(k, { act: unionOfObjects(frame.objects, h, w), trf: rleFromCounts([n], h, w) });
      if (frame.objects.length > 0 || frame.relations.length > 0) objectFrames.set(k, frame);
    });
    result.clips.push({
      annotations: {
        clip: { name: video, width: w, height: h, fps },
        frames: v.frames.map((f) => f.meta),
        sources: new Map([[source, masks]]),
        labels: { kind: 'objects', classes: declaredClasses ?? derivedClasses(objects) },
        objects: objects.map((o) => o.meta),
        objectMasks: new Map([[source, objectFrames]]),
      },
    });
  }
  if (overlapFrames > 0) r.warn('', `${overlapPixels} pixels on ${overlapFrames} frame(s) were in two entities; the later entity in the file keeps them`);
  return result;
}

function readExhaustive(r: JsonReader, v: unknown, path: string): boolean {
  if (v === undefined || v === null) return false;
  if (v === 1 || v === true || v === 'y' || v === 'yes' || v === 'Y') return true;
  if (v === 0 || v === false || v === 'n' || v === 'no' || v === 'N') return false;
  return r.fail(path, `must be 1 / 0, true / false or "y" / "n", got ${JSON.stringify(v)?.slice(0, 40)}`);
}

function readOnWhichHand(r: JsonReader, v: unknown, path: string): string {
  if (v === 'inconclusive') return 'inconclusive';
  const list = r.array(v, path, 2).map((x, i) => r.oneOf(x, at(path, i), HAND_WORDS));
  if (list.length === 0 || new Set(list).size !== list.length) r.fail(path, 'must be "inconclusive" or a list of "left hand" / "right hand", each once');
  return list.join(', ');
}

/** Our `spoc_classes` extension (VISOR and COCO exports), checked as a label schema's classes. */
export function readDeclaredClasses(r: JsonReader, doc: JsonObject): LabelClass[] | null {
  const raw = r.optional(doc, 'spoc_classes');
  if (raw === undefined) return null;
  try {
    return checkLabelSchema({ kind: 'objects', classes: raw }).classes;
  } catch (err) {
    if (err instanceof LabelSchemaError) r.fail(`spoc_${err.path}`, err.problem);
    throw err;
  }
}

function readDeclaredObjects(r: JsonReader, doc: JsonObject, classes: LabelClass[] | null): Map<string, ObjectMeta> | null {
  const raw = r.optional(doc, 'spoc_objects');
  if (raw === undefined) return null;
  const known = classes && new Set(classes.map((c) => c.id));
  const out = new Map<string, ObjectMeta>();
  const numbers = new Set<number>();
  r.array(raw, 'spoc_objects', MAX_OBJECTS).forEach((item, i) => {
    const p = at('spoc_objects', i);
    const o = r.object(item, p);
    const id = r.nonEmptyString(r.required(o, 'id', p), at(p, 'id'), 64);
    if (out.has(id)) r.fail(at(p, 'id'), `${id} is listed twice`);
    const number = r.integer(r.required(o, 'number', p), at(p, 'number'), 1, MAX_OBJECTS);
    if (numbers.has(number)) r.fail(at(p, 'number'), `${number} is the number of another object`);
    numbers.add(number);
    const meta: ObjectMeta = { id, number, name: r.nonEmptyString(r.required(o, 'name', p), at(p, 'name'), 200) };
    const spocClass = r.optional(o, 'spoc_class_id');
    const classNumber = r.optional(o, 'class_id');
    if (spocClass !== undefined) meta.classId = r.nonEmptyString(spocClass, at(p, 'spoc_class_id'), 200);
    else if (classNumber !== undefined) meta.classId = classIdOf(r.integer(classNumber, at(p, 'class_id'), 0, MAX_CLASS_ID));
    if (meta.classId !== undefined && known && !known.has(meta.classId)) r.fail(at(p, 'class_id'), `names class "${meta.classId}", which spoc_classes does not list`);
    const attributes = r.optional(o, 'attributes');
    if (attributes !== undefined) {
      const ao = r.object(attributes, at(p, 'attributes'));
      const values: Record<string, boolean | string> = {};
      for (const k of Object.keys(ao)) {
        const value = ao[k];
        values[k] = typeof value === 'boolean' ? value : r.string(value, at(at(p, 'attributes'), k));
      }
      meta.attributes = values;
    }
    out.set(id, meta);
  });
  return out;
}

const PALETTE = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#bfef45', '#469990', '#9a6324', '#800000', '#808000'];

/** Classes a foreign file implies: VISOR's hands as ours, each other class_id named after its first entity. */
function derivedClasses(objects: readonly ReadObject[]): LabelClass[] {
  const hands = new Map(handClasses().map((c) => [c.id, c]));
  const out = new Map<string, LabelClass>();
  const names = new Set<string>();
  for (const o of objects) {
    const id = o.meta.classId;
    if (id === undefined || out.has(id)) continue;
    const hand = hands.get(id);
    let name = hand?.name ?? o.firstName.trim();
    if (names.has(name.toLowerCase())) name = `${name} (${id})`;
    names.add(name.toLowerCase());
    out.set(id, hand ?? { id, name, colour: PALETTE[out.size % PALETTE.length], attributes: [] });
  }
  return [...out.values()];
}

/** Whether a parsed VISOR document is one of our objects exports (it lists its objects). */
export function isVisorObjectsDoc(doc: JsonObject): boolean {
  return Object.prototype.hasOwnProperty.call(doc, 'spoc_objects');
}

export type { LabelSchema };
