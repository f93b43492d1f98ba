import { describe, expect, it } from 'vitest';
import { framesOf, rects } from '../../testing/review';
import { areaJumpFlags, reversalFlags, unannotatedFlags, vanishedFlags } from './temporalFlags';

const W = 40;
const H = 30;

describe('reversal', () => {
  // An object at x 5..34: transformed grows from the left; frame 2 wrongly paints part of it back.
  const f0 = rects(W, H, 0, [1, 5, 5, 30, 20]);
  const f1 = rects(W, H, 0, [2, 5, 5, 15, 20], [1, 20, 5, 15, 20]);
  const bad = rects(W, H, 0, [2, 5, 5, 5, 20], [1, 10, 5, 25, 20]);

  it('flags a region transformed earlier and actionable later, linked to both frames', () => {
    const flags = reversalFlags(framesOf([f0, f1, bad]));
    expect(flags).toHaveLength(1);
    const [flag] = flags;
    expect(flag).toMatchObject({ kind: 'reversal', frameIndex: 2, relatedFrameIndex: 1, severity: 'error', state: 1 });
    // f1's transformed x 5..19 eroded by 2 -> x 7..17, y 7..22; actionable on frame 2 from x 10.
    expect(flag.box).toEqual({ x: 10, y: 7, w: 8, h: 16 });
    expect(flag.pixels).toBe(8 * 16);
    expect(flag.message).toMatch(/transformed on frame 2 and are actionable here/);
  });

  it('does not flag a forward change, a boundary shifted within the tolerance, or a small region', () => {
    const f2 = rects(W, H, 0, [2, 5, 5, 25, 20], [1, 30, 5, 5, 20]);
    expect(reversalFlags(framesOf([f0, f1, f2]))).toEqual([]);
    // The whole scene moved 2 px right between frames 1 and 2: the act/trf boundary moved too.
    const shifted = rects(W, H, 0, [2, 7, 5, 13, 20], [1, 20, 5, 15, 20]);
    const moved = rects(W, H, 0, [2, 7, 5, 15, 20], [1, 22, 5, 15, 20]);
    expect(reversalFlags(framesOf([shifted, moved]))).toEqual([]);
    // A 3 px wide strip (3 x 16 = 48 px after erosion) stays under minPixels 50.
    const strip = rects(W, H, 0, [2, 5, 5, 10, 20], [1, 15, 5, 20, 20]);
    expect(reversalFlags(framesOf([f1, strip]))).toEqual([]);
    expect(reversalFlags(framesOf([f1, strip]), { reversal: { minPixels: 48 } })).toHaveLength(1);
  });

  it('skips ignored frames on either side, and looks back past a frame where the region was background', () => {
    expect(reversalFlags(framesOf([f0, f1, bad], { 2: { ignored: true } }))).toEqual([]);
    expect(reversalFlags(framesOf([f0, f1, bad], { 1: { ignored: true } }))).toEqual([]);
    const hidden = rects(W, H, 0, [2, 5, 5, 5, 20]);
    const flags = reversalFlags(framesOf([f1, hidden, bad]));
    expect(flags.map((f) => [f.frameIndex, f.relatedFrameIndex])).toEqual([[2, 0]]);
    expect(reversalFlags(framesOf([f1, hidden, bad]), { reversal: { lookback: 1 } })).toEqual([]);
  });
});

describe('unannotated', () => {
  it('flags frames with no paint that are neither ignored nor reviewed', () => {
    const painted = rects(8, 8, 0, [1, 1, 1, 3, 3]);
    const frames = framesOf([painted, null, rects(8, 8, 0), null, null], { 3: { ignored: true }, 4: { reviewed: true } });
    const flags = unannotatedFlags(frames);
    expect(flags.map((f) => f.frameIndex)).toEqual([1, 2]);
    expect(flags[0]).toMatchObject({ kind: 'unannotated', severity: 'error' });
    expect(flags[0].box).toBeUndefined();
    expect(flags[0].message).toMatch(/^Frame 2 is neither annotated nor ignored/);
  });

  it('does not flag painted, ignored or reviewed frames', () => {
    const painted = rects(8, 8, 0, [2, 1, 1, 3, 3]);
    expect(unannotatedFlags(framesOf([painted, null, null], { 1: { ignored: true }, 2: { reviewed: true } }))).toEqual([]);
  });

  it('works from areas alone (no decoded maps)', () => {
    const frames = [0, 1].map((index) => ({ index, actArea: index === 0 ? 5 : 0, trfArea: 0 }));
    expect(unannotatedFlags(frames).map((f) => f.frameIndex)).toEqual([1]);
  });
});

