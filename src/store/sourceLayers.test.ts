import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from './db';
import { commitClipImport } from './importCommit';
import { layerAreas, listLayers } from './layers';
import { createProject } from './projects';
import { writeSourceLayers } from './sourceLayers';
import { H, W, freshDb, importDraft, rleWithArea, snapshot, storeRejection as rejection } from '../testing/storeFixtures';
import type { Clip } from './types';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  clip = await commitClipImport(db, importDraft(p.id, 3));
});
afterEach(() => db.close());

const provenance = { kind: 'imported' as const, by: 'model', at: 1 };
function layer(frameIndex: number, act: number, trf = 0) {
  return { frameIndex, act: rleWithArea(H, W, act), trf: rleWithArea(H, W, trf), provenance };
}


describe('writeSourceLayers', () => {
  it('writes a set of layers of one source, leaving gt alone', async () => {
    const gtBefore = await listLayers(db, clip.id, 'gt');
    expect(await writeSourceLayers(db, clip.id, 'pred:m', [layer(0, 2), layer(2, 1, 3)])).toEqual({ written: 2, replaced: 0 });
    expect(await layerAreas(db, clip.id, 'pred:m')).toEqual([
      { frameIndex: 0, actArea: 2, trfArea: 0 },
      { frameIndex: 2, actArea: 1, trfArea: 3 },
    ]);
    expect(await listLayers(db, clip.id, 'gt')).toEqual(gtBefore);
  });

  it('refuses an existing source unless asked to replace it, then replaces it whole', async () => {
    await writeSourceLayers(db, clip.id, 'pred:m', [layer(0, 2), layer(1, 2)]);
    const before = await snapshot(db);
    const err = await rejection(writeSourceLayers(db, clip.id, 'pred:m', [layer(2, 5)]));
    expect(err.message).toMatch(/already has pred:m layers \(2 frames\); choose another name or replace them/);
    expect(await snapshot(db)).toEqual(before);
    expect(await writeSourceLayers(db, clip.id, 'pred:m', [layer(2, 5)], { replace: true })).toEqual({ written: 1, replaced: 2 });
    expect((await layerAreas(db, clip.id, 'pred:m')).map((a) => a.frameIndex)).toEqual([2]);
  });

  it('is all or nothing: one bad layer writes none', async () => {
    await writeSourceLayers(db, clip.id, 'pred:m', [layer(0, 2)]);
    const before = await snapshot(db);
    const bad = { ...layer(1, 1), act: rleWithArea(W, H, 1) };
    const err = await rejection(writeSourceLayers(db, clip.id, 'pred:m', [layer(2, 1), bad], { replace: true }));
    expect(err.message).toMatch(/is 6x8 but must be 8x6/);
    expect(await snapshot(db)).toEqual(before);
    await rejection(writeSourceLayers(db, clip.id, 'pred:n', [layer(0, 1), layer(5, 1)]));
    expect(await snapshot(db)).toEqual(before);
  });

  it('never writes gt, duplicate frames, or into a missing clip', async () => {
    expect((await rejection(writeSourceLayers(db, clip.id, 'gt', [layer(0, 1)], { replace: true }))).message).toMatch(/Ground truth \(gt\) cannot be written/);
    expect((await rejection(writeSourceLayers(db, clip.id, 'pred:m', [layer(0, 1), layer(0, 2)]))).message).toMatch(/Two pred:m layers for frame index 0/);
    expect((await rejection(writeSourceLayers(db, 'nope', 'pred:m', [layer(0, 1)]))).code).toBe('not_found');
  });
});
