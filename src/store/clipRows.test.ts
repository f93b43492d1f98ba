/** Rows added with renamed objects (a bundle copied in) follow the renames, relations included. */
import { describe, expect, it } from 'vitest';
import { layerWithObjectIds, revisionWithObjectIds } from './clipRows';
import type { Layer, LayerRelation } from './types';

const rle = { size: [1, 1] as [number, number], counts: '01' };
const touch: LayerRelation = { type: 'contact', subjectId: 'hand', answer: 'contact', objectId: 'pan' };
const renamed = new Map([['hand', 'hand2'], ['pan', 'pan2']]);

describe('rows following renamed objects', () => {
  it("renames a layer's objects and both ends of its relations", () => {
    const layer = { clipId: 'c', frameIndex: 0, source: 'gt', act: rle, trf: rle, objects: [{ id: 'hand', rle, area: 1 }, { id: 'pan', rle, area: 0 }], relations: [touch] } as unknown as Layer;
    const out = layerWithObjectIds(layer, renamed);
    expect(out.objects!.map((o) => o.id)).toEqual(['hand2', 'pan2']);
    expect(out.relations).toEqual([{ ...touch, subjectId: 'hand2', objectId: 'pan2' }]);
    expect(layerWithObjectIds(layer, new Map())).toBe(layer);
  });

  it("renames a revision's relations on both sides", () => {
    const rev = { relationsBefore: [], relationsAfter: [touch] };
    expect(revisionWithObjectIds(rev, renamed)).toEqual({ relationsBefore: [], relationsAfter: [{ ...touch, subjectId: 'hand2', objectId: 'pan2' }] });
    expect(revisionWithObjectIds(rev, new Map([['knife', 'k2']]))).toBe(rev);
  });
});
