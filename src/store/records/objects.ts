/**
 * Object rows (types.ts ClipObject) and the objects of a layer or revision (docs/objects.md).
 * The pixel rules are checked on the run lengths, never by decoding a mask: each object's pixels
 * are a list of column-major intervals, so "no two objects share a pixel" is a sorted sweep and
 * "an owned pixel has a state" an interval cover — cheap enough to run on every imported frame.
 */
import { decodeCounts } from '../rleArea';
import { PRESENCES, type ClipObject, type LayerObject, type RevisionBox, type RevisionObject, type Rle } from '../types';
import type { RecordCheck } from './check';
import { checkProvenance } from './layer';
import { maskArea, rle, sameClip, type ClipShape, type RowMode } from './masks';

const OBJECT_FIELDS = new Set(['id', 'clipId', 'number', 'name', 'classId', 'attributes', 'createdAt', 'createdBy', 'updatedAt', 'deletedAt']);
const LAYER_OBJECT_FIELDS = new Set(['id', 'rle', 'area', 'presence', 'keyframe', 'exhaustive', 'provenance']);
const REVISION_OBJECT_FIELDS = new Set(['id', 'rle']);
/** Slots an editor can hold per clip (masks/ownerMap.ts MAX_SLOTS). */
export const MAX_OBJECTS = 0xffff;
const MAX_ATTRIBUTES = 200;

export function checkClipObject(c: RecordCheck, v: unknown, path: string, clip: Pick<ClipShape, 'id'>, mode: RowMode): ClipObject {
  const o = c.object(v, path);
  if (mode === 'stored') c.strictFields(o, OBJECT_FIELDS, path);
  const row: ClipObject = {
    id: objectId(c, c.required(o, 'id', path), c.at(path, 'id')),
    clipId: sameClip(c, o, path, clip),
    number: c.integer(c.required(o, 'number', path), c.at(path, 'number'), 1, MAX_OBJECTS),
    name: c.nonEmptyString(c.required(o, 'name', path), c.at(path, 'name'), 200),
    createdAt: c.number(c.required(o, 'createdAt', path), c.at(path, 'createdAt')),
    createdBy: c.nonEmptyString(c.required(o, 'createdBy', path), c.at(path, 'createdBy'), 1000),
    updatedAt: c.number(c.required(o, 'updatedAt', path), c.at(path, 'updatedAt')),
  };
  const classId = c.optional(o, 'classId');
  if (classId !== undefined) row.classId = c.nonEmptyString(classId, c.at(path, 'classId'), 200);
  const attributes = c.optional(o, 'attributes');
  if (attributes !== undefined) row.attributes = checkAttributeValues(c, attributes, c.at(path, 'attributes'));
  const deletedAt = c.optional(o, 'deletedAt');
  if (deletedAt !== undefined) row.deletedAt = c.number(deletedAt, c.at(path, 'deletedAt'));
  return row;
}

function checkAttributeValues(c: RecordCheck, v: unknown, path: string): Record<string, boolean | string> {
  const o = c.object(v, path);
  const keys = Object.keys(o);
  if (keys.length > MAX_ATTRIBUTES) c.fail(path, `has ${keys.length} values; at most ${MAX_ATTRIBUTES}`);
  const out: Record<string, boolean | string> = {};
  for (const k of keys) {
    if (k === '__proto__' || k === 'constructor' || k === 'prototype' || k.length > 200) c.fail(path, `has a key that is not an attribute id (${JSON.stringify(k.slice(0, 60))})`);
    const value = o[k];
    if (typeof value !== 'boolean' && typeof value !== 'string') c.fail(c.at(path, k), 'must be true, false or a text');
    out[k] = typeof value === 'string' ? c.string(value, c.at(path, k), 4096) : value;
  }
  return out;
}

function objectId(c: RecordCheck, v: unknown, path: string): string {
  return c.nonEmptyString(v, path, 64);
}

/**
 * A layer's `objects`, checked against its clip's size and its state masks: ids unique, masks the
 * frame's size, areas (of stored rows) matching, no pixel claimed twice, and every owned pixel
 * actionable or transformed (`states` are the layer's act and trf).
 */
