import { describe, expect, it } from 'vitest';
import { decodeRle, parseCocoRle } from '../../masks/rle';
import { rleArea, rleToBbox } from '../../masks/rleOps';
import { ImportError } from '../importError';
import { exportCocoFile } from './cocoExport';
import { importCoco } from './cocoImport';
import type { CocoObjectsJson } from './cocoObjects';
import { maskBytes, text } from './testdata/fixtures';
import { expectSameObjects, objectPixels, objectsClip, OBJECTS_LABELS, relationsByNumber } from './testdata/objectsFixtures';

const ids = () => {
  let n = 0;
  return () => `22222222-0000-4000-8000-${String(++n).padStart(12, '0')}`;
};

describe('COCO for objects projects', () => {
  it('writes one category per class (macro-class as supercategory) and one annotation per (frame, object) with a track id', () => {
    const a = objectsClip(24);
    const doc = JSON.parse(text(exportCocoFile([a]))) as CocoObjectsJson;
    expect(doc.spoc).toEqual({ format: 'spoc-studio/coco', version: 1, source: 'gt', kind: 'objects' });
    expect(doc.categories).toEqual([
      { id: 300, name: 'left hand', supercategory: 'object', spoc_class_id: 'hand:left' },
      { id: 301, name: 'right hand', supercategory: 'object', spoc_class_id: 'hand:right' },
      { id: 303, name: 'left glove', supercategory: 'object', spoc_class_id: 'glove:left' },
      { id: 304, name: 'right glove', supercategory: 'object', spoc_class_id: 'glove:right' },
      { id: 1000, name: 'cutlery', supercategory: 'object', spoc_class_id: 'macro:cutlery' },
      { id: 4, name: 'knife', supercategory: 'cutlery', spoc_class_id: '4' },
      { id: 12, name: 'onion', supercategory: 'object', spoc_class_id: '12' },
      { id: 31, name: 'pan', supercategory: 'object', spoc_class_id: '31' },
      { id: 1001, name: 'spatula', supercategory: 'cutlery', spoc_class_id: 'c:spatula' },
      { id: 1002, name: 'unclassified', supercategory: 'object' },
    ]);
    // 3 annotated frames x 24 objects; every annotation is what pycocotools reads: RLE, area, bbox.
    expect(doc.annotations).toHaveLength(72);
    expect(new Set(doc.annotations.map((x) => x.track_id)).size).toBe(24);
    const px = objectPixels(a);
    for (const ann of doc.annotations) {
      const rle = parseCocoRle(ann.segmentation);
      expect(ann.area).toBe(rleArea(rle));
      expect(ann.bbox).toEqual(rleToBbox(rle));
      expect(ann.iscrowd).toBe(0);
      const image = doc.images[ann.image_id - 1] as { frame_index: number };
      expect([...decodeRle(rle)]).toEqual(px[image.frame_index][ann.track_id]);
    }
    expect(doc.annotations.find((x) => x.spoc_presence === 'occluded')).toMatchObject({ area: 0, bbox: [0, 0, 0, 0] });
  });

  it('round-trips 24 objects: ids, numbers, classes, masks bit for bit, marks, provenance, relations; export again is byte-identical', () => {
    const a = objectsClip(24, 'P01_01', { provenance: true });
    const file = exportCocoFile([a]);
    const back = importCoco(text(file), 'annotations.json', { newId: ids() });
    expect(back.warnings).toEqual([]);
    const b = back.clips[0].annotations;
    expect(b.labels).toEqual({ kind: 'objects', classes: OBJECTS_LABELS.classes.map((c) => expect.objectContaining(c)) });
    expectSameObjects(b, a, { provenance: true });
    expect(maskBytes(b)).toEqual(maskBytes(a));
    expect(b.frames).toEqual(a.frames);
    expect(text(exportCocoFile([b]))).toBe(text(file));
  });

  it('reads tracked COCO from other tools: objects by track_id, classes from categories with their supercategories', () => {
    const a = objectsClip(20);
    const doc = JSON.parse(text(exportCocoFile([a]))) as CocoObjectsJson & Record<string, unknown>;
    const plain = {
      images: doc.images.map((i) => ({ id: i.id, file_name: i.file_name, width: i.width, height: i.height })),
      categories: doc.categories.map(({ spoc_class_id: _s, ...c }) => c),
      annotations: doc.annotations.map(({ spoc_object_id: _o, spoc_presence: _p, spoc_keyframe: _k, spoc_exhaustive: _e, spoc_provenance: _v, ...x }) => x),
    };
    const back = importCoco(JSON.stringify(plain), 'tracks.json', { objects: true, newId: ids() });
    expect(back.warnings).toEqual([]);
    const b = back.clips[0].annotations;
    expect(b.objects).toHaveLength(20);
    expect(b.objects!.slice(0, 4).map((o) => [o.number, o.name, o.classId])).toEqual([
      [1, 'left hand 1', 'hand:left'],
      [2, 'right hand 2', 'hand:right'],
      [3, 'right glove 3', 'glove:right'],
      [4, 'knife 4', '4'],
    ]);
    expect(b.labels!.classes.find((c) => c.id === '4')!.parentId).toBe('1000');
    // Plain COCO has no unannotated frames: frame 2 comes back as an annotated frame with nothing on it.
    const px = objectPixels(b);
    const expected = objectPixels(a);
    for (const k of [0, 1, 3]) expect(px[k]).toEqual(expected[k]);
    expect(relationsByNumber(b)).toEqual({ 0: [], 1: [], 3: [] });
  });

  it('refuses hostile files naming the file and the problem', () => {
    const a = objectsClip(8);
    const base = () => JSON.parse(text(exportCocoFile([a]))) as CocoObjectsJson & { images: Record<string, unknown>[] };
    const bad = (mutate: (d: ReturnType<typeof base>) => void, message: RegExp | string) => {
      const d = base();
      mutate(d);
      const run = () => importCoco(JSON.stringify(d), 'bad.json', { newId: ids() });
      expect(run).toThrow(ImportError);
      expect(run).toThrow(message);
    };
    bad((d) => (d.annotations[0].spoc_object_id = 'nobody'), 'bad.json: annotations[0].spoc_object_id names object nobody, which spoc_objects does not list');
    bad((d) => (d.annotations[1].spoc_object_id = d.annotations[0].spoc_object_id), /annotations\[1\] is a second annotation of object/);
    bad((d) => (d.annotations[0].category_id = 77), 'bad.json: annotations[0].category_id 77 is not the id of a category');
    bad((d) => (d.annotations[0].segmentation = { size: [3, 3], counts: '9' }), /annotations\[0\]\.segmentation/);
    bad((d) => ((d.images[0].spoc_relations as { subject_id: string }[])[0].subject_id = 'ghost'), /images\[0\]\.spoc_relations\[0\]\.subject_id names object ghost/);
    bad((d) => ((d.images[0].spoc_relations as { answer: string }[])[0].answer = 'maybe'), /spoc_relations\[0\]\.answer/);
    bad((d) => ((d.images[0].spoc_relations as { object_id?: string }[])[0].object_id = undefined), /spoc_relations\[0\]\.object_id is missing/);
    bad((d) => (d.spoc_objects[1].number = 1), /spoc_objects\[1\]\.number 1 is the number of another object/);
    bad((d) => (d.spoc_classes[0].colour = 'blue'), /bad\.json: spoc_classes\[0\]\.colour/);
    bad((d) => (d.categories[1].id = d.categories[0].id), /categories\[1\]\.id 300 is used by two categories/);
    bad((d) => (d.annotations[0].spoc_provenance = { kind: 'guessed', by: 'x' } as never), /spoc_provenance\.kind/);
  });

  it('keeps SPOC projects on the states export', () => {
    const a = { ...objectsClip(8), labels: { ...OBJECTS_LABELS, kind: 'spoc' as const } };
    const doc = JSON.parse(text(exportCocoFile([a]))) as { categories: { name: string }[]; spoc: Record<string, unknown> };
    expect(doc.categories.map((c) => c.name)).toEqual(['actionable', 'transformed']);
    expect(doc.spoc.kind).toBeUndefined();
    expect(() => exportCocoFile([a, objectsClip(8, 'other')])).toThrow('cannot share one COCO file');
  });
});
