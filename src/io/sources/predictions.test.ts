import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LabelMap } from '../../masks/labelMap';
import { decodeLayer, encodeLayer, parseLayer } from '../../masks/layers';
import { countFrame } from '../../metrics/spoc';
import type { VirtualFile } from '../files/virtualFile';
import { exportCocoFile } from '../formats/cocoExport';
import type { ClipAnnotations, FrameMask } from '../formats/model';
import { ImportError } from '../importError';
import { VOC_PALETTE, encodeIndexedPng } from '../indexedPng';
import type { SpocDb } from '../../store/db';
import { StoreError } from '../../store/errors';
import { commitClipImport } from '../../store/importCommit';
import { getLayer, listLayers } from '../../store/layers';
import { createProject } from '../../store/projects';
import { H, W, freshDb, importDraft, snapshot } from '../../testing/storeFixtures';
import type { Clip } from '../../store/types';
import { errorMap } from '../../review/errorMap';
import {
  importPredictionCoco,
  importPredictionPngs,
  predictionSource,
  predictionTarget,
  readPredictionCoco,
  readPredictionPngs,
} from './predictions';
import { rects } from '../../testing/review';

const gtA = rects(W, H, 0, [1, 0, 0, 3, 4], [2, 3, 0, 3, 4]);
const gtB = rects(W, H, 0, [1, 0, 2, 2, 2], [2, 2, 1, 5, 4]);

let db: SpocDb;
let named: Clip;
let unnamed: Clip;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  const draft = importDraft(p.id, 4);
  draft.clip.name = 'v1';
  draft.frames.forEach((f, k) => (f.name = `img_${k + 1}`));
  const provenance = { kind: 'imported' as const, by: 'test', at: 1 };
  draft.layers = [gtA, gtB].map((m, frameIndex) => ({ frameIndex, source: 'gt' as const, ...encodeLayer(m), provenance }));
  named = await commitClipImport(db, draft);
  // A clip imported before frames had names (or from a video): frames are frame0000, frame0001, ...
  unnamed = await commitClipImport(db, importDraft(p.id, 3));
});
afterEach(() => db.close());

const mapA = rects(W, H, 0, [1, 0, 0, 4, 3], [2, 4, 0, 4, 3]);
const mapB = rects(W, H, 0, [2, 1, 1, 5, 4]);

function png(path: string, map: LabelMap): VirtualFile {
  return { path, blob: new Blob([encodeIndexedPng(map, VOC_PALETTE) as Uint8Array<ArrayBuffer>]) };
}

async function rejection<E>(p: Promise<unknown>, type: new (...a: never[]) => E): Promise<E> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(type);
  return err as E;
}

describe('predictionSource', () => {
  it('makes pred:<name> and refuses unusable names', () => {
    expect(predictionSource('sam2')).toBe('pred:sam2');
    expect(predictionSource('pred:sam2')).toBe('pred:sam2');
    expect(() => predictionSource('')).toThrow(/needs a name/);
    expect(() => predictionSource('pred:')).toThrow(/needs a name/);
    expect(() => predictionSource(' x')).toThrow(/space/);
    expect(() => predictionSource('a\u0001')).toThrow(/control character/);
  });
});

