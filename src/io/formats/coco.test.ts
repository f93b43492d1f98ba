import { describe, expect, it } from 'vitest';
import { decodeRle } from '../../masks/rle';
import { sq } from '../../masks/testdata/naive';
import { exportCoco, exportCocoFile } from './cocoExport';
import { importCoco } from './cocoImport';
import type { ClipAnnotations, LayerMasks } from './model';
import { expectSameClip, sampleClip, text } from './testdata/fixtures';

const map = (w: number, h: number, act: Uint8Array, trf?: Uint8Array) => {
  const data = new Uint8Array(w * h);
  for (let i = 0; i < data.length; i++) data[i] = act[i] ? 1 : trf?.[i] ? 2 : 0;
  return { width: w, height: h, data };
};

function tinyClips(): ClipAnnotations[] {
  return [
    {
      clip: { name: 'a', width: 5, height: 5, fps: 1 },
      frames: [
        { name: 'f0', timestampSec: 0 },
        { name: 'f1', timestampSec: 1 },
      ],
      sources: new Map([
        [
          'gt',
          new Map([
            [0, map(5, 5, sq(5, 5, 1, 3, 1, 3))],
            [1, map(5, 5, new Uint8Array(25), sq(5, 5, 1, 3, 2, 4))],
          ]),
        ],
      ]),
    },
    {
      clip: { name: 'b', width: 3, height: 2, fps: 1 },
      frames: [{ name: 'f0', timestampSec: 0 }],
      sources: new Map([['gt', new Map([[0, map(3, 2, Uint8Array.of(0, 1, 1, 0, 1, 0))]])]]),
    },
  ];
}

describe('COCO export (pycocotools-exact, reference vectors §2)', () => {
  it('writes compressed counts, area and bbox as pycocotools, one annotation per (frame, state)', () => {
    const ds = exportCoco(tinyClips());
    expect(ds.categories).toEqual([
      { id: 1, name: 'actionable', supercategory: 'object_state' },
      { id: 2, name: 'transformed', supercategory: 'object_state' },
    ]);
    expect(ds.annotations).toEqual([
      { id: 1, image_id: 1, category_id: 1, segmentation: { size: [5, 5], counts: '6320004' }, area: 9, bbox: [1, 1, 3, 3], iscrowd: 0 },
      { id: 2, image_id: 2, category_id: 2, segmentation: { size: [5, 5], counts: ';32000O' }, area: 9, bbox: [2, 1, 3, 3], iscrowd: 0 },
      { id: 3, image_id: 3, category_id: 1, segmentation: { size: [2, 3], counts: '231' }, area: 3, bbox: [1, 0, 2, 2], iscrowd: 0 },
    ]);
    expect(ds.images[0]).toEqual({ id: 1, file_name: 'a/f0.jpg', width: 5, height: 5, video_id: 1, video: 'a', frame: 'f0', frame_index: 0, timestamp_sec: 0 });
    expect(ds.videos[1]).toEqual({ id: 2, name: 'b', width: 3, height: 2, fps: 1 });
  });

  it('serialises with the fields pycocotools needs and nothing undefined', () => {
    const doc = JSON.parse(text(exportCocoFile(tinyClips())));
    expect(Object.keys(doc)).toEqual(['info', 'licenses', 'spoc', 'videos', 'images', 'annotations', 'categories']);
    expect(doc.images[1]).toEqual({ id: 2, file_name: 'a/f1.jpg', width: 5, height: 5, video_id: 1, video: 'a', frame: 'f1', frame_index: 1, timestamp_sec: 1 });
  });

  it('refuses two clips with one name', () => {
    expect(() => exportCoco([sampleClip('x'), sampleClip('x')])).toThrow('two clips are named "x"');
  });
});

describe('COCO round trip', () => {
  it('export -> import: identical metadata and label maps for several clips', () => {
    const clips = [sampleClip('v1'), sampleClip('v2')];
    const { clips: back, warnings } = importCoco(exportCocoFile(clips).data as Uint8Array, 'annotations.json');
    expect(warnings).toEqual([]);
    expect(back).toHaveLength(2);
    back.forEach((c, i) => expectSameClip(c.annotations, clips[i]));
  });

  it('carries a prediction source, and the result exports to the same bytes', () => {
    const clips = [sampleClip('v1')];
    const first = text(exportCocoFile(clips, { source: 'pred:model-a' }));
    const back = importCoco(first, 'p.json').clips.map((c) => c.annotations);
    expect([...back[0].sources.keys()]).toEqual(['pred:model-a']);
    expect(text(exportCocoFile(back, { source: 'pred:model-a' }))).toBe(first);
  });
});

