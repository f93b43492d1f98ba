import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeLayer, encodeLayer, parseLayer } from '../../masks/layers';
import { EditorSession } from '../../annotator/session/editorSession';
import type { SpocDb } from '../../store/db';
import { commitClipImport } from '../../store/importCommit';
import { getLayer, listLayers } from '../../store/layers';
import { createProject } from '../../store/projects';
import { listRevisions } from '../../store/revisions';
import { H, W, freshDb, importDraft } from '../../testing/storeFixtures';
import type { Clip } from '../../store/types';
import { importAnnotationPngs } from '../../io/sources/annotations';
import { encodeIndexedPng, VOC_PALETTE } from '../../io/indexedPng';
import type { LabelMap } from '../../masks/labelMap';
import { rects } from '../../testing/review';
import { applyPick } from './applyPick';
import { mergeMaps } from './resolve';

const gt0 = rects(W, H, 0, [1, 0, 0, 4, 3]);
const ann0 = rects(W, H, 0, [2, 2, 0, 4, 4]);

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  const draft = importDraft(p.id, 2);
  draft.clip.name = 'v1';
  draft.frames.forEach((f, k) => (f.name = `img_${k + 1}`));
  draft.layers = [{ frameIndex: 0, source: 'gt' as const, ...encodeLayer(gt0), provenance: { kind: 'imported' as const, by: 'ann', at: 1 } }];
  clip = await commitClipImport(db, draft);
  const png = (m: LabelMap) => new Blob([encodeIndexedPng(m, VOC_PALETTE) as Uint8Array<ArrayBuffer>]);
  await importAnnotationPngs(db, clip.id, [{ path: 'bob/img_1.png', blob: png(ann0) }], 'bob', 'bob');
});
afterEach(() => db.close());

const stored = async (source: 'gt' | 'ann:bob', k: number) => {
  const l = await getLayer(db, clip.id, source, k);
  return l ? Array.from(decodeLayer(parseLayer(l), { width: W, height: H }).data) : null;
};
const annMap = async () => decodeLayer(parseLayer((await getLayer(db, clip.id, 'ann:bob', 0))!), { width: W, height: H });

describe('applyPick through the editor session', () => {
  it('take B writes B into gt as one revision by the reviewer; undo restores gt; ann:bob never changes', async () => {
    const s = await EditorSession.open(db, clip, 'rev', 0);
    const annBefore = await listLayers(db, clip.id, 'ann:bob');
    const outcome = await applyPick(s, 0, { a: { source: 'gt' }, b: { source: 'ann:bob', map: await annMap() } }, { kind: 'take-b' });
    expect(outcome.status).toBe('applied');
    expect(Array.from(s.map.data)).toEqual(Array.from(ann0.data));
    await s.flush();
    expect(await stored('gt', 0)).toEqual(Array.from(ann0.data));
    const revs = await listRevisions(db, clip.id, 'gt', 0);
    expect(revs.map((r) => [r.author, r.action])).toEqual([['rev', 'agreement:take-b A=gt B=ann:bob']]);
    expect(s.snapshot.canUndo).toBe(true);

    await s.undo();
    await s.flush();
    expect(await stored('gt', 0)).toEqual(Array.from(gt0.data));
    expect((await listRevisions(db, clip.id, 'gt', 0)).map((r) => r.action)).toEqual(['agreement:take-b A=gt B=ann:bob', 'undo:agreement:take-b A=gt B=ann:bob']);
    expect(await listLayers(db, clip.id, 'ann:bob')).toEqual(annBefore);
    await s.close();
  });

  it('merge writes the merged map; a pick that changes nothing commits nothing', async () => {
    const s = await EditorSession.open(db, clip, 'rev', 0);
    const b = await annMap();
    const expected = Array.from(mergeMaps(gt0, b).data);
    await applyPick(s, 0, { a: { source: 'gt' }, b: { source: 'ann:bob', map: b } }, { kind: 'merge', rule: { extent: 'union', swap: 'a' } });
    expect(Array.from(s.map.data)).toEqual(expected);
    expect((await applyPick(s, 0, { a: { source: 'gt' }, b: { source: 'ann:bob', map: b } }, { kind: 'take-a' })).status).toBe('unchanged');
    await s.flush();
    expect(await stored('gt', 0)).toEqual(expected);
    expect(await listRevisions(db, clip.id, 'gt', 0)).toHaveLength(1);
    await s.close();
  });

  it('a pick for a frame the editor no longer shows lands on that frame, never on the one shown', async () => {
    const s = await EditorSession.open(db, clip, 'rev', 1);
    const shownBefore = Array.from(s.map.data);
    const outcome = await applyPick(s, 0, { a: { source: 'gt' }, b: { source: 'ann:bob', map: ann0 } }, { kind: 'take-b' });
    expect(outcome).toMatchObject({ status: 'applied', frameIndex: 0 });
    expect(Array.from(s.map.data)).toEqual(shownBefore);
    await s.flush();
    expect(await stored('gt', 0)).toEqual(Array.from(ann0.data));
    expect(await stored('gt', 1)).toBeNull();
    expect((await listRevisions(db, clip.id, 'gt', 0)).map((r) => r.author)).toEqual(['rev']);
    // The pick is one undo step of frame 1 (index 0), undone there.
    await s.goToFrame(0);
    expect(s.snapshot.canUndo).toBe(true);
    await s.undo();
    await s.flush();
    expect(await stored('gt', 0)).toEqual(Array.from(gt0.data));
    await s.close();
  });
});
