import { describe, expect, it } from 'vitest';
import { encodeLayer } from '../../masks/layers';
import { rleArea } from '../../store/rleArea';
import { framesOf, rects } from '../../testing/review';
import { FLAG_DEFAULTS, computeFlags, flagFramesFromAreas, flagFramesFromLayers, resolveThresholds } from '.';

const W = 40;
const H = 30;

/** A small clip with one problem of every kind. */
function clip() {
  return [
    rects(W, H, 0, [1, 5, 5, 30, 20]), // 0 fine
    rects(W, H, 0, [2, 5, 5, 15, 20], [1, 20, 5, 15, 20], [1, 1, 1, 1, 1]), // 1 speck at (1,1)
    rects(W, H, 0, [2, 5, 5, 5, 20], [1, 10, 5, 25, 20]), // 2 reversal
    null, // 3 unannotated
    rects(W, H, 0, [2, 5, 5, 30, 20], [0, 20, 10, 2, 2], [1, 10, 10, 3, 3]), // 4 enclosed actionable + hole
    rects(W, H, 0, [2, 5, 5, 30, 20], [1, 10, 10, 3, 3]), // 5 enclosed actionable again (end phase)
  ];
}

describe('computeFlags', () => {
  it('computes every kind, sorted by frame then severity', () => {
    const flags = computeFlags(framesOf(clip(), { 5: { phase: 'end' } }));
    expect(flags.map((f) => [f.frameIndex, f.kind, f.severity])).toEqual([
      [1, 'speck', 'warning'],
      [2, 'reversal', 'error'],
      [2, 'area_jump', 'warning'],
      [3, 'unannotated', 'error'],
      [4, 'enclosed', 'warning'],
      [4, 'hole', 'warning'],
      // Frame 4 is compared with frame 2 (frame 3 has no answer): both states jump.
      [4, 'area_jump', 'warning'],
      [4, 'area_jump', 'warning'],
      [5, 'enclosed', 'warning'],
    ]);
  });

  it('computes only the kinds asked for, and skips region flags on ignored frames', () => {
    expect(computeFlags(framesOf(clip()), { kinds: ['unannotated'] }).map((f) => f.frameIndex)).toEqual([3]);
    const flags = computeFlags(framesOf(clip(), { 4: { ignored: true }, 5: { ignored: true } }));
    expect(flags.some((f) => f.frameIndex >= 4)).toBe(false);
  });

  it('defaults live in one object; options override single fields', () => {
    const t = resolveThresholds({ speck: { maxArea: 3 } });
    expect(t.speck.maxArea).toBe(3);
    expect(t.hole).toEqual(FLAG_DEFAULTS.hole);
    expect(Object.isFrozen(FLAG_DEFAULTS)).toBe(true);
  });
});

describe('flag frames from store rows', () => {
  it('decodes layers (every kind) or uses areas alone (area-based kinds)', () => {
    const maps = clip();
    const frames = maps.map((_, index) => ({ index, ...(index === 5 ? { phase: 'end' as const } : {}) }));
    const layers = maps.flatMap((m, frameIndex) => {
      if (!m) return [];
      const { act, trf } = encodeLayer(m);
      return [{ frameIndex, act, trf, actArea: rleArea(act), trfArea: rleArea(trf) }];
    });
    const decoded = flagFramesFromLayers(frames, layers, { width: W, height: H });
    expect(computeFlags(decoded)).toEqual(computeFlags(framesOf(maps, { 5: { phase: 'end' } })));

    const fromAreas = flagFramesFromAreas(frames, layers);
    expect(computeFlags(fromAreas).map((f) => [f.frameIndex, f.kind, f.box])).toEqual([
      [2, 'area_jump', undefined],
      [3, 'unannotated', undefined],
      [4, 'area_jump', undefined],
      [4, 'area_jump', undefined],
    ]);
  });

  it('names the frame of an unreadable layer', () => {
    const { act } = encodeLayer(rects(W, H, 0));
    const bad = { frameIndex: 0, act, trf: { size: [H, W] as [number, number], counts: '!!' }, actArea: 0, trfArea: 0 };
    expect(() => flagFramesFromLayers([{ index: 0 }], [bad], { width: W, height: H })).toThrow(/layer of frame 1 cannot be read/);
  });
});
