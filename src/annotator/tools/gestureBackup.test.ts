import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLabelMap } from '../../masks/labelMap';
import { applyPatch, diffToPatch } from '../patch';
import { GestureBackup } from './gestureBackup';

/** Byte equality without the per-element cost of a deep toEqual on large arrays. */
const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

describe('GestureBackup', () => {
  it('restores exactly and yields the tight patch, for random writes across bands (property)', () => {
    const write = fc.record({ x: fc.integer({ min: -10, max: 150 }), y: fc.integer({ min: -10, max: 100 }), w: fc.nat(70), h: fc.nat(70), v: fc.nat(2) });
    fc.assert(
      fc.property(fc.integer(), fc.array(write, { maxLength: 6 }), (seed, writes) => {
        // A noisy 0/1/2 background from the seed (cheaper to generate and shrink than 12 600 values).
        const data = Uint8Array.from({ length: 140 * 90 }, (_, i) => (Math.imul(i ^ seed, 2654435761) >>> 29) % 3);
        const map = { width: 140, height: 90, data: data.slice() };
        const original = data.slice();
        const backup = new GestureBackup(map);
        for (const { x, y, w, h, v } of writes) {
          backup.save({ x, y, w, h });
          for (let yy = Math.max(0, y); yy < Math.min(90, y + h); yy++) {
            for (let xx = Math.max(0, x); xx < Math.min(140, x + w); xx++) map.data[yy * 140 + xx] = v;
          }
        }
        const after = map.data.slice();
        const patch = backup.toPatch(4, 'test');
        // The same tight patch as a plain diff of the whole frame.
        const reference = diffToPatch({ ...map, data: original }, { ...map, data: after }, { x: 0, y: 0, w: 140, h: 90 }, 4, 'test');
        expect(patch?.box).toEqual(reference?.box);
        if (patch === null) expect(same(after, original)).toBe(true);
        else {
          applyPatch(map, patch, 'undo');
          expect(same(map.data, original)).toBe(true);
          applyPatch(map, patch, 'redo');
          expect(same(map.data, after)).toBe(true);
        }
        backup.restore();
        expect(same(map.data, original)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('restore(box) puts back only that box', () => {
    const map = createLabelMap(100, 10);
    const backup = new GestureBackup(map);
    backup.save({ x: 0, y: 0, w: 100, h: 10 });
    map.data.fill(1);
    backup.restore({ x: 10, y: 2, w: 5, h: 3 });
    expect(map.data.reduce((n, v) => n + v, 0)).toBe(1000 - 15);
    expect(map.data[2 * 100 + 10]).toBe(0);
    expect(backup.dirty).toEqual({ x: 0, y: 0, w: 100, h: 10 });
  });

  it('holds nothing until something is saved', () => {
    const backup = new GestureBackup(createLabelMap(10, 10));
    backup.save({ x: 20, y: 20, w: 5, h: 5 });
    expect(backup.toPatch(0, 'x')).toBeNull();
    backup.restore();
  });
});
