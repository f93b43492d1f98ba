import { describe, expect, it } from 'vitest';
import { encodeLayer } from '../../masks/layers';
import type { LabelMap } from '../../masks/labelMap';
import { clipAgreement } from '../../metrics/agreement';
import type { Layer, LayerSource } from '../../store/types';
import { rects } from '../../testing/review';
import { agreementRows, meanIou, sortAgreement, type AgreementCache } from './agreementRows';

const W = 8;
const H = 6;
const layer = (source: LayerSource, frameIndex: number, map: LabelMap, updatedAt = 1): Layer => ({
  clipId: 'c',
  frameIndex,
  source,
  ...encodeLayer(map),
  provenance: { kind: 'imported', by: 't', at: 1 },
  updatedAt,
  actArea: 0,
  trfArea: 0,
});

const gtMaps = [rects(W, H, 0, [1, 0, 0, 4, 3]), rects(W, H, 0, [2, 0, 0, 8, 6]), rects(W, H, 0, [1, 0, 0, 2, 2]), null, rects(W, H, 0, [1, 1, 1, 2, 2])];
const annMaps = [rects(W, H, 0, [1, 0, 0, 4, 2], [2, 0, 2, 4, 1]), rects(W, H, 0, [2, 0, 0, 8, 3]), null, rects(W, H, 0, [1, 0, 0, 3, 3]), rects(W, H, 0, [1, 1, 1, 2, 2])];
const frames = [0, 1, 2, 3, 4].map((index) => ({ index, ignored: index === 4 ? { reason: 'other' as const, at: 1 } : undefined }));
const empty = (): LabelMap => ({ width: W, height: H, data: new Uint8Array(W * H) });

function input() {
  return {
    size: { width: W, height: H },
    frames,
    a: { source: 'gt' as const, layers: gtMaps.flatMap((m, k) => (m ? [layer('gt', k, m)] : [])) },
    b: { source: 'ann:bob' as const, layers: annMaps.flatMap((m, k) => (m ? [layer('ann:bob', k, m)] : [])) },
  };
}

describe('agreementRows', () => {
  it('equals metrics/agreement clipAgreement frame by frame (gt missing = empty, other source missing = skipped)', async () => {
    const rows = await agreementRows(input(), { yieldNow: async () => undefined });
    const expected = clipAgreement(
      gtMaps.map((m, k) => ({ map: m ?? empty(), ignored: k === 4 })),
      annMaps.map((m) => ({ map: m })),
    );
    expect(rows.map((r) => r.skipped)).toEqual([undefined, undefined, 'missing', undefined, 'ignored']);
    rows.forEach((r, k) => {
      const e = expected.frames[k];
      expect(r.counts).toEqual(e.counts);
      expect([r.act, r.trf, r.object, r.disputed, r.stateSwaps, r.extentDisputes]).toEqual([e.act, e.trf, e.object, e.disputed, e.stateSwaps, e.extentDisputes]);
      if (!r.skipped) expect(r.miou).toBe(meanIou(e.act, e.trf));
    });
    // Frame 3: no gt layer is an empty gt, so every annotated pixel is disputed.
    expect(rows[3]).toMatchObject({ act: 0, disputed: 9, extentDisputes: 9 });
  });

  it('recounts only frames whose layers changed', async () => {
    const cache: AgreementCache = new Map();
    const first = await agreementRows(input(), { cache });
    expect(cache.size).toBe(3);
    const changed = input();
    changed.b.layers[0] = layer('ann:bob', 0, gtMaps[0]!, 2);
    const seen = new Set(cache.keys());
    const rows = await agreementRows(changed, { cache });
    // Frame 0 was recounted (a new key), frames 1 and 3 came from the cache, the stale row was dropped.
    expect(cache.size).toBe(3);
    expect([...cache.keys()].filter((k) => !seen.has(k))).toHaveLength(1);
    expect(rows[0]).toMatchObject({ act: 1, disputed: 0 });
    expect(rows[1]).toBe(first[1]);
    expect(rows[3]).toBe(first[3]);
    expect(rows[0]).not.toBe(first[0]);
  });

  it('sorts by lowest IoU or most disputes, skipped frames last', async () => {
    const rows = await agreementRows(input());
    expect(sortAgreement(rows, 'frame').map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(sortAgreement(rows, 'iou').map((r) => r.index)).toEqual([3, 0, 1, 2, 4]);
    expect(sortAgreement(rows, 'disputed').map((r) => r.index)).toEqual([1, 3, 0, 2, 4]);
  });

  it('stops when aborted', async () => {
    const abort = new AbortController();
    abort.abort();
    await expect(agreementRows(input(), { signal: abort.signal })).rejects.toThrow();
  });
});