describe('COCO import of foreign files', () => {
  const image = (id: number | string, file_name: string, width: number, height: number) => ({ id, file_name, width, height });
  const cats = [
    { id: 3, name: 'actionable' },
    { id: 7, name: 'Transformed' },
    { id: 9, name: 'hand' },
  ];
  const layerOf = (result: ReturnType<typeof importCoco>, clip: number, frame: number) =>
    result.clips[clip].annotations.sources.get('gt')!.get(frame) as LayerMasks;

  it('rasterises polygons as pycocotools frPoly, reads uncompressed counts, maps categories by name, groups by folder', () => {
    const doc = {
      images: [image('x', 'six/0001.jpg', 6, 6), image('y', 'small/0001.jpg', 3, 2), image('z', 'small/0002.jpg', 3, 2)],
      categories: cats,
      annotations: [
        { id: 1, image_id: 'x', category_id: 3, segmentation: [[1, 1, 4, 1, 4, 4, 1, 4]], area: 9, bbox: [1, 1, 3, 3], iscrowd: 0 },
        { id: 2, image_id: 'y', category_id: 7, segmentation: { size: [2, 3], counts: [2, 3, 1] }, iscrowd: 1 },
        { id: 3, image_id: 'y', category_id: 9, segmentation: { size: [2, 3], counts: '06' }, score: 0.9 },
      ],
    };
    const result = importCoco(JSON.stringify(doc), 'ann.json');
    expect(result.clips.map((c) => c.annotations.clip)).toEqual([
      { name: 'six', width: 6, height: 6, fps: 1 },
      { name: 'small', width: 3, height: 2, fps: 1 },
    ]);
    expect(result.clips[1].annotations.frames).toEqual([
      { name: '0001', timestampSec: 0 },
      { name: '0002', timestampSec: 1 },
    ]);
    // Reference vector: polygon [1,1,4,1,4,4,1,4] on 6x6 -> '733000;'.
    expect(layerOf(result, 0, 0).act.counts).toBe('733000;');
    expect(layerOf(result, 1, 0).trf.counts).toBe('231');
    // An image with no annotations is an annotated, empty frame in plain COCO.
    expect(layerOf(result, 1, 1)).toEqual({ act: { size: [2, 3], counts: '6' }, trf: { size: [2, 3], counts: '6' } });
    expect(result.warnings).toEqual([
      'ann.json: annotations entries have unknown fields "score" (ignored)',
      'ann.json: 1 annotation(s) of categories other than actionable/transformed were skipped',
    ]);
  });

  it('unites several instances of one state (reference: merge E, F -> 63200000O)', () => {
    const doc = {
      images: [image(1, 'v/a.jpg', 5, 5)],
      categories: cats,
      annotations: [
        { id: 1, image_id: 1, category_id: 3, segmentation: { size: [5, 5], counts: '6320004' } },
        { id: 2, image_id: 1, category_id: 3, segmentation: { size: [5, 5], counts: ';32000O' } },
      ],
    };
    expect(layerOf(importCoco(JSON.stringify(doc), 'a.json'), 0, 0).act.counts).toBe('63200000O');
  });

  it('resolves act/trf overlap: transformed wins by default (warned), actionable on request, or refuses', () => {
    const doc = {
      images: [image(1, 'v/a.jpg', 5, 5)],
      categories: cats,
      annotations: [
        { id: 1, image_id: 1, category_id: 3, segmentation: { size: [5, 5], counts: '6320004' } },
        { id: 2, image_id: 1, category_id: 7, segmentation: { size: [5, 5], counts: ';32000O' } },
      ],
    };
    const json = JSON.stringify(doc);
    const byDefault = importCoco(json, 'a.json');
    const l = layerOf(byDefault, 0, 0);
    expect(Array.from(decodeRle(l.act))).toEqual(Array.from(sq(5, 5, 1, 3, 1, 1)));
    expect(Array.from(decodeRle(l.trf))).toEqual(Array.from(sq(5, 5, 1, 3, 2, 4)));
    expect(byDefault.warnings).toEqual(['a.json: 6 pixels on 1 image(s) were in both states; transformed was kept']);
    const actWins = layerOf(importCoco(json, 'a.json', { overlap: 'actionable' }), 0, 0);
    expect(Array.from(decodeRle(actWins.trf))).toEqual(Array.from(sq(5, 5, 1, 3, 4, 4)));
    expect(() => importCoco(json, 'a.json', { overlap: 'error' })).toThrow(
      'a.json: images[0] has 6 pixels in both states (actionable and transformed); choose which state wins with the overlap option',
    );
  });

  it('maps categories by id when asked, and explains when nothing maps', () => {
    const doc = {
      images: [image(1, 'a.jpg', 2, 1)],
      categories: [
        { id: 1, name: 'whole onion' },
        { id: 2, name: 'chopped onion' },
      ],
      annotations: [{ id: 1, image_id: 1, category_id: 2, segmentation: { size: [1, 2], counts: '11' } }],
    };
    const json = JSON.stringify(doc);
    expect(() => importCoco(json, 'o.json')).toThrow(
      'o.json: categories have no "actionable" or "transformed" category (found "whole onion", "chopped onion"); map category ids to states with the categories option',
    );
    const result = importCoco(json, 'o.json', { categories: { actionable: [1], transformed: [2] } });
    // No folder in file_name: one clip named after the JSON file.
    expect(result.clips[0].annotations.clip.name).toBe('o');
    expect(layerOf(result, 0, 0).trf.counts).toBe('11');
    expect(() => importCoco(json, 'o.json', { categories: { actionable: [5], transformed: [] } })).toThrow('o.json: categories have no id 5');
  });

  it('orders frames by frame_index when every image has one', () => {
    const doc = {
      images: [
        { ...image(1, 'v/b.jpg', 1, 1), frame_index: 1 },
        { ...image(2, 'v/a.jpg', 1, 1), frame_index: 0 },
      ],
      categories: cats,
      annotations: [],
    };
    expect(importCoco(JSON.stringify(doc), 'x.json').clips[0].annotations.frames.map((f) => f.name)).toEqual(['a', 'b']);
  });
});
