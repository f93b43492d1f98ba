import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getClip } from './clips';
import type { SpocDb } from './db';
import { commitClipImport } from './importCommit';
import {
  deleteLayers,
  getLayer,
  layerAreas,
  listFrameLayers,
  listLayerSources,
  listLayers,
  putLayer,
  saveFrameEdits,
  saveLayerEdit,
  type LayerEdit,
} from './layers';
import { createProject } from './projects';
import { appendRevision, listClipRevisions, listRevisions } from './revisions';
import { H, W, freshDb, importDraft, rleFromPicture, rleWithArea, snapshot } from '../testing/storeFixtures';
import type { Clip, LayerInput } from './types';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  // Frames 0 and 1 carry imported gt layers; frame 2 has none.
  clip = await commitClipImport(db, importDraft(p.id, 3, { layers: [] }));
});
afterEach(() => db.close());

function layer(frameIndex: number, act: number, trf: number, source: LayerInput['source'] = 'gt'): LayerInput {
  return {
    clipId: clip.id,
    frameIndex,
    source,
    act: rleWithArea(H, W, act),
    trf: rleWithArea(H, W, trf),
    provenance: { kind: 'manual', by: 'ann', at: 10 },
  };
}

function edit(frameIndex: number, act: number, n = 0): LayerEdit {
  return {
    layer: layer(frameIndex, act, 0),
    revision: {
      clipId: clip.id,
      frameIndex,
      source: 'gt',
      author: 'ann',
      at: 100 + n,
      action: 'brush',
      box: { x: 1, y: 1, w: 3, h: 2 },
      before: rleFromPicture(['...', '...']),
      after: rleFromPicture(['.#.', '##.']),
    },
  };
}

describe('layers', () => {
  it('putLayer computes the areas from the RLE and stamps updatedAt', async () => {
    const stored = await putLayer(db, layer(1, 5, 7));
    expect(stored).toMatchObject({ actArea: 5, trfArea: 7 });
    expect(await getLayer(db, clip.id, 'gt', 1)).toEqual(stored);
  });

  it('reads areas per frame from the index, and lists by source and by frame', async () => {
    await putLayer(db, layer(2, 3, 0));
    await putLayer(db, layer(0, 1, 2));
    await putLayer(db, layer(0, 9, 0, 'pred:sam-b'));
    await putLayer(db, layer(1, 4, 4, 'proposal'));
    expect(await layerAreas(db, clip.id, 'gt')).toEqual([
      { frameIndex: 0, actArea: 1, trfArea: 2 },
      { frameIndex: 2, actArea: 3, trfArea: 0 },
    ]);
    expect((await listLayers(db, clip.id, 'gt')).map((l) => l.frameIndex)).toEqual([0, 2]);
    expect((await listFrameLayers(db, clip.id, 0)).map((l) => l.source).sort()).toEqual(['gt', 'pred:sam-b']);
    expect((await listLayerSources(db, clip.id)).sort()).toEqual(['gt', 'pred:sam-b', 'proposal']);
    expect(await deleteLayers(db, clip.id, 'pred:sam-b')).toBe(1);
    expect((await listLayerSources(db, clip.id)).sort()).toEqual(['gt', 'proposal']);
  });

  it('refuses out-of-range frames, wrong sizes, bad RLE, unknown sources and missing provenance', async () => {
    const before = await snapshot(db);
    await expect(putLayer(db, layer(3, 1, 1))).rejects.toThrow(/outside the clip, which has 3 frames/);
    await expect(putLayer(db, { ...layer(0, 1, 1), act: rleWithArea(W, H, 1) })).rejects.toThrow(/is 6x8 but must be 8x6/);
    await expect(putLayer(db, { ...layer(0, 1, 1), trf: { size: [H, W], counts: '00' } })).rejects.toThrow(
      /unreadable RLE/,
    );
    await expect(putLayer(db, layer(0, 1, 1, 'pred:'))).rejects.toThrow(/Unknown layer source/);
    await expect(putLayer(db, { ...layer(0, 1, 1), provenance: { kind: 'manual', by: '', at: 1 } })).rejects.toThrow(
      /needs a provenance/,
    );
    await expect(putLayer(db, { ...layer(0, 1, 1), clipId: 'missing' })).rejects.toMatchObject({ code: 'not_found' });
    expect(await snapshot(db)).toEqual(before);
  });
});

