import { describe, expect, it } from 'vitest';
import { createLabelMap } from '../masks/labelMap';
import { clearFrame, copyFrame } from './frameOps';
import { applyPatch } from './patch';

describe('frame operations', () => {
  it('clearFrame sets everything to 0 and returns the tight undo patch', () => {
    const map = createLabelMap(10, 10);
    map.data[3 * 10 + 4] = 1;
    map.data[6 * 10 + 2] = 2;
    const original = map.data.slice();
    const patch = clearFrame(map, 5)!;
    expect(map.data.every((v) => v === 0)).toBe(true);
    expect(patch).toMatchObject({ frameIndex: 5, action: 'clear', box: { x: 2, y: 3, w: 3, h: 4 } });
    applyPatch(map, patch, 'undo');
    expect(map.data).toEqual(original);
    expect(clearFrame(createLabelMap(4, 4), 0)).toBeNull();
  });

  it('copyFrame copies another frame without aliasing either map', () => {
    const prev = createLabelMap(6, 6);
    prev.data.fill(2, 0, 18);
    const map = createLabelMap(6, 6, 1);
    const patch = copyFrame(map, 1, prev)!;
    expect(map.data).toEqual(prev.data);
    expect(patch.action).toBe('copy-frame');
    prev.data.fill(0);
    map.data.fill(0);
    expect(patch.after.slice(0, 18).every((v) => v === 2)).toBe(true);
    expect(patch.before.every((v) => v === 1)).toBe(true);
    expect(() => copyFrame(map, 1, createLabelMap(5, 6))).toThrow(RangeError);
  });
});
