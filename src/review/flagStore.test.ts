import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeLayer } from '../masks/layers';
import type { SpocDb } from '../store/db';
import { StoreError } from '../store/errors';
import { setFrameIgnored } from '../store/frames';
import { commitClipImport } from '../store/importCommit';
import { putLayer } from '../store/layers';
import { createProject } from '../store/projects';
import { H, W, freshDb, importDraft } from '../testing/storeFixtures';
import type { Clip } from '../store/types';
import { loadClipFlags, saveFlagDismissal, undoFlagDismissal } from './flagStore';
import { draw } from '../testing/review';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  const draft = importDraft(p.id, 3, { layers: [] });
  const provenance = { kind: 'imported' as const, by: 'test', at: 1 };
  // 8x6: frame 0 an object with a speck, frame 1 unannotated, frame 2 fine.
  const f0 = draw(['aaa.....', 'aaa.....', 'aaa.....', '........', '.......a', '........']);
  const f2 = draw(['ttt.....', 'ttt.....', 'ttt.....', '........', '........', '........']);
  draft.layers = [
    { frameIndex: 0, source: 'gt', ...encodeLayer(f0), provenance },
    { frameIndex: 2, source: 'gt', ...encodeLayer(f2), provenance },
  ];
  expect([f0.width, f0.height]).toEqual([W, H]);
  clip = await commitClipImport(db, draft);
});
afterEach(() => db.close());

describe('stored clip flags', () => {
  it('computes flags from the store, and a dismissal survives recomputation until the region changes', async () => {
    const first = await loadClipFlags(db, clip.id, 'gt', { speck: { maxArea: 2 } });
    expect(first.all.map((f) => [f.frameIndex, f.kind])).toEqual([
      [0, 'speck'],
      [1, 'unannotated'],
    ]);
    const speck = first.open[0];
    await saveFlagDismissal(db, speck, 'a crumb of the same banana', { clipId: clip.id, by: 'rev' });

    const again = await loadClipFlags(db, clip.id, 'gt', { speck: { maxArea: 2 } });
    expect(again.open.map((f) => f.kind)).toEqual(['unannotated']);
    expect(again.dismissed).toHaveLength(1);
    expect(again.dismissed[0].dismissal).toMatchObject({ flagId: speck.id, reason: 'a crumb of the same banana', by: 'rev' });

    // Ignoring frame 1 settles the other flag; undoing the dismissal brings the speck back.
    await setFrameIgnored(db, clip.id, 1, { reason: 'not_visible' });
    expect((await loadClipFlags(db, clip.id, 'gt', { speck: { maxArea: 2 } })).open).toEqual([]);
    expect(await undoFlagDismissal(db, clip.id, speck.id)).toBe(true);
    expect((await loadClipFlags(db, clip.id, 'gt', { speck: { maxArea: 2 } })).open.map((f) => f.id)).toEqual([speck.id]);

    // Moving the speck changes the flag: it is open again even when dismissed before.
    await saveFlagDismissal(db, speck, 'crumb', { clipId: clip.id, by: 'rev' });
    const moved = draw(['aaa.....', 'aaa.....', 'aaa.....', '........', '......a.', '........']);
    await putLayer(db, { clipId: clip.id, frameIndex: 0, source: 'gt', ...encodeLayer(moved), provenance: { kind: 'manual', by: 'ann', at: 2 } });
    const after = await loadClipFlags(db, clip.id, 'gt', { speck: { maxArea: 2 } });
    expect(after.open).toHaveLength(1);
    expect(after.open[0].id).not.toBe(speck.id);
  });

  it('refuses a dismissal without a reason', async () => {
    const { open } = await loadClipFlags(db, clip.id);
    const err = await saveFlagDismissal(db, open[0], ' ', { clipId: clip.id, by: 'rev' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).message).toMatch(/reason is empty/);
  });
});
