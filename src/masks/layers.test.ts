import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLabelMap, type LabelMap } from './labelMap';
import { decodeLayer, emptyLayer, encodeLayer, parseLayer } from './layers';
import { MaskFormatError, encodeRle, rleFromCounts } from './rle';
import { firstDifference, maskArb } from './testdata/naive';

const mapOf = ({ mask, h, w }: { mask: Uint8Array; h: number; w: number }): LabelMap => ({ width: w, height: h, data: mask });

describe('encodeLayer / decodeLayer', () => {
  it('round-trips any label map of 0, 1, 2 (property)', () => {
    fc.assert(
      fc.property(maskArb([0, 1, 2]), (m) => {
        const map = mapOf(m);
        const layer = encodeLayer(map);
        expect(layer.act).toEqual(encodeRle(m.mask.map((v) => (v === 1 ? 1 : 0)), m.h, m.w));
        expect(layer.trf).toEqual(encodeRle(m.mask.map((v) => (v === 2 ? 1 : 0)), m.h, m.w));
        const back = decodeLayer(parseLayer(JSON.parse(JSON.stringify(layer))), { width: m.w, height: m.h });
        expect(back).toEqual(map);
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips a 1920x1080 frame', () => {
    const map = createLabelMap(1920, 1080);
    for (let y = 100; y < 700; y++) map.data.fill(y < 400 ? 1 : 2, y * 1920 + 300, y * 1920 + 1500);
    const back = decodeLayer(encodeLayer(map));
    expect(firstDifference(back.data, map.data)).toBe(-1);
  });

  it('refuses labels a layer cannot store, naming the pixel', () => {
    const map = createLabelMap(4, 3);
    map.data[2 * 4 + 1] = 4;
    expect(() => encodeLayer(map)).toThrow('label map holds label 4 at (x=1, y=2); a layer stores only 0, 1 and 2');
    map.data[2 * 4 + 1] = 3; // 3 = 0b11 is the tricky case of the four-byte check
    expect(() => encodeLayer(map)).toThrow(/label 3 at \(x=1, y=2\)/);
    const odd: LabelMap = { width: 3, height: 3, data: Uint8Array.from([0, 1, 2, 0, 1, 2, 0, 1, 255]) };
    expect(() => encodeLayer(odd)).toThrow(/label 255 at \(x=2, y=2\)/);
  });

  it('refuses overlapping states', () => {
    const act = rleFromCounts([2, 3, 1], 2, 3);
    const trf = rleFromCounts([3, 1, 2], 2, 3);
    expect(() => decodeLayer({ act, trf })).toThrow(MaskFormatError);
    expect(() => decodeLayer({ act, trf })).toThrow('layer masks overlap: pixel (x=1, y=1) is both actionable and transformed');
  });

  it('refuses masks of different sizes, or not of the frame size', () => {
    const a = rleFromCounts([6], 2, 3);
    const b = rleFromCounts([6], 3, 2);
    expect(() => decodeLayer({ act: a, trf: b })).toThrow('layer masks differ in size: actionable 3x2, transformed 2x3');
    expect(() => decodeLayer({ act: a, trf: a }, { width: 4, height: 2 })).toThrow(
      'layer size 3x2 does not match the frame size 4x2',
    );
  });

  it('emptyLayer decodes to all background', () => {
    const layer = emptyLayer(5, 4);
    expect(layer.act).toEqual({ size: [4, 5], counts: encodeRle(new Uint8Array(20), 4, 5).counts });
    expect(decodeLayer(layer)).toEqual(createLabelMap(5, 4));
    expect(() => emptyLayer(0, 4)).toThrow(RangeError);
  });

  it('parseLayer validates both masks', () => {
    expect(() => parseLayer(null)).toThrow(MaskFormatError);
    expect(() => parseLayer({ act: { size: [2, 2], counts: '4' } })).toThrow(/both act and trf/);
    expect(() => parseLayer({ act: { size: [2, 2], counts: '4' }, trf: { size: [2, 2], counts: '5' } })).toThrow(
      /more than the 4 pixels/,
    );
  });
});