describe('PNG prediction import', () => {
  it('reads the clip\'s folder of a DAVIS tree, matches frames by name, writes pred:<name> only', async () => {
    const gtBefore = await listLayers(db, named.id, 'gt');
    const files = [
      png('preds/Annotations/v1/img_1.png', mapA),
      png('preds/Annotations/v1/IMG_3.png', mapB),
      png('preds/Annotations/v2/img_1.png', mapB),
      { path: 'preds/JPEGImages/v1/img_1.jpg', blob: new Blob(['x']) },
    ];
    const result = await importPredictionPngs(db, named.id, files, 'preds', 'sam2', { by: 'rev' });
    expect(result).toMatchObject({ source: 'pred:sam2', frames: 2, replaced: 0 });
    expect(result.warnings).toEqual(['preds/Annotations/v1: 2 of 4 frames have no prediction (e.g. img_2); they score as empty predictions']);
    const l0 = await getLayer(db, named.id, 'pred:sam2', 0);
    expect(Array.from(decodeLayer(parseLayer(l0!), { width: W, height: H }).data)).toEqual(Array.from(mapA.data));
    expect(l0!.provenance).toMatchObject({ kind: 'imported', by: 'rev', from: 'preds/Annotations/v1/img_1.png' });
    expect((await getLayer(db, named.id, 'pred:sam2', 2))!.trfArea).toBe(20);
    expect(await listLayers(db, named.id, 'gt')).toEqual(gtBefore);
  });

  it('reads a WhereToChange tree and a plain folder', async () => {
    const wtc = [png('peeling_banana/gt/masks/v1/img_2.png', mapA), png('peeling_banana/gt/masks/other/img_2.png', mapB)];
    const draft = await readPredictionPngs(wtc, 'x', await predictionTarget(db, named.id), 'm');
    expect([...draft.layers.keys()]).toEqual([1]);
    const flat = await readPredictionPngs([png('out/img_4.png', mapB)], 'out', await predictionTarget(db, named.id), 'm');
    expect([...draft.layers.keys(), ...flat.layers.keys()]).toEqual([1, 3]);
  });

  it('takes the clip\'s folder under pred/masks when a gt export is unpacked beside the prediction', async () => {
    const both = [png('peeling_banana/gt/masks/v1/img_1.png', mapA), png('peeling_banana/pred/masks/v1/img_3.png', mapB)];
    const draft = await readPredictionPngs(both, 'x', await predictionTarget(db, named.id), 'm');
    expect([...draft.from.values()]).toEqual(['peeling_banana/pred/masks/v1/img_3.png']);
  });

  it('matches clips without stored names by position names, or by order when asked', async () => {
    const target = await predictionTarget(db, unnamed.id);
    const byName = await readPredictionPngs([png('p/frame0002.png', mapA)], 'p', target, 'm');
    expect([...byName.layers.keys()]).toEqual([2]);
    const files = [png('p/a10.png', mapA), png('p/a2.png', mapB), png('p/a1.png', mapB)];
    const err = await rejection(readPredictionPngs(files, 'p', target, 'm'), ImportError);
    expect(err.message).toMatch(/^p\/a1\.png: matches no frame of clip "peel banana 01" \(its frames are named frame0000, frame0001, frame0002; .*try matching by order\)/);
    const byOrder = await readPredictionPngs(files, 'p', target, 'm', { match: 'order' });
    // Natural order: a1, a2, a10.
    expect([...byOrder.layers].map(([k]) => [k, byOrder.from.get(k)])).toEqual([
      [0, 'p/a1.png'],
      [1, 'p/a2.png'],
      [2, 'p/a10.png'],
    ]);
    await expect(readPredictionPngs(files.slice(1), 'p', target, 'm', { match: 'order' })).rejects.toThrow(/^p: has 2 masks but clip "peel banana 01" has 3 frames/);
  });

  it('reads non-state values of a WhereToChange mask folder (release labels, void) as background, with a warning', async () => {
    const odd = rects(W, H, 0, [1, 0, 0, 2, 2], [4, 2, 0, 2, 2], [255, 4, 0, 1, 1]);
    const dir = 'x/peeling_banana/pred/masks/v1';
    const draft = await readPredictionPngs([png(`${dir}/img_1.png`, odd)], 'x', await predictionTarget(db, named.id), 'm');
    expect(draft.warnings).toContain(`${dir}: 5 pixels labelled 3, 4, 5 or 255 were read as background`);
    expect(Array.from(decodeLayer(draft.layers.get(0)!).data)).toEqual(Array.from(rects(W, H, 0, [1, 0, 0, 2, 2]).data));
  });

  // Failed before: a DAVIS multi-object mask (ids 1..4) was imported with objects 3 and 4 as background.
  it('refuses a DAVIS-layout mask holding object ids 1..4, naming the file and the labels, and writes nothing', async () => {
    const objects = rects(W, H, 0, [1, 0, 0, 2, 2], [2, 2, 0, 2, 2], [3, 4, 0, 2, 2], [4, 0, 3, 2, 2]);
    const before = await snapshot(db);
    const err = await rejection(
      importPredictionPngs(db, named.id, [png('preds/Annotations/v1/img_1.png', objects), png('preds/Annotations/v1/img_2.png', mapB)], 'preds', 'm'),
      ImportError,
    );
    expect(err.message).toMatch(/^preds\/Annotations\/v1\/img_1\.png: holds labels 0, 1, 2, 3, 4: 3, 4 are not SPOC labels \(label 3 first at x=4, y=0\)/);
    expect(err.message).toContain('spoc-studio eval --task vos');
    expect(await snapshot(db)).toEqual(before);
    // A flat folder of masks is the DAVIS palette too: release label 4 has no meaning there.
    const flat = await rejection(readPredictionPngs([png('p/img_1.png', rects(W, H, 0, [4, 0, 0, 1, 1]))], 'p', await predictionTarget(db, named.id), 'm'), ImportError);
    expect(flat.message).toMatch(/^p\/img_1\.png: holds labels 0, 4: 4 is not a SPOC label/);
  });

  it.each<[string, VirtualFile[], RegExp]>([
    ['a mask of another size', [png('p/img_1.png', rects(W + 1, H, 0))], /^p\/img_1\.png: size 9x6 does not match the size of clip "v1", 8x6/],
    ['an unknown frame', [png('p/img_1.png', mapA), png('p/img_9.png', mapA)], /^p\/img_9\.png: matches no frame of clip "v1" \(its frames are named img_1, img_2, …, img_4\)/],
    ['two masks for one frame', [png('p/img_1.png', mapA), png('p/IMG_1.png', mapA)], /has the same frame name as/],
    ['no folder named after the clip', [png('a/img_1.png', mapA), png('b/img_1.png', mapA)], /^in: holds masks in 2 folders \(a\/, b\/\) and none is named after clip "v1"/],
    ['no PNG at all', [{ path: 'x.jpg', blob: new Blob(['x']) }], /^in: has no PNG masks/],
    ['a corrupt PNG', [{ path: 'p/img_1.png', blob: new Blob([new Uint8Array([137, 80, 78, 71, 1, 2])]) }], /^p\/img_1\.png: /],
  ])('refuses %s, naming the file, and writes nothing', async (_what, files, message) => {
    const before = await snapshot(db);
    const err = await rejection(importPredictionPngs(db, named.id, files, 'in', 'm'), ImportError);
    expect(err.message).toMatch(message);
    expect(await snapshot(db)).toEqual(before);
  });

  it('replaces an existing prediction of the same name only when asked', async () => {
    await importPredictionPngs(db, named.id, [png('p/img_1.png', mapA), png('p/img_2.png', mapA)], 'p', 'm');
    const before = await snapshot(db);
    const err = await rejection(importPredictionPngs(db, named.id, [png('p/img_3.png', mapB)], 'p', 'm'), StoreError);
    expect(err.message).toMatch(/already has pred:m layers \(2 frames\); choose another name or replace them/);
    expect(await snapshot(db)).toEqual(before);
    const res = await importPredictionPngs(db, named.id, [png('p/img_3.png', mapB)], 'p', 'm', { replace: true });
    expect(res).toMatchObject({ frames: 1, replaced: 2 });
    expect((await listLayers(db, named.id, 'pred:m')).map((l) => l.frameIndex)).toEqual([2]);
  });

  it('gives an error map whose counts are the metric code\'s', async () => {
    await importPredictionPngs(db, named.id, [png('p/img_1.png', mapA), png('p/img_2.png', mapB)], 'p', 'm');
    for (const k of [0, 1]) {
      const gt = decodeLayer(parseLayer((await getLayer(db, named.id, 'gt', k))!), { width: W, height: H });
      const pred = decodeLayer(parseLayer((await getLayer(db, named.id, 'pred:m', k))!), { width: W, height: H });
      const { counts } = errorMap(gt, pred);
      const c = countFrame(gt, pred);
      const self = countFrame(gt, gt);
      expect(counts.fpAct + counts.fpTrf).toBe(c.uObj - self.iObj);
      expect(counts.fnAct + counts.fnTrf).toBe(self.iObj - c.iObj);
      expect(counts.tpAct).toBe(c.iAct);
      expect(counts.tpTrf).toBe(c.iTrf);
      expect(counts.fpAct + counts.fpTrf + counts.fnAct + counts.fnTrf).toBeGreaterThan(0);
    }
  });
});

