/**
 * Test helpers for objects in the formats: an objects-project clip with many objects (hands, a
 * glove, classes with numeric VISOR ids and app-made ids, a macro-class), ragged masks with holes
 * and one-pixel features that never overlap, presence / keyframe / exhaustive marks, contact
 * relations of every answer, an unannotated frame; and a comparison of the objects part of two
 * clips by pixels. Test-only.
 */
import { expect } from 'vitest';
import { encodeRle, decodeRle, type CocoRle } from '../../../masks/rle';
import { handClasses, type LabelSchema } from '../../../objects/labelSchema';
import type { ClipAnnotations, FrameObjects, ObjectMeta, SourceObjects } from '../model';
import { unionOfObjects } from '../objectModel';

/** Deterministic pseudo-random numbers in [0, 1). */
export function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export const OBJECTS_LABELS: LabelSchema = {
  kind: 'objects',
  classes: [
    ...handClasses(),
    { id: 'macro:cutlery', name: 'cutlery', colour: '#336699', attributes: [] },
    { id: '4', name: 'knife', colour: '#aa0000', parentId: 'macro:cutlery', attributes: [] },
    { id: '12', name: 'onion', colour: '#00aa00', attributes: [{ id: 'peeled', name: 'peeled', kind: 'boolean' }] },
    { id: '31', name: 'pan', colour: '#0000aa', attributes: [] },
    { id: 'c:spatula', name: 'spatula', colour: '#aaaa00', parentId: 'macro:cutlery', attributes: [] },
  ],
};

const IDS = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * An objects clip: `count` objects (>= 6: left hand, right hand, right glove, then other classes),
 * each in its own cell of a grid so masks never overlap, ragged pixels (holes, single pixels);
 * frame 2 is not annotated; object 6 is occluded (no pixels) on frame 1; relations on every
 * annotated frame.
 */
export function objectsClip(count = 24, name = 'P01_01', options: { provenance?: boolean } = {}): ClipAnnotations {
  const cols = 6;
  const cell = 10;
  const width = cols * cell;
  const height = Math.ceil(count / cols) * cell;
  const classes = ['hand:left', 'hand:right', 'glove:right', '4', '12', '31', 'c:spatula', undefined];
  const objects: ObjectMeta[] = [];
  for (let i = 0; i < count; i++) {
    const classId = classes[Math.min(i, 3) === i ? i : 3 + ((i - 3) % 5)];
    objects.push({
      id: IDS(i + 1),
      number: i + 1,
      name: classId === 'hand:left' ? 'left hand' : classId === 'hand:right' ? 'right hand' : classId === 'glove:right' ? 'right glove' : `thing ${i + 1}`,
      ...(classId !== undefined ? { classId } : {}),
      ...(classId === '12' ? { attributes: { peeled: i % 2 === 0 } } : {}),
    });
  }
  const frameCount = 4;
  const frames = Array.from({ length: frameCount }, (_, k) => ({ name: `${name}_frame_${String(k * 10 + 1).padStart(10, '0')}`, timestampSec: k }));
  const gt: SourceObjects = new Map();
  const masks = new Map<number, { act: CocoRle; trf: CocoRle }>();
  const rand = lcg(7);
  for (let k = 0; k < frameCount; k++) {
    if (k === 2) continue;
    const frame: FrameObjects = { objects: [], relations: [] };
    objects.forEach((o, i) => {
      const data = new Uint8Array(width * height);
      const occluded = k === 1 && i === 5;
      if (!occluded) {
        const x0 = (i % cols) * cell;
        const y0 = Math.floor(i / cols) * cell;
        for (let y = y0 + 1; y < y0 + cell - 1; y++) for (let x = x0 + 1; x < x0 + cell - 1; x++) if (rand() < 0.7) data[y * width + x] = 1;
      }
      frame.objects.push({
        id: o.id,
        rle: encodeRle(data, height, width),
        ...(occluded ? { presence: 'occluded' as const } : {}),
        ...(i % 3 === 0 ? { exhaustive: true as const } : {}),
        ...(i % 4 === 1 && k === 0 ? { keyframe: true as const } : {}),
        ...(options.provenance && i === 7 ? { provenance: { kind: 'interpolated' as const, by: 'interp', at: 5, confidence: 0.5 } } : {}),
      });
    });
    const [left, right, glove] = objects;
    const answers = ['contact', 'no_contact', '', 'none_of_the_above'] as const;
    frame.relations.push({ type: 'contact', subjectId: left.id, answer: 'contact', objectId: objects[4 + k].id });
    const a = answers[k];
    if (a === 'contact' || a === 'no_contact' || a === 'none_of_the_above') {
      frame.relations.push({ type: 'contact', subjectId: right.id, answer: a, ...(a === 'contact' ? { objectId: objects[5].id } : {}) });
    }
    frame.relations.push({ type: 'contact', subjectId: glove.id, answer: k === 3 ? 'contact' : 'inconclusive', ...(k === 3 ? { objectId: objects[6].id } : {}) });
    gt.set(k, frame);
    const act = unionOfObjects(frame.objects, height, width);
    masks.set(k, { act, trf: encodeRle(new Uint8Array(width * height), height, width) });
  }
  return {
    clip: { name, width, height, fps: 1 },
    frames,
    sources: new Map([['gt', masks]]),
    labels: OBJECTS_LABELS,
    objects,
    objectMasks: new Map([['gt', gt]]),
  };
}

