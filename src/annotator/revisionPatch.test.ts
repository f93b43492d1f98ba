import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MaskFormatError } from '../masks/errors';
import { decodeRle, encodeRle, parseCocoRle } from '../masks/rle';
import type { Patch } from './patch';
import { patchToRevision, revisionToPatch } from './revisionPatch';

const patchArb = fc
  .record({ w: fc.integer({ min: 1, max: 16 }), h: fc.integer({ min: 1, max: 16 }), x: fc.nat(50), y: fc.nat(50) })
  .chain(({ w, h, x, y }) =>
    fc.record({
      frameIndex: fc.nat(100),
      box: fc.constant({ x, y, w, h }),
      before: fc.uint8Array({ minLength: w * h, maxLength: w * h, max: 2 }),
      after: fc.uint8Array({ minLength: w * h, maxLength: w * h, max: 2 }),
      action: fc.constantFrom('brush', 'fill', 'undo:brush'),
    }),
  );

describe('patch <-> revision', () => {
  it('round-trips every 0/1/2 patch exactly (property)', () => {
    fc.assert(
      fc.property(patchArb, (patch: Patch) => {
        const rev = patchToRevision(patch);
        // Through JSON, as the store and bundles see it.
        const back = revisionToPatch(JSON.parse(JSON.stringify(rev)));
        expect(back).toEqual(patch);
      }),
    );
  });

  it('stores the footprint and the transformed part as plain COCO RLEs of the box', () => {
    // 3 wide, 2 high: row 0 = 0 1 2, row 1 = 2 2 0.
    const patch: Patch = {
      frameIndex: 1,
      box: { x: 4, y: 5, w: 3, h: 2 },
      before: new Uint8Array(6),
      after: Uint8Array.of(0, 1, 2, 2, 2, 0),
      action: 'brush',
    };
    const rev = patchToRevision(patch);
    expect(rev.after.size).toEqual([2, 3]);
    expect(Array.from(decodeRle(parseCocoRle(rev.after)))).toEqual([0, 1, 1, 1, 1, 0]);
    expect(Array.from(decodeRle(parseCocoRle(rev.afterTrf)))).toEqual([0, 0, 1, 1, 1, 0]);
    // Identical to what encodeRle (pycocotools-exact) writes for those binary masks.
    expect(rev.after.counts).toBe(encodeRle(Uint8Array.of(0, 1, 1, 1, 1, 0), 2, 3).counts);
    expect(rev.before.counts).toBe(encodeRle(new Uint8Array(6), 2, 3).counts);
  });

  it('reads a revision without trf fields as binary: nonzero = actionable', () => {
    const rev = { frameIndex: 0, box: { x: 0, y: 0, w: 2, h: 1 }, action: 'import', before: encodeRle(Uint8Array.of(0, 0), 1, 2), after: encodeRle(Uint8Array.of(1, 0), 1, 2) };
    expect(Array.from(revisionToPatch(rev).after)).toEqual([1, 0]);
  });

  it('refuses labels it cannot store', () => {
    const patch: Patch = { frameIndex: 0, box: { x: 0, y: 0, w: 2, h: 1 }, before: Uint8Array.of(0, 4), after: Uint8Array.of(1, 1), action: 'brush' };
    expect(() => patchToRevision(patch)).toThrow(/label 4 at \(x=1, y=0\)/);
  });

  it('refuses malformed revisions with MaskFormatError', () => {
    const good = patchToRevision({ frameIndex: 0, box: { x: 0, y: 0, w: 2, h: 1 }, before: Uint8Array.of(0, 0), after: Uint8Array.of(2, 0), action: 'b' });
    expect(() => revisionToPatch({ ...good, box: { x: 0, y: 0, w: 1, h: 2 } })).toThrow(MaskFormatError);
    expect(() => revisionToPatch({ ...good, after: good.before })).toThrow(/transformed but after leaves it background/);
    expect(() => revisionToPatch({ ...good, before: { size: [1, 2], counts: '!!' } })).toThrow(MaskFormatError);
    expect(() => revisionToPatch({ ...good, box: { x: -1, y: 0, w: 2, h: 1 } })).toThrow(MaskFormatError);
  });
});
