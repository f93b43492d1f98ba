/**
 * Objects in the neutral model (docs/formats.md "Objects"; docs/objects.md): a clip's objects
 * (identity, number, name, class, attributes), per source and frame each object's pixels as one
 * COCO RLE with its presence, keyframe, exhaustive and provenance marks, the frame's relations, and
 * the class list the objects name. Mirrors the store (ClipObject, Layer.objects, Layer.relations,
 * Project.labels) so store -> model -> store is lossless; codecs write objects only for objects
 * projects (`labels.kind === 'objects'`), so a SPOC clip's exports stay byte for byte as before.
 *
 * Pixels follow the store's rule: one owner per pixel. Importers resolve overlaps between a file's
 * entities with `ownersLaterWins` (a later entity takes the pixels, as VISOR's own mask scripts
 * paint entities in file order) and report them.
 */
import type { LabelClass, LabelSchema } from '../../objects/labelSchema';
import { rleFromCounts, rleCounts, type CocoRle } from '../../masks/rle';
import { countsArea, mergeCounts } from '../../masks/rleOps';
import { CONTACT_ANSWERS, PRESENCES, type ContactAnswer, type LayerSource, type Presence, type Provenance, type RelationType, type Rle } from '../../store/types';

export type { LabelClass, LabelSchema } from '../../objects/labelSchema';
export type { ContactAnswer, Presence } from '../../store/types';

/** One object of a clip (ClipObject without its store bookkeeping). */
export interface ObjectMeta {
  /** UUID; importers keep a file's own (our exports write it) or mint one. */
  id: string;
  /** 1.. per clip, unique; DAVIS' palette index and COCO's track_id. */
  number: number;
  name: string;
  classId?: string;
  attributes?: Record<string, boolean | string>;
}

/** Provenance as files give it: the time is optional (storeRows stamps it), like FrameIgnore.at. */
export type ObjectProvenance = Omit<Provenance, 'at'> & { at?: number };

/** One object on one frame (LayerObject; the area is derived from the RLE). */
export interface FrameObject {
  id: string;
  /** Its pixels, a COCO RLE of the clip's size (empty when not visible). */
  rle: Rle;
  presence?: Presence;
  keyframe?: true;
  exhaustive?: true;
  provenance?: ObjectProvenance;
}

/** A relation between two objects of a frame (LayerRelation). */
export interface FrameRelation {
  type: RelationType;
  subjectId: string;
  answer: ContactAnswer;
  objectId?: string;
  provenance?: ObjectProvenance;
}

export interface FrameObjects {
  objects: FrameObject[];
  relations: FrameRelation[];
}

/** Frame index -> the objects of that frame (only annotated frames that have objects or relations). */
export type SourceObjects = Map<number, FrameObjects>;

/** The part of ClipAnnotations about objects (model.ts includes it). */
export interface ClipObjectsPart {
  /**
   * The project's label schema (kind and classes) the objects name. `kind: 'objects'` makes the
   * codecs write objects; absent or `spoc`, they write the two states exactly as before.
   */
  labels?: LabelSchema;
  /** The clip's objects, by number. */
  objects?: ObjectMeta[];
  /** Per source, frame index -> objects on the frame. */
  objectMasks?: Map<LayerSource, SourceObjects>;
}

export function isObjectsClip(a: ClipObjectsPart): boolean {
  return a.labels?.kind === 'objects';
}

export function sourceObjects(a: ClipObjectsPart, source: LayerSource): SourceObjects {
  return a.objectMasks?.get(source) ?? new Map();
}

export function classById(labels: LabelSchema | undefined): Map<string, LabelClass> {
  return new Map((labels?.classes ?? []).map((c) => [c.id, c]));
}

/**
 * Checks the objects part before export (RangeError naming the clip): ids and numbers unique,
 * classes known to the schema, frame objects naming listed objects once per frame with RLEs of the
 * clip's size, relations between objects of their frame with answers that fit.
 */
