import { describe, expect, it } from 'vitest';
import { LABEL } from './labelMap';
import { lookupTable, remapLabels } from './remap';

describe('remapLabels', () => {
  const release = { width: 4, height: 2, data: Uint8Array.from([0, 1, 2, 3, 4, 5, 255, 1]) };

  it('maps listed values and keeps the rest (Map or object tables)', () => {
    const toEditor = new Map([
      [LABEL.releaseBackground, LABEL.background],
      [LABEL.void, LABEL.background],
    ]);
    expect(Array.from(remapLabels(release, toEditor).data)).toEqual([0, 1, 2, 0, 4, 5, 0, 1]);
    expect(Array.from(remapLabels(release, { 1: 2, 2: 1 }).data)).toEqual([0, 2, 1, 3, 4, 5, 255, 2]);
  });

  it('returns a new map and leaves the input alone', () => {
    const before = release.data.slice();
    const out = remapLabels(release, { 3: 0 });
    expect(out.data).not.toBe(release.data);
    expect(release.data).toEqual(before);
    expect([out.width, out.height]).toEqual([4, 2]);
  });

  it('refuses values outside 0..255', () => {
    expect(() => lookupTable({ 1: 256 })).toThrow(/labels are integers 0..255/);
    expect(() => lookupTable(new Map([[-1, 0]]))).toThrow(RangeError);
    expect(() => lookupTable({ 1: 1.5 })).toThrow(RangeError);
  });
});
