import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLabelMap, type LabelMap } from '../masks/labelMap';
import { applyPatch, diffPixels, diffToPatch, invertPatch, patchBytes, patchFits } from './patch';

function mapOf(rows: string[]): LabelMap {
  const h = rows.length;
  const w = rows[0].length;
  return { width: w, height: h, data: Uint8Array.from(rows.join(''), (c) => Number(c)) };
}

describe('diffToPatch', () => {
  it('shrinks the box to the changed pixels', () => {
    const before = mapOf(['0000', '0000', '0000']);
    const after = mapOf(['0000', '0120', '0000']);
    const patch = diffToPatch(before, after, { x: 0, y: 0, w: 4, h: 3 }, 7, 'brush');
    expect(patch).toEqual({ frameIndex: 7, box: { x: 1, y: 1, w: 2, h: 1 }, before: Uint8Array.of(0, 0), after: Uint8Array.of(1, 2), action: 'brush' });
  });

  it('returns null when nothing changed, also for a box outside the map', () => {
    const m = mapOf(['012', '210']);
    expect(diffToPatch(m, mapOf(['012', '210']), { x: 0, y: 0, w: 3, h: 2 })).toBeNull();
    expect(diffToPatch(m, mapOf(['112', '210']), { x: 5, y: 5, w: 3, h: 2 })).toBeNull();
  });

  it('only looks inside the box (clipped to the map)', () => {
    const patch = diffToPatch(mapOf(['000', '000']), mapOf(['100', '001']), { x: 1, y: -3, w: 10, h: 10 });
    expect(patch?.box).toEqual({ x: 2, y: 1, w: 1, h: 1 });
  });

  it('refuses maps of different sizes', () => {
    expect(() => diffToPatch(createLabelMap(2, 2), createLabelMap(3, 2), { x: 0, y: 0, w: 2, h: 2 })).toThrow(/differ in size/);
  });

  it('diffPixels checks the array lengths', () => {
    expect(() => diffPixels({ x: 0, y: 0, w: 2, h: 2 }, new Uint8Array(3), new Uint8Array(4), 0, 'x')).toThrow(RangeError);
  });
});

describe('applyPatch', () => {
  it('redo then undo restores the bytes exactly (property)', () => {
    const arb = fc
      .record({ w: fc.integer({ min: 1, max: 12 }), h: fc.integer({ min: 1, max: 12 }) })
      .chain(({ w, h }) =>
        fc.record({
          w: fc.constant(w),
          h: fc.constant(h),
          a: fc.uint8Array({ minLength: w * h, maxLength: w * h, max: 2 }),
          b: fc.uint8Array({ minLength: w * h, maxLength: w * h, max: 2 }),
        }),
      );
    fc.assert(
      fc.property(arb, ({ w, h, a, b }) => {
        const before = { width: w, height: h, data: a };
        const after = { width: w, height: h, data: b };
        const patch = diffToPatch(before, after, { x: 0, y: 0, w, h });
        if (!patch) {
          expect(a).toEqual(b);
          return;
        }
        const live = { width: w, height: h, data: a.slice() };
        expect(patchFits(live, patch, 'redo')).toBe(true);
        applyPatch(live, patch, 'redo');
        expect(live.data).toEqual(b);
        expect(patchFits(live, patch, 'undo')).toBe(true);
        applyPatch(live, patch, 'undo');
        expect(live.data).toEqual(a);
        expect(patchBytes(patch)).toBe(2 * patch.box.w * patch.box.h);
      }),
    );
  });

  it('patchFits tells a stale patch apart', () => {
    const patch = diffToPatch(mapOf(['00']), mapOf(['12']), { x: 0, y: 0, w: 2, h: 1 });
    expect(patch).not.toBeNull();
    expect(patchFits(mapOf(['02']), patch!, 'redo')).toBe(false);
    expect(patchFits(mapOf(['00']), patch!, 'undo')).toBe(false);
    expect(patchFits(mapOf(['0']), patch!, 'undo')).toBe(false);
  });

  it('invertPatch swaps the sides', () => {
    const patch = diffToPatch(mapOf(['00']), mapOf(['12']), { x: 0, y: 0, w: 2, h: 1 }, 3, 'fill')!;
    const inv = invertPatch(patch, 'undo:fill');
    expect(inv).toMatchObject({ frameIndex: 3, action: 'undo:fill', before: patch.after, after: patch.before, box: patch.box });
  });
});