export function checkLayerObjects(c: RecordCheck, v: unknown, path: string, clip: ClipShape, stored: boolean, states: readonly Rle[]): LayerObject[] {
  const ids = new Set<string>();
  const objects = c.array(v, path, MAX_OBJECTS).map((item, i): LayerObject => {
    const { o, p, id, rle: m, area } = objectMask(c, item, c.at(path, i), stored, LAYER_OBJECT_FIELDS, ids, clip.height, clip.width);
    if (stored) {
      const declared = c.integer(c.required(o, 'area', p), c.at(p, 'area'), 0);
      if (declared !== area) c.fail(c.at(p, 'area'), `is ${declared} but the RLE has ${area} pixels`);
    }
    const out: LayerObject = { id, rle: m, area };
    const presence = c.optional(o, 'presence');
    if (presence !== undefined) {
      out.presence = c.oneOf(presence, c.at(p, 'presence'), PRESENCES);
      if (area > 0 && (out.presence === 'absent' || out.presence === 'out_of_view')) {
        c.fail(c.at(p, 'presence'), `is ${out.presence} but the object has ${area} pixels on the frame`);
      }
    }
    for (const flag of ['keyframe', 'exhaustive'] as const) {
      const f = c.optional(o, flag);
      if (f === undefined || f === false) continue;
      if (f !== true) c.fail(c.at(p, flag), 'must be true when present');
      out[flag] = true;
    }
    const provenance = c.optional(o, 'provenance');
    if (provenance !== undefined) out.provenance = checkProvenance(c, provenance, c.at(p, 'provenance'), stored);
    return out;
  });
  checkDisjoint(c, path, objects);
  const covered = unionIntervals(states.map(intervalsOf));
  objects.forEach((o, i) => {
    const outside = firstUncovered(intervalsOf(o.rle), covered);
    if (outside !== null) c.fail(c.at(c.at(path, i), 'rle'), `owns pixel ${pixelName(outside, clip.height)} that is neither actionable nor transformed in the layer`);
  });
  return objects;
}

/** A revision side's objects: masks of the box's size, ids unique, no pixel claimed twice. */
export function checkRevisionObjects(c: RecordCheck, v: unknown, path: string, box: RevisionBox, stored: boolean): RevisionObject[] {
  const ids = new Set<string>();
  const objects = c.array(v, path, MAX_OBJECTS).map((item, i): RevisionObject => {
    const { id, rle: m } = objectMask(c, item, c.at(path, i), stored, REVISION_OBJECT_FIELDS, ids, box.h, box.w);
    return { id, rle: m };
  });
  checkDisjoint(c, path, objects);
  return objects;
}

/** One `{ id, rle, ... }` entry of a list of object masks: its id new in `ids`, its RLE h x w and counted. */
function objectMask(c: RecordCheck, item: unknown, p: string, stored: boolean, fields: ReadonlySet<string>, ids: Set<string>, h: number, w: number) {
  const o = c.object(item, p);
  if (stored) c.strictFields(o, fields, p);
  const id = objectId(c, c.required(o, 'id', p), c.at(p, 'id'));
  if (ids.has(id)) c.fail(c.at(p, 'id'), `repeats object ${id}`);
  ids.add(id);
  const m = rle(c, c.required(o, 'rle', p), c.at(p, 'rle'), stored);
  return { o, p, id, rle: m, area: maskArea(c, m, c.at(p, 'rle'), h, w) };
}

/** [start, end) intervals of a binary RLE's pixels, in column-major order (sorted, disjoint). */
function intervalsOf(m: Rle): number[] {
  const runs = decodeCounts(m.counts);
  const out: number[] = [];
  let pos = 0;
  for (let j = 0; j < runs.length; j++) {
    if (j & 1 && runs[j] > 0) out.push(pos, pos + runs[j]);
    pos += runs[j];
  }
  return out;
}

function checkDisjoint(c: RecordCheck, path: string, objects: readonly { id: string; rle: Rle }[]): void {
  const all: [start: number, end: number, who: number][] = [];
  objects.forEach((o, who) => {
    const iv = intervalsOf(o.rle);
    for (let k = 0; k < iv.length; k += 2) all.push([iv[k], iv[k + 1], who]);
  });
  all.sort((a, b) => a[0] - b[0]);
  let reach = 0;
  let holder = -1;
  for (const [start, end, who] of all) {
    if (start < reach) {
      const h = objects[0].rle.size[0];
      c.fail(path, `objects ${objects[holder].id} and ${objects[who].id} both own pixel ${pixelName(start, h)}; a pixel belongs to one object`);
    }
    reach = end;
    holder = who;
  }
}

function unionIntervals(lists: number[][]): number[] {
  const all: [number, number][] = [];
  for (const iv of lists) for (let k = 0; k < iv.length; k += 2) all.push([iv[k], iv[k + 1]]);
  all.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [s, e] of all) {
    if (out.length > 0 && s <= out[out.length - 1]) out[out.length - 1] = Math.max(out[out.length - 1], e);
    else out.push(s, e);
  }
  return out;
}

/** The first position of `inner` not inside `outer` (both sorted interval lists), or null. */
function firstUncovered(inner: number[], outer: number[]): number | null {
  let k = 0;
  for (let i = 0; i < inner.length; i += 2) {
    let s = inner[i];
    const e = inner[i + 1];
    while (s < e) {
      while (k < outer.length && outer[k + 1] <= s) k += 2;
      if (k >= outer.length || outer[k] > s) return s;
      s = outer[k + 1];
    }
  }
  return null;
}

function pixelName(pos: number, height: number): string {
  const x = Math.floor(pos / height);
  return `(${x}, ${pos - x * height})`;
}
