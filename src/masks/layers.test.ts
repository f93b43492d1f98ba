import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLabelMap, type LabelMap } from './labelMap';
import { decodeLayer, emptyLayer, encodeLayer, encodeLayerInBox, parseLayer } from './layers';
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

describe('encodeLayerInBox', () => {
  it('gives the same RLE as encodeLayer for a map that is 0 outside the box (property)', () => {
    const arb = maskArb([0, 1, 2]).chain((m) =>
      fc.record({ x: fc.nat(m.w - 1), y: fc.nat(m.h - 1) }).chain(({ x, y }) => fc.record({ w: fc.integer({ min: 1, max: m.w - x }), h: fc.integer({ min: 1, max: m.h - y }) }).map((size) => ({ m, box: { x, y, ...size } }))),
    );
    fc.assert(
      fc.property(arb, ({ m, box }) => {
        const map = mapOf(m);
        for (let y = 0; y < m.h; y++) for (let x = 0; x < m.w; x++) if (x < box.x || x >= box.x + box.w || y < box.y || y >= box.y + box.h) map.data[y * m.w + x] = 0;
        expect(encodeLayerInBox(map, box)).toEqual(encodeLayer(map));
      }),
      { numRuns: 500 },
    );
  });

  it('encodes an empty box as an empty layer, and refuses a box outside the map or a label other than 0, 1, 2', () => {
    const map = createLabelMap(6, 4);
    expect(encodeLayerInBox(map, null)).toEqual(encodeLayer(map));
    expect(() => encodeLayerInBox(map, { x: 4, y: 0, w: 3, h: 1 })).toThrow(RangeError);
    map.data[5] = 4;
    expect(() => encodeLayerInBox(map, { x: 0, y: 0, w: 6, h: 4 })).toThrow(/label 4 at \(x=5, y=0\)/);
  });

  it('gives the same RLE for strokes across a 1280x720 frame, full-height and edge boxes included', () => {
    for (const box of [{ x: 100, y: 50, w: 300, h: 200 }, { x: 0, y: 0, w: 1280, h: 720 }, { x: 1200, y: 0, w: 80, h: 720 }, { x: 0, y: 700, w: 1280, h: 20 }]) {
      const map = createLabelMap(1280, 720);
      for (let y = box.y; y < box.y + box.h; y++) for (let x = box.x; x < box.x + box.w; x++) map.data[y * 1280 + x] = (x * 7 + y * 3) % 11 < 4 ? 1 : (x + y) % 5 === 0 ? 2 : 0;
      expect(encodeLayerInBox(map, box)).toEqual(encodeLayer(map));
    }
  });
});
