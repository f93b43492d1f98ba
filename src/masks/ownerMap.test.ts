import { describe, expect, it } from 'vitest';
import { MaskFormatError } from './errors';
import { applyOwnerChanges, createOwnerMap, masksFromOwnerMap, ObjectSlots, ownerBox, ownerMapFromMasks, type OwnerMap } from './ownerMap';
import { decodeRle, encodeRle } from './rle';

/** A map from rows of digits: each digit is a slot (0 = no object). */
function mapOf(rows: string[]): OwnerMap {
  const h = rows.length;
  const w = rows[0].length;
  const m = createOwnerMap(w, h);
  rows.forEach((r, y) => [...r].forEach((ch, x) => (m.data[y * w + x] = Number(ch))));
  return m;
}

function slotsFor(n: number): ObjectSlots {
  const s = new ObjectSlots();
  for (let i = 1; i <= n; i++) s.slotOf(`obj-${i}`);
  return s;
}

describe('owner map', () => {
  it('encodes each object as the COCO RLE pycocotools gives its binary mask', () => {
    const map = mapOf(['0112', '0122', '3300', '3333']);
    const slots = slotsFor(3);
    const masks = masksFromOwnerMap(map, slots);
    expect(masks.map((m) => [m.id, m.area])).toEqual([['obj-1', 3], ['obj-2', 3], ['obj-3', 6]]);
    for (const m of masks) {
      const slot = slots.slotOf(m.id);
      const binary = Uint8Array.from(map.data, (v) => (v === slot ? 1 : 0));
      expect(m.rle).toEqual(encodeRle(binary, 4, 4));
      expect(Array.from(decodeRle(m.rle))).toEqual(Array.from(binary));
    }
  });

  it('round-trips a random owner map with 20 objects, including objects touching the last pixel', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const slots = slotsFor(20);
    const map = createOwnerMap(37, 23);
    for (let i = 0; i < map.data.length; i++) map.data[i] = rand() < 0.3 ? 0 : 1 + Math.floor(rand() * 20);
    map.data[map.data.length - 1] = 5;
    const masks = masksFromOwnerMap(map, slots);
    const back = ownerMapFromMasks(37, 23, masks, slots);
    expect(Array.from(back.data)).toEqual(Array.from(map.data));
    expect(masks.reduce((s, m) => s + m.area, 0)).toBe(map.data.filter((v) => v !== 0).length);
  });

  it('has no object for an empty map and keeps slots stable per id', () => {
    const slots = new ObjectSlots();
    expect(masksFromOwnerMap(createOwnerMap(3, 2), slots)).toEqual([]);
    expect(slots.slotOf('b')).toBe(1);
    expect(slots.slotOf('a')).toBe(2);
    expect(slots.slotOf('b')).toBe(1);
    expect(slots.idOf(0)).toBeUndefined();
    expect(slots.idOf(2)).toBe('a');
  });

  it('refuses two objects claiming one pixel, and a mask of another size, naming the objects', () => {
    const slots = new ObjectSlots();
    const a = { id: 'carrot', rle: encodeRle(Uint8Array.of(1, 1, 0, 0), 2, 2) };
    const b = { id: 'knife', rle: encodeRle(Uint8Array.of(0, 1, 1, 0), 2, 2) };
    expect(() => ownerMapFromMasks(2, 2, [a, b], slots)).toThrow(MaskFormatError);
    expect(() => ownerMapFromMasks(2, 2, [a, b], slots)).toThrow(/objects carrot and knife both claim pixel \(1, 0\)/);
    expect(() => ownerMapFromMasks(3, 2, [a], slots)).toThrow(/the mask of object carrot is 2x2, not 3x2/);
  });

  it('applies only the pixels a revision changed, so a concurrent stroke survives', () => {
    const slots = slotsFor(3);
    const map = mapOf(['1100', '1100', '0000']);
    const box = { x: 0, y: 0, w: 3, h: 2 };
    // Someone else, meanwhile, gave pixel (2, 1) to object 3.
    map.data[1 * 4 + 2] = 3;
    // Our revision was made on the old state: object 2 takes (0, 0) and (1, 0) from object 1.
    const before = masksFromOwnerMap(mapOf(['110', '110']), slots);
    const after = masksFromOwnerMap(mapOf(['220', '110']), slots);
    applyOwnerChanges(map, box, before, after, slots);
    expect(Array.from(map.data)).toEqual([2, 2, 0, 0, 1, 1, 3, 0, 0, 0, 0, 0]);
  });

  it('cuts a box out of a map and refuses a box outside it', () => {
    const map = mapOf(['1234', '5678']);
    expect(Array.from(ownerBox(map, { x: 1, y: 0, w: 2, h: 2 }).data)).toEqual([2, 3, 6, 7]);
    expect(() => applyOwnerChanges(map, { x: 3, y: 0, w: 2, h: 1 }, [], [], new ObjectSlots())).toThrow(/is not inside the 4x2 frame/);
  });
});