describe('saveLayerEdit and revisions', () => {
  it('writes the layer and its revision together, and starts work on the clip', async () => {
    const { layer: stored, revision } = await saveLayerEdit(db, edit(2, 3));
    expect(stored.actArea).toBe(3);
    expect(revision.seq).toBeTypeOf('number');
    expect(await listRevisions(db, clip.id, 'gt', 2)).toEqual([revision]);
    expect((await getClip(db, clip.id))?.status).toBe('in_progress');
  });

  it('keeps history append-only and ordered by seq, per layer and per clip', async () => {
    await saveLayerEdit(db, edit(2, 1, 1));
    await saveLayerEdit(db, edit(0, 2, 2));
    await saveLayerEdit(db, edit(2, 3, 3));
    const appended = await appendRevision(db, { ...edit(2, 0, 4).revision, action: 'review.note' });
    expect((await listRevisions(db, clip.id, 'gt', 2)).map((r) => r.at)).toEqual([101, 103, 104]);
    const all = await listClipRevisions(db, clip.id);
    expect(all.map((r) => r.seq)).toEqual([...all.map((r) => r.seq)].sort((a, b) => a - b));
    expect(all.at(-1)).toEqual(appended);
    expect((await getLayer(db, clip.id, 'gt', 2))?.actArea).toBe(3);
  });

  it('an invalid revision writes neither the layer nor the revision', async () => {
    const before = await snapshot(db);
    const bad = edit(1, 4);
    bad.revision.box = { x: 6, y: 0, w: 3, h: 2 }; // sticks out of the 8 px wide frame
    await expect(saveLayerEdit(db, bad)).rejects.toThrow(/not inside the 8x6 frame/);
    const mismatched = edit(1, 4);
    mismatched.revision.frameIndex = 0;
    await expect(saveLayerEdit(db, mismatched)).rejects.toThrow(/same clip, frame and source/);
    const wrongPatch = edit(1, 4);
    wrongPatch.revision.after = rleFromPicture(['..', '..']);
    await expect(saveLayerEdit(db, wrongPatch)).rejects.toThrow(/revision "after" patch is 2x2 but must be 3x2/);
    expect(await snapshot(db)).toEqual(before);
  });

  it('rolls back the layer when the revision write fails inside the transaction', async () => {
    const before = await snapshot(db);
    const failing = () => {
      throw new Error('disk said no');
    };
    db.revisions.hook('creating', failing);
    try {
      await expect(saveLayerEdit(db, edit(1, 4))).rejects.toThrow(/disk said no/);
    } finally {
      db.revisions.hook('creating').unsubscribe(failing);
    }
    expect(await snapshot(db)).toEqual(before);
  });
});

describe('saveFrameEdits (the editor write-behind batch)', () => {
  const rev = (frameIndex: number, action: string, trf = false) => ({
    clipId: clip.id,
    frameIndex,
    source: 'gt' as const,
    author: 'ann',
    at: 5,
    action,
    box: { x: 0, y: 0, w: 2, h: 1 },
    before: rleFromPicture(['..']),
    after: rleFromPicture(['##']),
    ...(trf ? { beforeTrf: rleFromPicture(['..']), afterTrf: rleFromPicture(['.#']) } : {}),
  });

  it('writes several frames\' layers and their revisions in order, keeping the transformed patches', async () => {
    await saveFrameEdits(db, [
      { layer: layer(0, 4, 1), revisions: [rev(0, 'brush', true), rev(0, 'undo:brush')] },
      { layer: layer(2, 3, 0), revisions: [rev(2, 'fill')] },
    ]);
    expect(await layerAreas(db, clip.id, 'gt')).toEqual(
      expect.arrayContaining([
        { frameIndex: 0, actArea: 4, trfArea: 1 },
        { frameIndex: 2, actArea: 3, trfArea: 0 },
      ]),
    );
    const r0 = await listRevisions(db, clip.id, 'gt', 0);
    expect(r0.map((r) => r.action)).toEqual(['brush', 'undo:brush']);
    expect(r0[0].afterTrf).toEqual(rleFromPicture(['.#']));
    expect((await getClip(db, clip.id))?.status).toBe('in_progress');
  });

  it('writes nothing when any revision of the batch is invalid', async () => {
    const before = await snapshot(db);
    const bad = { ...rev(2, 'fill'), box: { x: 0, y: 0, w: 99, h: 1 } };
    await expect(saveFrameEdits(db, [{ layer: layer(0, 4, 1), revisions: [rev(0, 'brush')] }, { layer: layer(2, 3, 0), revisions: [bad] }])).rejects.toThrow(
      /not inside the 8x6 frame/,
    );
    expect(await snapshot(db)).toEqual(before);
  });

  it('refuses a revision filed under another frame', async () => {
    await expect(saveFrameEdits(db, [{ layer: layer(0, 1, 0), revisions: [rev(1, 'brush')] }])).rejects.toThrow(/same clip, frame and source/);
  });
});
