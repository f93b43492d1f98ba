import { describe, expect, it } from 'vitest';
import { parseInstanceTags, resolveInstances, tagRegion } from './instances';

// Two actionable blobs and one transformed blob on a 6x3 map.
const rows = ['11.22.', '11.22.', '....11'];
const map = { width: 6, height: 3, data: Uint8Array.from(rows.join('').split('').map((c) => (c === '.' ? 0 : Number(c)))) };

describe('instance tags', () => {
  it('tags the connected region under the point and resolves it from the label map', () => {
    const tags = tagRegion(map, [], 0.5, 1.5, 1)!;
    const more = tagRegion(map, tags, 3, 0, 2)!;
    expect(resolveInstances(map, more)).toEqual([
      { id: 1, label: 1, area: 4, box: { x: 0, y: 0, w: 2, h: 2 }, x: 0, y: 1 },
      { id: 2, label: 2, area: 4, box: { x: 3, y: 0, w: 2, h: 2 }, x: 3, y: 0 },
    ]);
  });

  it('refuses background and keeps one tag per region and one region per number', () => {
    expect(tagRegion(map, [], 2, 0, 1)).toBeNull();
    let tags = tagRegion(map, [], 0, 0, 1)!;
    tags = tagRegion(map, tags, 1, 1, 3)!; // same region, new number: replaces
    expect(tags).toEqual([{ id: 3, x: 1, y: 1 }]);
    tags = tagRegion(map, tags, 5, 2, 3)!; // number 3 moves to another region
    expect(tags).toEqual([{ id: 3, x: 5, y: 2 }]);
  });

  it('drops stale tags and malformed stored data', () => {
    expect(resolveInstances(map, [{ id: 4, x: 2, y: 2 }])).toEqual([]);
    expect(parseInstanceTags({ tags: [{ id: 1, x: 0, y: 0 }, { id: 0, x: 1, y: 1 }, { id: 2, x: 0.5, y: 0 }, 'junk'] })).toEqual([{ id: 1, x: 0, y: 0 }]);
    expect(parseInstanceTags(undefined)).toEqual([]);
  });
});
