import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LabelMap } from '../masks/labelMap';
import { encodeLayer } from '../masks/layers';
import { countFrame } from '../metrics/spoc';
import type { SpocDb } from '../store/db';
import { commitClipImport } from '../store/importCommit';
import { createProject } from '../store/projects';
import { putLayer } from '../store/layers';
import { setFrameIgnored } from '../store/frames';
import { freshDb, importDraft } from '../testing/storeFixtures';
import type { Clip } from '../store/types';
import { frameIouRows, nextInRanking, rankByWorstIou, type FrameIou } from './worstIou';
import { loadFrameIous } from './worstIouLoader';
import { rects } from '../testing/review';

const row = (frameIndex: number, act: number, trf: number, mean: number): FrameIou => ({ frameIndex, act, trf, mean });

describe('rankByWorstIou', () => {
  const rows = [row(0, 0.9, NaN, 0.9), row(1, 0.2, 0.8, 0.5), row(2, NaN, NaN, NaN), row(3, 0.5, 0.1, 0.3), row(4, 0.2, NaN, 0.2)];
  it('orders by the chosen key, worst first; ties by frame; unscored frames last, by frame', () => {
    expect(rankByWorstIou(rows, 'mean').map((r) => r.frameIndex)).toEqual([4, 3, 1, 0, 2]);
    expect(rankByWorstIou(rows, 'act').map((r) => r.frameIndex)).toEqual([1, 4, 3, 0, 2]);
    expect(rankByWorstIou(rows, 'trf').map((r) => r.frameIndex)).toEqual([3, 1, 0, 2, 4]);
  });

  it('computes the mean over the states present on either side', () => {
    const counts = [
      { iAct: 1, uAct: 4, iTrf: 0, uTrf: 0, iObj: 1, uObj: 4 },
      null,
      { iAct: 0, uAct: 0, iTrf: 0, uTrf: 0, iObj: 0, uObj: 0 },
      { iAct: 3, uAct: 4, iTrf: 1, uTrf: 2, iObj: 4, uObj: 6 },
    ];
    const r = frameIouRows(counts);
    expect(r.map((x) => x.frameIndex)).toEqual([0, 2, 3]); // the ignored frame is left out
    expect(r[0]).toMatchObject({ act: 0.25, mean: 0.25 });
    expect(Number.isNaN(r[0].trf)).toBe(true);
    expect(Number.isNaN(r[1].mean)).toBe(true);
    expect(r[2].mean).toBeCloseTo((0.75 + 0.5) / 2);
  });

  it('nextInRanking walks the list and wraps', () => {
    const ranked = rankByWorstIou(rows.slice(0, 2), 'mean'); // [1, 0]
    expect(nextInRanking(ranked, 7)).toBe(1);
    expect(nextInRanking(ranked, 1)).toBe(0);
    expect(nextInRanking(ranked, 0)).toBe(1);
    expect(nextInRanking(ranked, 1, -1)).toBe(0);
    expect(nextInRanking([], 0)).toBeNull();
  });
});

describe('loadFrameIous', () => {
  let db: SpocDb;
  let clip: Clip;
  beforeEach(async () => {
    db = await freshDb();
    const p = await createProject(db, { name: 'P' });
    clip = await commitClipImport(db, importDraft(p.id, 5));
  });
  afterEach(() => db.close());

  const put = (source: 'gt' | `pred:${string}`, frameIndex: number, map: LabelMap) =>
    putLayer(db, { clipId: clip.id, frameIndex, source, ...encodeLayer(map), provenance: { kind: 'manual', by: 't', at: 1 } });

  it('ranks the stored frames by the metric code, the worst one first', async () => {
    const { width: w, height: h } = clip;
    const gts = [rects(w, h, 0, [1, 0, 0, 4, 3]), rects(w, h, 0, [1, 0, 0, 4, 3], [2, 4, 0, 2, 3]), rects(w, h, 0), rects(w, h, 0, [2, 0, 0, 3, 3]), rects(w, h, 0, [1, 0, 0, 2, 2])];
    const preds = [rects(w, h, 0, [1, 0, 0, 4, 2]), rects(w, h, 0, [1, 1, 0, 4, 3], [2, 5, 0, 1, 3]), rects(w, h, 0), null, rects(w, h, 0, [1, 0, 0, 2, 2])];
    for (let k = 0; k < 5; k++) {
      await put('gt', k, gts[k]);
      if (preds[k]) await put('pred:m', k, preds[k]!);
    }
    await setFrameIgnored(db, clip.id, 4, { reason: 'too_blurry' });
    const rows = await loadFrameIous(db, clip, 'pred:m');
    expect(rows.map((r) => r.frameIndex)).toEqual([0, 1, 2, 3]);
    for (const r of rows) {
      const c = countFrame(gts[r.frameIndex], preds[r.frameIndex]);
      if (c.uAct > 0) expect(r.act).toBeCloseTo(c.iAct / c.uAct);
      if (c.uTrf > 0) expect(r.trf).toBeCloseTo(c.iTrf / c.uTrf);
    }
    // Frame 3 has no prediction at all: IoU 0, the worst; frame 2 is empty on both sides: last.
    expect(rankByWorstIou(rows, 'mean').map((r) => r.frameIndex)).toEqual([3, 1, 0, 2]);
  });
});