export function checkClipObjects(a: ClipObjectsPart & { clip: { name: string; width: number; height: number } }, frameCount: number): void {
  const where = `clip "${a.clip.name}"`;
  const ids = new Set<string>();
  const numbers = new Set<number>();
  const classes = classById(a.labels);
  for (const o of a.objects ?? []) {
    if (typeof o.id !== 'string' || o.id.length === 0 || o.id.length > 64) throw new RangeError(`${where}: object id ${JSON.stringify(o.id)} must be a text of 1..64 characters`);
    if (ids.has(o.id)) throw new RangeError(`${where}: object id ${o.id} is listed twice`);
    ids.add(o.id);
    if (!Number.isInteger(o.number) || o.number < 1 || o.number > 0xffff) throw new RangeError(`${where}: object ${o.id} has number ${o.number}; numbers are 1..65535`);
    if (numbers.has(o.number)) throw new RangeError(`${where}: two objects have number ${o.number}`);
    numbers.add(o.number);
    if (o.classId !== undefined && a.labels && !classes.has(o.classId)) throw new RangeError(`${where}: object ${o.number} names class "${o.classId}", which the schema does not have`);
  }
  for (const [source, frames] of a.objectMasks ?? []) {
    for (const [k, f] of frames) {
      const fw = `${where}, source ${source}, frame ${k}`;
      if (!Number.isInteger(k) || k < 0 || k >= frameCount) throw new RangeError(`${where}: source ${source} has objects on frame ${k}, but the clip has ${frameCount} frames`);
      const onFrame = new Set<string>();
      for (const o of f.objects) {
        if (!ids.has(o.id)) throw new RangeError(`${fw}: object ${o.id} is not among the clip's objects`);
        if (onFrame.has(o.id)) throw new RangeError(`${fw}: object ${o.id} is on the frame twice`);
        onFrame.add(o.id);
        if (o.rle.size[0] !== a.clip.height || o.rle.size[1] !== a.clip.width) {
          throw new RangeError(`${fw}: object ${o.id}'s mask is ${o.rle.size[1]}x${o.rle.size[0]}; the clip is ${a.clip.width}x${a.clip.height}`);
        }
        if (o.presence !== undefined && !PRESENCES.includes(o.presence)) throw new RangeError(`${fw}: object ${o.id} has unknown presence "${o.presence}"`);
      }
      for (const r of f.relations) {
        if (!onFrame.has(r.subjectId)) throw new RangeError(`${fw}: a relation's subject ${r.subjectId} is not on the frame`);
        if (!CONTACT_ANSWERS.includes(r.answer)) throw new RangeError(`${fw}: unknown contact answer "${r.answer}"`);
        if ((r.answer === 'contact') !== (r.objectId !== undefined)) throw new RangeError(`${fw}: relation of ${r.subjectId} must name an object exactly when the answer is contact`);
        if (r.objectId !== undefined && !onFrame.has(r.objectId)) throw new RangeError(`${fw}: relation of ${r.subjectId} names ${r.objectId}, which is not on the frame`);
      }
    }
  }
}

/** The complement of run counts over n pixels (counts start with a zero run). */
function complement(counts: Uint32Array): Uint32Array {
  if (counts.length > 0 && counts[0] === 0) return counts.subarray(1);
  const out = new Uint32Array(counts.length + 1);
  out.set(counts, 1);
  return out;
}

/**
 * One owner per pixel from masks that may overlap: a later mask takes the pixels it shares with
 * earlier ones (as painting them in order does). Returns each mask's owned counts and how many
 * pixels changed owner. Works on run counts (no h*w buffer).
 */
export function ownersLaterWins(list: readonly Uint32Array[], n: number): { owned: Uint32Array[]; overlap: number } {
  const owned = new Array<Uint32Array>(list.length);
  let taken: Uint32Array = new Uint32Array([n]);
  let overlap = 0;
  for (let i = list.length - 1; i >= 0; i--) {
    const mine = countsArea(list[i]) === 0 ? list[i] : mergeCounts([list[i], complement(taken)], true);
    overlap += countsArea(list[i]) - countsArea(mine);
    owned[i] = mine;
    if (countsArea(list[i]) > 0) taken = mergeCounts([taken, list[i]]);
  }
  return { owned, overlap };
}

/** The union of a frame's object masks as RLE (an objects project's `act`); empty RLE when none. */
export function unionOfObjects(objects: readonly { rle: Rle }[], height: number, width: number): CocoRle {
  if (objects.length === 0) return rleFromCounts([height * width], height, width);
  return rleFromCounts(mergeCounts(objects.map((o) => rleCounts(o.rle as CocoRle))), height, width);
}
