import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeLayer } from '../masks/layers';
import type { SpocDb } from '../store/db';
import { commitClipImport } from '../store/importCommit';
import { createProject } from '../store/projects';
import { freshDb, importDraft } from '../testing/storeFixtures';
import type { Clip } from '../store/types';
import { loadClipFlags, saveFlagDismissal } from './flagStore';
import { loadClipFlagsInChunks } from './flagLoader';
import { draw } from '../testing/review';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  const draft = importDraft(p.id, 5, { layers: [] });
  const provenance = { kind: 'imported' as const, by: 'test', at: 1 };
  const speck = draw(['aaa.....', 'aaa.....', 'aaa.....', '........', '.......a', '........']);
  const trf = draw(['ttt.....', 'ttt.....', 'ttt.....', '........', '........', '........']);
  const back = draw(['aaa.....', 'aaa.....', 'aaa.....', '........', '........', '........']);
  draft.layers = [
    { frameIndex: 0, source: 'gt', ...encodeLayer(speck), provenance },
    { frameIndex: 2, source: 'gt', ...encodeLayer(trf), provenance },
    { frameIndex: 3, source: 'gt', ...encodeLayer(back), provenance },
    { frameIndex: 4, source: 'gt', ...encodeLayer(back), provenance },
  ];
  clip = await commitClipImport(db, draft);
});
afterEach(() => db.close());

describe('loadClipFlagsInChunks', () => {
  const opts = { speck: { maxArea: 2 }, reversal: { tolerancePx: 0, minPixels: 1, lookback: 2 } };

  it('gives the same flags as loading at once, yielding between slices, with dismissals applied', async () => {
    const whole = await loadClipFlags(db, clip.id, 'gt', opts);
    expect(whole.all.map((f) => f.kind)).toEqual(expect.arrayContaining(['speck', 'unannotated', 'reversal']));
    let yields = 0;
    const progress: number[] = [];
    const chunked = await loadClipFlagsInChunks(db, clip.id, 'gt', {
      ...opts,
      chunk: 2,
      yieldNow: async () => void yields++,
      onProgress: (n) => progress.push(n),
    });
    expect(chunked).toEqual(whole);
    expect(yields).toBe(3);
    expect(progress).toEqual([2, 4, 5]);

    await saveFlagDismissal(db, whole.open[0], 'fine', { clipId: clip.id, by: 'rev' });
    const after = await loadClipFlagsInChunks(db, clip.id, 'gt', { ...opts, yieldNow: async () => undefined });
    expect(after.dismissed.map((d) => d.flag.id)).toEqual([whole.open[0].id]);
    expect(after.open).toHaveLength(whole.open.length - 1);
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    const p = loadClipFlagsInChunks(db, clip.id, 'gt', { chunk: 1, signal: ac.signal, yieldNow: async () => ac.abort() });
    await expect(p).rejects.toThrow();
  });
});