describe('area_jump', () => {
  it('flags a relative change above the ratio between consecutive non-ignored frames', () => {
    const frames = framesOf([rects(W, H, 0, [1, 0, 0, 30, 20]), rects(W, H, 0, [1, 0, 0, 10, 20])]);
    const flags = areaJumpFlags(frames);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ kind: 'area_jump', frameIndex: 1, relatedFrameIndex: 0, state: 1, pixels: 400, box: { x: 0, y: 0, w: 30, h: 20 } });
    expect(flags[0].message).toBe('Actionable area jumps from 600 px (frame 1) to 200 px (-67%).');
  });

  it('does not flag gradual change, small absolute change, appearance, or across an ignored frame', () => {
    const a = (w: number) => rects(W, H, 0, [1, 0, 0, w, 20]);
    expect(areaJumpFlags(framesOf([a(30), a(20), a(12)]))).toEqual([]);
    // 4 px -> 1 px: ratio 0.75, but only 3 px.
    expect(areaJumpFlags(framesOf([rects(8, 8, 0, [2, 0, 0, 2, 2]), rects(8, 8, 0, [2, 0, 0, 1, 1])]))).toEqual([]);
    // Transformed appearing (0 -> 600) is how a change starts.
    expect(areaJumpFlags(framesOf([a(30), rects(W, H, 0, [2, 0, 0, 30, 20])]))).toEqual([]);
    // 600 -> (ignored 0) -> 560: compared 600 with 560.
    expect(areaJumpFlags(framesOf([a(30), rects(W, H, 0), a(28)], { 1: { ignored: true } }))).toEqual([]);
  });
});

describe('vanished', () => {
  const act = rects(W, H, 0, [1, 2, 3, 10, 10]);
  const trf = rects(W, H, 0, [2, 2, 3, 10, 10]);
  const both = rects(W, H, 0, [1, 2, 3, 5, 10], [2, 7, 3, 5, 10]);

  it('flags a state present on a frame and gone on the next, with where it was', () => {
    const flags = vanishedFlags(framesOf([both, act]));
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ kind: 'vanished', frameIndex: 1, relatedFrameIndex: 0, state: 2, severity: 'warning', pixels: 50, box: { x: 7, y: 3, w: 5, h: 10 } });
    expect(flags[0].message).toMatch(/^Transformed \(50 px on frame 1\) is missing on frame 2, which is not ignored/);
  });

  it('is only info for actionable running out in the end phase', () => {
    const flags = vanishedFlags(framesOf([both, trf], { 1: { phase: 'end' } }));
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ state: 1, severity: 'info' });
    expect(vanishedFlags(framesOf([both, trf]))[0].severity).toBe('warning');
  });

  it('does not flag with an ignore on the next frame, an unannotated next frame, or a tiny state', () => {
    expect(vanishedFlags(framesOf([both, act], { 1: { ignored: true } }))).toEqual([]);
    expect(vanishedFlags(framesOf([both, null]))).toEqual([]);
    expect(vanishedFlags(framesOf([both, null], { 1: { reviewed: true } }))).toHaveLength(2);
    const speck = rects(W, H, 0, [1, 2, 3, 10, 10], [2, 20, 3, 2, 2]);
    expect(vanishedFlags(framesOf([speck, act]))).toEqual([]);
    expect(vanishedFlags(framesOf([act, act]))).toEqual([]);
  });

  it('looks across ignored and unannotated frames: present on frames 1–2, gone on 4–10 is one flag on frame 4', () => {
    const gone = [act, act, act, act, act, act, act];
    // Frame 3 ignored (its masks do not count), or not painted at all.
    for (const [third, meta] of [[act, { 2: { ignored: true } }], [null, {}]] as const) {
      const flags = vanishedFlags(framesOf([both, both, third, ...gone], meta));
      expect(flags).toHaveLength(1);
      expect(flags[0]).toMatchObject({ kind: 'vanished', frameIndex: 3, relatedFrameIndex: 1, state: 2, severity: 'warning' });
      expect(flags[0].message).toMatch(/^Transformed \(50 px on frame 2\) is missing on frame 4/);
    }
  });
});
