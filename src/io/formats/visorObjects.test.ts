import { describe, expect, it } from 'vitest';
import { ImportError } from '../importError';
import { exportVisorFile, importVisor } from './visor';
import { exportVisorObjects, visorClassNumbers, type VisorObjectsJson } from './visorObjects';
import { expectSameObjects, objectPixels, objectsClip, OBJECTS_LABELS, relationsByNumber } from './testdata/objectsFixtures';
import { maskBytes, text } from './testdata/fixtures';

const ids = () => {
  let n = 0;
  return () => `11111111-0000-4000-8000-${String(++n).padStart(12, '0')}`;
};

/**
 * The file as EPIC-KITCHENS VISOR publishes it: no spoc_* fields, entity ids that are opaque
 * per-frame hashes, hands 300/301 and gloves 303/304, in_contact_object naming entity ids or one of
 * VISOR's words, on_which_hand on gloves. Made from our export, so polygons are exact contours.
 */
function visorLayout(doc: VisorObjectsJson) {
  return {
    info: { description: 'VISOR-like', width: doc.info.width, height: doc.info.height },
    video_annotations: doc.video_annotations
      .filter((e) => e.annotated !== false)
      .map((e, f) => {
        const hashed = new Map(e.annotations.map((a, j) => [a.id, `${(f * 7919 + j * 104729).toString(16)}abc${j}`]));
        return {
          image: { ...e.image, subsequence: 'P01_01_seq_00001' },
          annotations: e.annotations.map((a) => {
            const out: Record<string, unknown> = { id: hashed.get(a.id), name: a.name, class_id: a.class_id, exhaustive: a.exhaustive, segments: a.segments };
            if (a.in_contact_object !== undefined) out.in_contact_object = hashed.get(a.in_contact_object) ?? a.in_contact_object;
            if (a.class_id === 304) out.on_which_hand = ['right hand'];
            return out;
          }),
        };
      }),
  };
}

/** An exported document without our extension fields, to compare with a VISOR-layout file. */
function withoutExtensions(json: string) {
  const doc = JSON.parse(json) as VisorObjectsJson;
  return doc.video_annotations.map((e) => e.annotations.map(({ spoc_object_id: _a, spoc_presence: _b, spoc_keyframe: _c, spoc_class_id: _d, ...rest }) => rest));
}