describe('COCO prediction import', () => {
  function cocoOf(name: string, frames: string[], masks: [number, LabelMap][], size = { width: W, height: H }): string {
    const a: ClipAnnotations = {
      clip: { name, ...size, fps: 1 },
      frames: frames.map((n, k) => ({ name: n, timestampSec: k })),
      sources: new Map([['pred:x', new Map<number, FrameMask>(masks.map(([k, m]) => [k, encodeLayer(m)]))]]),
    };
    return JSON.stringify(JSON.parse(new TextDecoder().decode(exportCocoFile([a], { source: 'pred:x' }).data as Uint8Array)));
  }

  it('reads masks by frame name into pred:<name>', async () => {
    const json = cocoOf('v1', ['img_2', 'img_4'], [[0, mapA], [1, mapB]]);
    const res = await importPredictionCoco(db, named.id, json, 'preds.json', 'coco-model');
    expect(res).toMatchObject({ source: 'pred:coco-model', frames: 2 });
    const layers = await listLayers(db, named.id, 'pred:coco-model');
    expect(layers.map((l) => [l.frameIndex, l.actArea, l.trfArea, l.provenance.from])).toEqual([
      [1, 12, 12, 'preds.json: img_2'],
      [3, 0, 20, 'preds.json: img_4'],
    ]);
  });

  it('picks the video named after the clip from a file with several', () => {
    const a = JSON.parse(cocoOf('v0', ['img_1'], [[0, mapB]]));
    const b = JSON.parse(cocoOf('v1', ['img_1'], [[0, mapA]]));
    // Two exports merged by hand: ids made unique.
    const merged = {
      ...a,
      videos: [...a.videos, { ...b.videos[0], id: 2 }],
      images: [...a.images, ...b.images.map((i: { id: number }) => ({ ...i, id: i.id + 100, video_id: 2 }))],
      annotations: [...a.annotations, ...b.annotations.map((x: { id: number; image_id: number }) => ({ ...x, id: x.id + 100, image_id: x.image_id + 100 }))],
    };
    return predictionTarget(db, named.id).then((target) => {
      const draft = readPredictionCoco(JSON.stringify(merged), 'm.json', target, 'm');
      expect(Array.from(decodeLayer(draft.layers.get(0)!).data)).toEqual(Array.from(mapA.data));
    });
  });

  it.each<[string, () => string, RegExp]>([
    ['another size', () => cocoOf('v1', ['img_1'], [[0, rects(4, 4, 1)]], { width: 4, height: 4 }), /^p\.json: video "v1" is 4x4 but clip "v1" is 8x6/],
    ['an unknown frame', () => cocoOf('v1', ['img_1', 'nope'], [[0, mapA]]), /^p\.json: image "nope" of video "v1" matches no frame of clip "v1"/],
    ['broken JSON', () => '{"images": [', /^p\.json: /],
  ])('refuses %s, naming the file, and writes nothing', async (_what, json, message) => {
    const before = await snapshot(db);
    const err = await rejection(importPredictionCoco(db, named.id, json(), 'p.json', 'm'), ImportError);
    expect(err.message).toMatch(message);
    expect(await snapshot(db)).toEqual(before);
  });
});
