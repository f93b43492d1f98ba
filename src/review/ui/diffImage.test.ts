import { describe, expect, it } from 'vitest';
import { DIFF_BITS, diffMaps } from '../errorMap';
import { draw } from '../../testing/review';
import { DIFF_COLOURS, paintDiff, paintVersion } from './diffImage';

const rgbaAt = (px: Uint8ClampedArray, i: number) => Array.from(px.subarray(i * 4, i * 4 + 4));

describe('paintDiff', () => {
  // Row 0: act added, act removed, trf added, trf removed, act -> trf, act added; row 1 unchanged.
  const before = draw(['.a.ta.', '......']);
  const after = draw(['a.t.ta', '......']);
  const diff = diffMaps(before, after);
  const out = () => ({ width: 6, height: 2, data: new Uint8ClampedArray(6 * 2 * 4) });

  it('fills added pixels, hatches removed ones, leaves unchanged ones transparent', () => {
    const img = out();
    paintDiff(diff, img);
    expect(rgbaAt(img.data, 0)).toEqual([...DIFF_COLOURS.actAdded]);
    // (1,0) is on the hatch ((x + y) % 4 < 2): drawn; (3,0) is off it: transparent.
    expect(rgbaAt(img.data, 1)).toEqual([...DIFF_COLOURS.actRemoved]);
    expect(rgbaAt(img.data, 2)).toEqual([...DIFF_COLOURS.trfAdded]);
    expect(rgbaAt(img.data, 3)).toEqual([0, 0, 0, 0]);
    // (4,0) went actionable -> transformed; on the hatch the removed colour shows ...
    expect(rgbaAt(img.data, 4)).toEqual([...DIFF_COLOURS.actRemoved]);
    // ... and off the hatch the added colour: green fill over orange hatching.
    const mixed = { width: 4, height: 1, data: new Uint8ClampedArray(16) };
    paintDiff(diffMaps(draw(['...a']), draw(['...t'])), mixed);
    expect(rgbaAt(mixed.data, 3)).toEqual([...DIFF_COLOURS.trfAdded]);
    expect(rgbaAt(img.data, 5)).toEqual([...DIFF_COLOURS.actAdded]);
    for (let i = 6; i < 12; i++) expect(rgbaAt(img.data, i)).toEqual([0, 0, 0, 0]);
  });

  it('draws only the classes asked for', () => {
    const img = out();
    paintDiff(diff, img, DIFF_BITS.trfAdded);
    const drawn = [0, 1, 2, 3, 4, 5].filter((i) => img.data[i * 4 + 3] > 0);
    expect(drawn).toEqual([2, 4]);
  });
});

describe('paintVersion', () => {
  it('paints states in their colours and nothing elsewhere', () => {
    const img = { data: new Uint8ClampedArray(3 * 4) };
    paintVersion(draw(['at.']), img);
    expect(img.data[3]).toBeGreaterThan(0);
    expect(img.data[7]).toBeGreaterThan(0);
    expect(img.data[0]).toBeGreaterThan(img.data[1]); // red
    expect(img.data[5]).toBeGreaterThan(img.data[4]); // green
    expect(img.data[11]).toBe(0);
  });
});
