import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LabelMap } from '../../masks/labelMap';
import { framesOf, rects } from '../../testing/review';
import { FlagAccumulator, computeFlags, type FlagFrame } from '.';

const W = 32;
const H = 24;

/** A random clip: per frame, no layer or up to four rectangles of states 0..2 (specks, holes, reversals, jumps all occur). */
const clipArb = fc.array(
  fc.option(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.nat(W - 1), fc.nat(H - 1), fc.integer({ min: 1, max: W }), fc.integer({ min: 1, max: H })), { maxLength: 4 }), { nil: null, freq: 5 }),
  { minLength: 1, maxLength: 12 },
);

function mapsOf(spec: ([number, number, number, number, number][] | null)[]): (LabelMap | null)[] {
  return spec.map((boxes) => (boxes ? rects(W, H, 0, ...boxes.map(([l, x, y, w, h]): [number, number, number, number, number] => [l, x, y, Math.min(w, W - x), Math.min(h, H - y)])) : null));
}

describe('FlagAccumulator', () => {
  it('gives exactly what computeFlags gives, however the frames are sliced', () => {
    fc.assert(
      fc.property(clipArb, fc.integer({ min: 1, max: 5 }), fc.array(fc.boolean(), { maxLength: 12 }), (spec, chunk, ignored) => {
        const meta: Record<number, Partial<FlagFrame>> = {};
        ignored.forEach((ig, k) => ig && (meta[k] = { ignored: true }));
        const frames = framesOf(mapsOf(spec), meta);
        const acc = new FlagAccumulator();
        for (let i = 0; i < frames.length; i += chunk) acc.add(frames.slice(i, i + chunk));
        expect(acc.finish()).toEqual(computeFlags(frames));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps no decoded map: only areas and state boxes of the frames it has seen', () => {
    const frames = framesOf([rects(W, H, 0, [1, 2, 2, 5, 5]), rects(W, H, 0, [2, 3, 3, 4, 4], [1, 10, 10, 3, 3])]);
    const acc = new FlagAccumulator();
    acc.add(frames);
    expect(acc.kept.map((f) => [f.map, f.actArea, f.trfArea, f.boxes])).toEqual([
      [undefined, 25, 0, { act: { x: 2, y: 2, w: 5, h: 5 }, trf: null }],
      [undefined, 9, 16, { act: { x: 10, y: 10, w: 3, h: 3 }, trf: { x: 3, y: 3, w: 4, h: 4 } }],
    ]);
  });

  it('refuses frames out of order (the reversal scan needs time order)', () => {
    const acc = new FlagAccumulator();
    const frames = framesOf([null, null, null]);
    acc.add([frames[2]]);
    expect(() => acc.add([frames[1]])).toThrow('frames must be pushed in order');
  });
});