describe('VISOR objects export and import', () => {
  it('round-trips an objects clip of 24 objects: ids, classes, masks bit for bit, marks, relations; export again is byte-identical', () => {
    const a = objectsClip(24);
    const file = exportVisorFile(a);
    const back = importVisor(text(file), file.path, { newId: ids() });
    expect(back.warnings).toEqual([]);
    expect(back.clips).toHaveLength(1);
    const b = back.clips[0].annotations;
    expect(b.labels).toEqual(OBJECTS_LABELS);
    expectSameObjects(b, a);
    expect(maskBytes(b)).toEqual(maskBytes(a));
    expect(b.frames.map((f) => f.name)).toEqual(a.frames.map((f) => f.name));
    expect(b.sources.get('gt')!.has(2)).toBe(false);
    expect(text(exportVisorFile(b))).toBe(text(file));
  });

  it('writes VISOR class ids (hands 300/301/304, "12" as 12) and our other ids in spoc_class_id', () => {
    const doc = exportVisorObjects(objectsClip(8));
    const numbers = visorClassNumbers(OBJECTS_LABELS.classes);
    expect(numbers.get('hand:left')).toBe(300);
    expect(numbers.get('glove:right')).toBe(304);
    expect(numbers.get('12')).toBe(12);
    expect(numbers.get('c:spatula')).toBeGreaterThanOrEqual(1000);
    const frame0 = doc.video_annotations[0].annotations;
    expect(frame0[0]).toMatchObject({ name: 'left hand', class_id: 300, in_contact_object: frame0[4].id });
    expect(frame0[1]).toMatchObject({ class_id: 301, in_contact_object: frame0[5].id });
    expect(frame0[2]).toMatchObject({ class_id: 304, in_contact_object: 'inconclusive' });
    expect(frame0.find((e) => e.spoc_class_id === 'c:spatula')).toBeDefined();
    expect(doc.video_annotations[1].annotations[1].in_contact_object).toBe('hand-not-in-contact');
    expect(doc.video_annotations[2]).toMatchObject({ annotations: [], annotated: false });
    expect(doc.video_annotations[3].annotations[1].in_contact_object).toBe('none-of-the-above');
  });

  it('reads a VISOR-layout file (many entities, hands, gloves, contacts, exhaustive flags) and writes the same entities back', () => {
    const a = objectsClip(30);
    const foreign = visorLayout(exportVisorObjects(a));
    const entities = foreign.video_annotations.reduce((n, e) => n + e.annotations.length, 0);
    expect(entities).toBe(90);
    const back = importVisor(JSON.stringify(foreign), 'P01_01.json', { objects: true, newId: ids() });
    expect(back.warnings).toEqual([]);
    const b = back.clips[0].annotations;
    expect(b.objects).toHaveLength(30);
    // Objects follow their names across frames; classes come from class_id, hands as ours.
    expect(b.objects!.slice(0, 3).map((o) => [o.number, o.name, o.classId])).toEqual([
      [1, 'left hand', 'hand:left'],
      [2, 'right hand', 'hand:right'],
      [3, 'right glove', 'glove:right'],
    ]);
    expect(b.objects![2].attributes).toEqual({ on_which_hand: 'right hand' });
    expect(b.labels!.classes.map((c) => c.id)).toEqual(['hand:left', 'hand:right', 'glove:right', '4', '12', '31', '1001']);
    expect(objectPixels(b)).toEqual(Object.fromEntries(Object.entries(objectPixels(a)).map(([, v], i) => [i, v])));
    expect(Object.values(relationsByNumber(b))).toEqual(Object.values(relationsByNumber(a)));
    // Export gives the same entities: ids, names, classes, flags, polygons, contacts, gloves' hands.
    const again = withoutExtensions(text(exportVisorFile(b)));
    expect(again).toEqual(foreign.video_annotations.map((e) => e.annotations));
  });

  it('accepts VISOR exhaustive spellings and gives overlapping entities to the later one, with a warning', () => {
    const square = (x: number) => [[[x, 0], [x + 4, 0], [x + 4, 4], [x, 4]]];
    const doc = {
      info: { width: 8, height: 4 },
      video_annotations: [
        {
          image: { name: 'f_1.jpg', video: 'v' },
          annotations: [
            { id: 'a', name: 'pan', class_id: 31, exhaustive: 'y', segments: square(0) },
            { id: 'b', name: 'lid', class_id: 32, exhaustive: 'n', segments: square(2) },
          ],
        },
      ],
    };
    const back = importVisor(JSON.stringify(doc), 'v.json', { objects: true, newId: ids() });
    expect(back.warnings).toEqual(['v.json: 8 pixels on 1 frame(s) were in two entities; the later entity in the file keeps them']);
    const f = back.clips[0].annotations.objectMasks!.get('gt')!.get(0)!;
    expect(f.objects.map((o) => [o.exhaustive ?? false, o.provenance?.from])).toEqual([
      [true, 'a'],
      [false, 'b'],
    ]);
    const px = objectPixels(back.clips[0].annotations)[0];
    expect(px[1].reduce((s, v) => s + v, 0)).toBe(8);
    expect(px[2].reduce((s, v) => s + v, 0)).toBe(16);
  });

  it('refuses hostile files naming the file and the problem', () => {
    const base = () => ({
      info: { width: 8, height: 4 },
      video_annotations: [
        {
          image: { name: 'f_1.jpg', video: 'v' },
          annotations: [
            { id: 'h', name: 'left hand', class_id: 300, segments: [[[0, 0], [2, 0], [2, 2]]], in_contact_object: 'x' as unknown },
            { id: 'x', name: 'cup', class_id: 5, segments: [] as unknown[] },
          ] as Record<string, unknown>[],
        },
      ],
    });
    const bad = (mutate: (d: ReturnType<typeof base>) => void, message: RegExp | string) => {
      const d = base();
      mutate(d);
      const run = () => importVisor(JSON.stringify(d), 'bad.json', { objects: true, newId: ids() });
      expect(run).toThrow(ImportError);
      expect(run).toThrow(message);
    };
    expect(importVisor(JSON.stringify(base()), 'ok.json', { objects: true, newId: ids() }).clips[0].annotations.objectMasks!.get('gt')!.get(0)!.relations).toHaveLength(1);
    bad((d) => (d.video_annotations[0].annotations[0].in_contact_object = 'nobody'), 'bad.json: video_annotations[0].annotations[0].in_contact_object is "nobody", which is neither an entity id on this frame');
    bad((d) => (d.video_annotations[0].annotations[0].in_contact_object = 'h'), 'in_contact_object names the entity itself');
    bad((d) => (d.video_annotations[0].annotations[0].in_contact_object = 7), /in_contact_object is "7"/);
    bad((d) => (d.video_annotations[0].annotations[1].id = 'h'), 'bad.json: video_annotations[0].annotations[1].id "h" is the id of another entity on this frame');
    bad((d) => (d.video_annotations[0].annotations[1].on_which_hand = ['middle hand']), /annotations\[1\]\.on_which_hand\[0\]/);
    bad((d) => (d.video_annotations[0].annotations[1].on_which_hand = ['left hand', 'left hand']), /on_which_hand must be "inconclusive" or a list/);
    bad((d) => (d.video_annotations[0].annotations[1].exhaustive = 'maybe'), /exhaustive must be 1 \/ 0/);
    bad((d) => (d.video_annotations[0].annotations[1].class_id = -3), /annotations\[1\]\.class_id/);
    bad((d) => (d.video_annotations[0].annotations[1].spoc_presence = 'hidden'), /spoc_presence/);
    bad((d) => (d.info.width = 0), /info\.width/);
    bad((d) => (d.info.width = 100000), /info\.width/);
    bad((d) => {
      (d as Record<string, unknown>).spoc_objects = [{ id: 'o1', number: 1, name: 'a' }];
      d.video_annotations[0].annotations[0].spoc_object_id = 'o2';
    }, /spoc_object_id names object o2, which spoc_objects does not list/);
    bad((d) => ((d as Record<string, unknown>).spoc_objects = [{ id: 'o1', number: 1, name: 'a' }, { id: 'o2', number: 1, name: 'b' }]), /spoc_objects\[1\]\.number 1 is the number of another object/);
    bad((d) => ((d as Record<string, unknown>).spoc_classes = [{ id: 'a', name: 'x', colour: 'red', attributes: [] }]), /bad\.json: spoc_classes\[0\]\.colour/);
    bad((d) => (d.video_annotations[0].annotations[0].segments = [[[0, 0], [Number.NaN, 1], [2, 2]]]), /segments\[0\]/);
  });

  it('leaves SPOC clips to the states export (objects or not)', () => {
    const a = objectsClip(8);
    const spoc = { ...a, labels: { ...OBJECTS_LABELS, kind: 'spoc' as const } };
    const doc = JSON.parse(text(exportVisorFile(spoc))) as { spoc_objects?: unknown; video_annotations: { annotations: { name: string }[] }[] };
    expect(doc.spoc_objects).toBeUndefined();
    expect(doc.video_annotations[0].annotations.map((e) => e.name)).toEqual(['actionable']);
  });
});
