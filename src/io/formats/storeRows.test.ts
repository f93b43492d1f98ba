import { describe, expect, it } from 'vitest';
import { encodeLayer } from '../../masks/layers';
import type { Clip, Frame } from '../../store/types';
import { exportCoco } from './cocoExport';
import { annotationsFromStore, storeRowsFromAnnotations } from './storeRows';
import { maskBytes, sampleClip, shapes } from './testdata/fixtures';
import { expectSameObjects, objectsClip } from './testdata/objectsFixtures';

const clipRow: Pick<Clip, 'name' | 'width' | 'height' | 'sampleFps' | 'osc' | 'subset'> = {
  name: 'clip-1',
  width: 24,
  height: 16,
  sampleFps: 1,
  osc: { verb: 'peeling', noun: 'banana', actionable: 'unpeeled banana', transformed: 'peeled banana' },
  subset: 'seen',
};
const frameRows: Frame[] = [
  { clipId: 'c', index: 1, timestampSec: 1, ignored: { reason: 'mixed', by: 'rev', at: 5 } },
  { clipId: 'c', index: 0, timestampSec: 0, phase: 'initial', reviewed: true },
];
const layerRows = [
  { frameIndex: 0, source: 'gt' as const, ...encodeLayer(shapes(0)) },
  { frameIndex: 1, source: 'pred:m' as const, ...encodeLayer(shapes(1)) },
];

describe('store rows <-> ClipAnnotations', () => {
  it('maps rows to the model, naming frames frame0000... by default', () => {
    const a = annotationsFromStore({ clip: clipRow, frames: frameRows, layers: layerRows });
    expect(a.clip).toEqual({ name: 'clip-1', width: 24, height: 16, fps: 1, osc: clipRow.osc, subset: 'seen' });
    expect(a.frames).toEqual([
      { name: 'frame0000', timestampSec: 0, phase: 'initial', reviewed: true },
      { name: 'frame0001', timestampSec: 1, ignored: { reason: 'mixed', by: 'rev', at: 5 } },
    ]);
    expect([...a.sources.keys()]).toEqual(['gt', 'pred:m']);
    expect(maskBytes(a)[0]).toEqual(Array.from(shapes(0).data));
    expect(exportCoco([a]).images.map((i) => i.file_name)).toEqual(['clip-1/frame0000.jpg', 'clip-1/frame0001.jpg']);
  });

  it('maps the model back to rows; rows -> model -> rows is the identity', () => {
    const a = annotationsFromStore({ clip: clipRow, frames: frameRows, layers: layerRows, frameNames: ['a', 'b'] });
    const rows = storeRowsFromAnnotations(a, 99);
    expect(rows.clip).toEqual({ name: 'clip-1', width: 24, height: 16, sampleFps: 1, frameCount: 2, osc: clipRow.osc, subset: 'seen' });
    expect(rows.frames).toEqual([...frameRows].sort((x, y) => x.index - y.index).map(({ clipId: _c, ...f }) => f));
    expect(rows.frameNames).toEqual(['a', 'b']);
    expect(rows.layers).toEqual(layerRows);
  });

  it('stamps ignores without a time, and encodes label-map masks', () => {
    const rows = storeRowsFromAnnotations(sampleClip(), 1234);
    expect(rows.frames[4].ignored).toEqual({ reason: 'not_visible', at: 1234 });
    expect(rows.layers.map((l) => `${l.source}:${l.frameIndex}`)).toEqual(['gt:0', 'gt:1', 'gt:3', 'gt:4', 'pred:model-a:0']);
    expect(rows.layers[0].act).toEqual(encodeLayer(shapes(0)).act);
  });

  it('refuses gaps in frame indices and invalid stored RLE', () => {
    expect(() => annotationsFromStore({ clip: clipRow, frames: [frameRows[0]], layers: [] })).toThrow('frame indices must be 0..0; found 1 at position 0');
    const bad = [{ ...layerRows[0], act: { size: [16, 24] as [number, number], counts: '!!' } }];
    expect(() => annotationsFromStore({ clip: clipRow, frames: frameRows, layers: bad })).toThrow('invalid character');
  });
});

describe('store rows <-> ClipAnnotations with objects', () => {
  it('keeps object rows, each layer object (RLE, area, presence, keyframe, exhaustive, provenance), relations and the schema: store -> model -> store is lossless', () => {
    const a = objectsClip(22, 'clip-1', { provenance: true });
    const rows = storeRowsFromAnnotations(a, 42);
    expect(rows.objects).toHaveLength(22);
    expect(rows.labels).toBe(a.labels);
    const layer0 = rows.layers.find((l) => l.frameIndex === 0)!;
    expect(layer0.objects).toHaveLength(22);
    expect(layer0.objects!.reduce((n, o) => n + o.area, 0)).toBeGreaterThan(0);
    expect(layer0.objects![7].provenance).toEqual({ kind: 'interpolated', by: 'interp', at: 5, confidence: 0.5 });
    expect(layer0.relations).toHaveLength(3);
    const frames = rows.frames.map((f) => ({ ...f, clipId: 'c', name: rows.frameNames[f.index] }));
    const objectRows = rows.objects!.map((o) => ({ ...o, clipId: 'c', createdAt: 1, createdBy: 'me', updatedAt: 1 }));
    // A removed object no layer names stays out; one a layer still names stays in.
    const removed = { id: 'gone', clipId: 'c', number: 99, name: 'gone', createdAt: 1, createdBy: 'me', updatedAt: 1, deletedAt: 2 };
    const back = annotationsFromStore({ clip: { ...clipRow, width: a.clip.width, height: a.clip.height }, frames, layers: rows.layers, objects: [...objectRows, removed], labels: a.labels });
    expectSameObjects(back, a, { provenance: true });
    expect(back.objects).toEqual(a.objects);
    const again = storeRowsFromAnnotations(back, 43);
    expect(again.layers).toEqual(rows.layers);
    expect(again.objects).toEqual(rows.objects);
  });

  it('stamps imported provenance without a time with the import time', () => {
    const a = objectsClip(8);
    a.objectMasks!.get('gt')!.get(0)!.objects[0].provenance = { kind: 'imported', by: 'visor', from: 'abc' };
    expect(storeRowsFromAnnotations(a, 42).layers[0].objects![0].provenance).toEqual({ kind: 'imported', by: 'visor', from: 'abc', at: 42 });
  });
});