/** Frame index -> object number -> mask bytes, for comparing objects by pixels whatever their ids. */
export function objectPixels(a: ClipAnnotations, source = 'gt'): Record<number, Record<number, number[]>> {
  const numberOf = new Map((a.objects ?? []).map((o) => [o.id, o.number]));
  const out: Record<number, Record<number, number[]>> = {};
  for (const [k, f] of a.objectMasks?.get(source as 'gt') ?? []) {
    out[k] = {};
    for (const o of f.objects) out[k][numberOf.get(o.id)!] = [...decodeRle(o.rle as CocoRle)];
  }
  return out;
}

/** Relations with object numbers in place of ids. */
export function relationsByNumber(a: ClipAnnotations, source = 'gt'): Record<number, string[]> {
  const numberOf = new Map((a.objects ?? []).map((o) => [o.id, o.number]));
  const out: Record<number, string[]> = {};
  for (const [k, f] of a.objectMasks?.get(source as 'gt') ?? []) {
    out[k] = f.relations.map((r) => `${numberOf.get(r.subjectId)} ${r.answer}${r.objectId ? ` ${numberOf.get(r.objectId)}` : ''}`);
  }
  return out;
}

/** Everything about objects compared: metadata, per-frame marks, pixels and relations. */
export function expectSameObjects(actual: ClipAnnotations, expected: ClipAnnotations, opts: { ids?: boolean; provenance?: boolean } = {}): void {
  const strip = (a: ClipAnnotations) => (a.objects ?? []).map((o) => (opts.ids === false ? { ...o, id: '' } : o));
  expect(strip(actual)).toEqual(strip(expected));
  expect(objectPixels(actual)).toEqual(objectPixels(expected));
  expect(relationsByNumber(actual)).toEqual(relationsByNumber(expected));
  const marks = (a: ClipAnnotations) => {
    const numberOf = new Map((a.objects ?? []).map((o) => [o.id, o.number]));
    return [...(a.objectMasks?.get('gt') ?? [])].map(([k, f]) => [
      k,
      f.objects.map((o) => [numberOf.get(o.id), o.presence ?? null, o.keyframe ?? null, o.exhaustive ?? null, opts.provenance ? (o.provenance ?? null) : null]),
    ]);
  };
  expect(marks(actual)).toEqual(marks(expected));
}
