import { beforeEach, describe, expect, it } from 'vitest';
import { createLabelMap } from '../../masks/labelMap';
import { decodeLayer, parseLayer } from '../../masks/layers';
import type { VirtualFile } from '../files/virtualFile';
import { encodeIndexedPng } from '../indexedPng';
import type { SpocDb } from '../../store/db';
import { commitClipImport } from '../../store/importCommit';
import { listLayers } from '../../store/layers';
import { createProject } from '../../store/projects';
import { H, W, freshDb, importDraft, snapshot } from '../../testing/storeFixtures';
import type { Clip } from '../../store/types';
import { predictionTarget } from './predictions';
import { commitProjectPredictions, readProjectPredictions } from './projectPredictions';

const png = (path: string, label: number, w = W, h = H): VirtualFile => {
  const map = createLabelMap(w, h);
  map.data.fill(label, 0, w);
  return { path, blob: new Blob([encodeIndexedPng(map) as Uint8Array<ArrayBuffer>], { type: 'image/png' }) };
};

let db: SpocDb;
let clips: Clip[];
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  clips = [];
  for (const name of ['a', 'b', 'c']) {
    const draft = importDraft(p.id, 3);
    draft.clip.name = name;
    clips.push(await commitClipImport(db, draft));
  }
});

const targets = () => Promise.all(clips.map((c) => predictionTarget(db, c.id)));

describe('a prediction for the whole project', () => {
  it('matches one folder per clip by name, reports the rest, and writes every clip in one go', async () => {
    // The app's WhereToChange export of a prediction, plus a gt export unpacked beside it, a stray folder and frames.
    const files = [
      png('peel_banana/pred/masks/A/frame0000.png', 1),
      png('peel_banana/pred/masks/A/frame0002.png', 2),
      png('peel_banana/gt/masks/a/frame0000.png', 2),
      png('peel_banana/pred/masks/b/frame0001.png', 1),
      png('peel_banana/pred/masks/zzz/frame0000.png', 1),
      { path: 'peel_banana/JPEGImages_1fps/a/frame0000.jpg', blob: new Blob(['x']) },
    ];
    const report = await readProjectPredictions(files, 'preds', await targets(), 'model');
    expect(report.errors).toEqual([]);
    expect(report.source).toBe('pred:model');
    expect(report.matched.map((m) => [m.clipName, m.folder, m.draft.layers.size])).toEqual([
      ['a', 'peel_banana/pred/masks/A', 2],
      ['b', 'peel_banana/pred/masks/b', 1],
    ]);
    expect(report.unmatchedFolders).toEqual(['peel_banana/pred/masks/zzz']);
    expect(report.clipsWithout).toEqual(['c']);
    expect(await commitProjectPredictions(db, report, { by: 'rob' })).toEqual({ clips: 2, frames: 3 });
    const a = await listLayers(db, clips[0].id, 'pred:model');
    expect(a.map((l) => [l.frameIndex, l.actArea, l.trfArea, l.provenance])).toEqual([
      [0, W, 0, { kind: 'imported', by: 'rob', at: expect.any(Number), from: 'peel_banana/pred/masks/A/frame0000.png' }],
      [2, 0, W, { kind: 'imported', by: 'rob', at: expect.any(Number), from: 'peel_banana/pred/masks/A/frame0002.png' }],
    ]);
    expect(decodeLayer(parseLayer(a[0]), { width: W, height: H }).data.slice(0, W)).toEqual(new Uint8Array(W).fill(1));
    expect(await listLayers(db, clips[2].id, 'pred:model')).toEqual([]);
  });

  it('matches a renamed clip by the name of its video; its current name wins, and a video imported twice matches neither', async () => {
    const p = clips[0].projectId;
    const add = async (name: string, fileName: string) => {
      const draft = importDraft(p, 3);
      draft.clip.name = name;
      draft.clip.source = { kind: 'video', fileName };
      clips.push(await commitClipImport(db, draft));
    };
    await add('coffee pour', 'Coffee.MP4'); // renamed in the app after import
    await add('cup left', 'cup.mp4'); // the same video imported twice, both renamed
    await add('cup right', 'cup.mp4');
    await add('dog walk', 'dog.mp4'); // both its names have a folder
    const files = [
      png('model/coffee/frame0000.png', 1),
      png('model/cup/frame0000.png', 1),
      png('model/dog/frame0000.png', 1),
      png('model/dog walk/frame0001.png', 2),
    ];
    const report = await readProjectPredictions(files, 'preds', await targets(), 'model');
    expect(report.errors).toEqual([]);
    expect(report.matched.map((m) => [m.clipName, m.folder])).toEqual([
      ['coffee pour', 'model/coffee'],
      ['dog walk', 'model/dog walk'],
    ]);
    expect(report.warnings).toContain('model/coffee: matched to clip "coffee pour" by the name of its video (Coffee.MP4)');
    expect(report.warnings.filter((w) => w.includes('by the name of its video'))).toHaveLength(1);
    expect(report.unmatchedFolders).toEqual(['model/cup', 'model/dog']);
  });

  it('lists every error with its file, and then writes nothing at all', async () => {
    const files = [
      png('m/a/frame0000.png', 1),
      png('m/b/frame0000.png', 1, W + 1, H),
      png('m/c/nope.png', 1),
    ];
    const before = await snapshot(db);
    const report = await readProjectPredictions(files, 'preds', await targets(), 'model');
    expect(report.matched.map((m) => m.clipName)).toEqual(['a']);
    expect(report.errors).toEqual([
      expect.stringMatching(/^m\/b\/frame0000\.png: .*9x6.*8x6/),
      expect.stringMatching(/^m\/c\/nope\.png: matches no frame of clip "c"/),
    ]);
    await expect(commitProjectPredictions(db, report)).rejects.toThrow('2 error(s) in the prediction; nothing was imported.');
    expect(await snapshot(db)).toEqual(before);
  });

  it('refuses a clip that already has the source unless replaced, leaving every clip as it was', async () => {
    const first = await readProjectPredictions([png('m/b/frame0000.png', 1)], 'preds', await targets(), 'model');
    await commitProjectPredictions(db, first);
    const before = await snapshot(db);
    const again = await readProjectPredictions([png('m/a/frame0000.png', 2), png('m/b/frame0001.png', 2)], 'preds', await targets(), 'model');
    await expect(commitProjectPredictions(db, again)).rejects.toThrow('already has pred:model layers');
    expect(await snapshot(db)).toEqual(before);
    expect(await commitProjectPredictions(db, again, { replace: true })).toEqual({ clips: 2, frames: 2 });
    expect((await listLayers(db, clips[1].id, 'pred:model')).map((l) => l.frameIndex)).toEqual([1]);
  });
});
