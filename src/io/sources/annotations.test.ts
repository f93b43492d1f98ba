import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LabelMap } from '../../masks/labelMap';
import { decodeLayer, encodeLayer, parseLayer } from '../../masks/layers';
import type { VirtualFile } from '../files/virtualFile';
import { exportCocoFile } from '../formats/cocoExport';
import type { ClipAnnotations, FrameMask } from '../formats/model';
import { ImportError } from '../importError';
import { VOC_PALETTE, encodeIndexedPng } from '../indexedPng';
import { theirSourceName } from '../bundle/merge';
import type { SpocDb } from '../../store/db';
import { StoreError } from '../../store/errors';
import { commitClipImport } from '../../store/importCommit';
import { getLayer, listLayerSources, listLayers } from '../../store/layers';
import { createProject } from '../../store/projects';
import { H, W, freshDb, importDraft, snapshot } from '../../testing/storeFixtures';
import type { Clip } from '../../store/types';
import { isLayerSource } from '../../store/validate';
import { rects } from '../../testing/review';
import { annotationSource, importAnnotationCoco, importAnnotationPngs, isAnnotationSource } from './annotations';

const gt0 = rects(W, H, 0, [1, 0, 0, 3, 4], [2, 3, 0, 3, 4]);
const annA = rects(W, H, 0, [1, 0, 0, 4, 3], [2, 4, 0, 4, 3]);
const annB = rects(W, H, 0, [2, 1, 1, 5, 4]);

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  const draft = importDraft(p.id, 3);
  draft.clip.name = 'v1';
  draft.frames.forEach((f, k) => (f.name = `img_${k + 1}`));
  draft.layers = [{ frameIndex: 0, source: 'gt' as const, ...encodeLayer(gt0), provenance: { kind: 'imported' as const, by: 'test', at: 1 } }];
  clip = await commitClipImport(db, draft);
});
afterEach(() => db.close());

function png(path: string, map: LabelMap): VirtualFile {
  return { path, blob: new Blob([encodeIndexedPng(map, VOC_PALETTE) as Uint8Array<ArrayBuffer>]) };
}

const decoded = (l: { act: never; trf: never } | undefined) => Array.from(decodeLayer(parseLayer(l!), { width: W, height: H }).data);

describe('the ann:<name> layer source', () => {
  it('is a layer source the store, bundles and formats accept, distinct from predictions', () => {
    expect(isLayerSource('ann:bob')).toBe(true);
    expect(isLayerSource('ann:')).toBe(false);
    expect(isAnnotationSource('ann:bob')).toBe(true);
    expect(isAnnotationSource('pred:bob')).toBe(false);
    expect(annotationSource('bob')).toBe('ann:bob');
    expect(annotationSource('ann:bob')).toBe('ann:bob');
    expect(() => annotationSource('')).toThrow(/needs a name/);
    expect(() => annotationSource('bob ')).toThrow(/space/);
    expect(() => annotationSource('a\u0007')).toThrow(/control character/);
    // A bundle merged as "keep both" files their second annotation under their label, still ann:.
    expect(theirSourceName('ann:bob', 'laptop')).toBe('ann:laptop/bob');
    expect(theirSourceName('pred:m', 'laptop')).toBe('pred:laptop/m');
  });
});

describe('importing a second annotation', () => {
  it('reads PNGs like a prediction and writes ann:<name> only, gt untouched', async () => {
    const gtBefore = await listLayers(db, clip.id, 'gt');
    const result = await importAnnotationPngs(db, clip.id, [png('bob/img_1.png', annA), png('bob/img_3.png', annB)], 'bob', 'bob', { by: 'rev' });
    expect(result).toMatchObject({ source: 'ann:bob', frames: 2, replaced: 0 });
    expect(result.warnings).toEqual(['bob: 1 of 3 frames have no mask in this annotation (e.g. img_2); they are not compared']);
    expect(decoded((await getLayer(db, clip.id, 'ann:bob', 0)) as never)).toEqual(Array.from(annA.data));
    expect(decoded((await getLayer(db, clip.id, 'ann:bob', 2)) as never)).toEqual(Array.from(annB.data));
    expect((await getLayer(db, clip.id, 'ann:bob', 0))!.provenance).toMatchObject({ kind: 'imported', by: 'rev', from: 'bob/img_1.png' });
    expect(await listLayers(db, clip.id, 'gt')).toEqual(gtBefore);
    expect((await listLayerSources(db, clip.id)).sort()).toEqual(['ann:bob', 'gt']);
  });

  it('reads a COCO JSON (here one exported from another ann: source)', async () => {
    const a: ClipAnnotations = {
      clip: { name: 'v1', width: W, height: H, fps: 1 },
      frames: ['img_1', 'img_2'].map((n, k) => ({ name: n, timestampSec: k })),
      sources: new Map([['ann:x', new Map<number, FrameMask>([[1, encodeLayer(annA)]])]]),
    };
    const json = new TextDecoder().decode(exportCocoFile([a], { source: 'ann:x' }).data as Uint8Array);
    const result = await importAnnotationCoco(db, clip.id, json, 'bob.json', 'ann:bob');
    expect(result).toMatchObject({ source: 'ann:bob', frames: 1 });
    expect(decoded((await getLayer(db, clip.id, 'ann:bob', 1)) as never)).toEqual(Array.from(annA.data));
    expect(await listLayers(db, clip.id, 'ann:bob')).toHaveLength(1);
  });

  it('refuses bad input with the file named and leaves the store as it was', async () => {
    const before = await snapshot(db);
    const bad = importAnnotationPngs(db, clip.id, [png('bob/img_1.png', rects(W + 1, H, 0))], 'bob', 'bob');
    await expect(bad).rejects.toBeInstanceOf(ImportError);
    await expect(importAnnotationPngs(db, clip.id, [png('bob/img_1.png', annA)], 'bob', ' bob')).rejects.toThrow(/^bob: the annotation name " bob" starts or ends with a space/);
    await expect(importAnnotationPngs(db, clip.id, [png('bob/nope.png', annA)], 'bob', 'bob')).rejects.toThrow(/^bob\/nope\.png: matches no frame/);
    expect(await snapshot(db)).toEqual(before);
  });

  it('refuses a second import of the same name unless replacing', async () => {
    await importAnnotationPngs(db, clip.id, [png('bob/img_1.png', annA)], 'bob', 'bob');
    await expect(importAnnotationPngs(db, clip.id, [png('bob/img_2.png', annB)], 'bob', 'bob')).rejects.toBeInstanceOf(StoreError);
    const r = await importAnnotationPngs(db, clip.id, [png('bob/img_2.png', annB)], 'bob', 'bob', { replace: true });
    expect(r).toMatchObject({ frames: 1, replaced: 1 });
    expect((await listLayers(db, clip.id, 'ann:bob')).map((l) => l.frameIndex)).toEqual([1]);
  });
});
