import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MaskFormatError } from '../../masks/errors';
import { decodeRle, encodeCounts } from '../../masks/rle';
import { masksArb, naiveCounts } from '../../masks/testdata/naive';
import { resolveStates, unionCounts, xorCounts } from './stateMasks';

describe('xorCounts', () => {
  it('is the pixelwise parity of any number of masks (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((k) => masksArb(k)),
        ({ h, w, masks }) => {
          const parity = new Uint8Array(h * w);
          for (const m of masks) for (let i = 0; i < parity.length; i++) parity[i] ^= m[i] ? 1 : 0;
          expect(Array.from(xorCounts(masks.map((m) => encodeCounts(m, h, w)), h * w))).toEqual(naiveCounts(parity, h, w));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('of nothing is the empty mask; a mask with itself cancels', () => {
    expect(Array.from(xorCounts([], 6))).toEqual([6]);
    expect(Array.from(xorCounts([[2, 3, 1], [2, 3, 1]], 6))).toEqual([6]);
    expect(Array.from(xorCounts([[0, 6]], 6))).toEqual([0, 6]);
  });
});

describe('unionCounts', () => {
  it('is the empty mask for no masks and a copy for one', () => {
    expect(Array.from(unionCounts([], 4))).toEqual([4]);
    const one = Uint32Array.of(1, 2, 1);
    const u = unionCounts([one], 4);
    expect(Array.from(u)).toEqual([1, 2, 1]);
    expect(u).not.toBe(one);
  });
});

describe('resolveStates', () => {
  // 1x4: act covers pixels 0..2, trf covers 2..3.
  const act = Uint32Array.of(0, 3, 1);
  const trf = Uint32Array.of(2, 2);
  const pixels = (r: ReturnType<typeof resolveStates>) => [Array.from(decodeRle(r.layer.act)), Array.from(decodeRle(r.layer.trf))];

  it('lets transformed win by default, or actionable, and reports the overlap', () => {
    const t = resolveStates(act, trf, 1, 4, 'transformed');
    expect(t.overlap).toBe(1);
    expect(pixels(t)).toEqual([
      [1, 1, 0, 0],
      [0, 0, 1, 1],
    ]);
    expect(pixels(resolveStates(act, trf, 1, 4, 'actionable'))).toEqual([
      [1, 1, 1, 0],
      [0, 0, 0, 1],
    ]);
  });

  it('refuses under the error policy, with the pixel count', () => {
    expect(() => resolveStates(act, trf, 1, 4, 'error')).toThrow(MaskFormatError);
    expect(() => resolveStates(act, trf, 1, 4, 'error')).toThrow('has 1 pixels in both states');
  });

  it('passes disjoint states through unchanged', () => {
    const r = resolveStates(Uint32Array.of(0, 1, 3), Uint32Array.of(2, 2), 1, 4, 'error');
    expect(r.overlap).toBe(0);
    expect(r.layer.act.counts).toBe('013');
  });
});

describe('unionCounts at scale', () => {
  it('unites 20 000 one-pixel instances quickly and exactly', () => {
    const h = 200;
    const w = 200;
    const list: Uint32Array[] = [];
    const expected = new Uint8Array(h * w);
    for (let k = 0; k < 20000; k++) {
      const p = (k * 7919) % (h * w); // column-major position
      list.push(Uint32Array.of(p, 1, h * w - p - 1));
      expected[(p % h) * w + Math.floor(p / h)] = 1;
    }
    const t0 = performance.now();
    const u = unionCounts(list, h * w);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(Array.from(u)).toEqual(naiveCounts(expected, h, w));
  });
});
