import { describe, expect, it } from 'vitest';
import { encodeRle } from './rle';
import { replayRevisionLabels, type ReplayableRevision } from './replayRevisions';

/** A revision of a box from its labels before and after (row-major 0/1/2), encoded as the store keeps it. */
function rev(box: { x: number; y: number; w: number; h: number }, before: number[], after: number[]): ReplayableRevision {
  const enc = (px: number[], pred: (v: number) => boolean) => {
    // encodeRle takes row-major pixels of an h x w mask
    return encodeRle(Uint8Array.from(px.map((v) => (pred(v) ? 1 : 0))), box.h, box.w);
  };
  return { box, before: enc(before, (v) => v !== 0), after: enc(after, (v) => v !== 0), beforeTrf: enc(before, (v) => v === 2), afterTrf: enc(after, (v) => v === 2) };
}

describe('replayRevisionLabels', () => {
  it('sets only the pixels a revision changed: two writers who both painted from an empty frame keep both strokes', () => {
    // 4x2 frame. A paints actionable on the left half, B transformed on the right half; both boxes
    // are the whole frame and both saw it empty (their "before" is all 0).
    const a = rev({ x: 0, y: 0, w: 4, h: 2 }, [0, 0, 0, 0, 0, 0, 0, 0], [1, 1, 0, 0, 1, 1, 0, 0]);
    const b = rev({ x: 0, y: 0, w: 4, h: 2 }, [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 2, 2, 0, 0, 2, 2]);
    const both = [1, 1, 2, 2, 1, 1, 2, 2];
    expect(Array.from(replayRevisionLabels(4, 2, [a, b]).data)).toEqual(both);
    expect(Array.from(replayRevisionLabels(4, 2, [b, a]).data)).toEqual(both);
  });

  it('where both changed the same pixel, the later revision in the order wins; an eraser only clears what it cleared', () => {
    const a = rev({ x: 0, y: 0, w: 2, h: 1 }, [0, 0], [1, 1]);
    const b = rev({ x: 1, y: 0, w: 2, h: 1 }, [0, 0], [2, 2]);
    expect(Array.from(replayRevisionLabels(3, 1, [a, b]).data)).toEqual([1, 2, 2]);
    expect(Array.from(replayRevisionLabels(3, 1, [b, a]).data)).toEqual([1, 1, 2]);
    // C erased pixel 0 having seen A's stroke; replayed after B it leaves B's pixels alone.
    const c = rev({ x: 0, y: 0, w: 3, h: 1 }, [1, 1, 0], [0, 1, 0]);
    expect(Array.from(replayRevisionLabels(3, 1, [a, b, c]).data)).toEqual([0, 2, 2]);
  });

  it('reads revisions without trf fields as actionable, and sub-boxes at their place', () => {
    const r: ReplayableRevision = { box: { x: 1, y: 1, w: 1, h: 1 }, before: encodeRle(Uint8Array.of(0), 1, 1), after: encodeRle(Uint8Array.of(1), 1, 1) };
    expect(Array.from(replayRevisionLabels(2, 2, [r]).data)).toEqual([0, 0, 0, 1]);
  });

  it('refuses a box outside the frame', () => {
    const r = rev({ x: 2, y: 0, w: 2, h: 1 }, [0, 0], [1, 1]);
    expect(() => replayRevisionLabels(3, 1, [r])).toThrow(/not inside the 3x1 frame/);
  });
});
