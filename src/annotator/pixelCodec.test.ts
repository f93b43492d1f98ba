import { describe, expect, it } from 'vitest';
import { createLabelMap, type LabelMap } from '../masks/labelMap';
import { ObjectSlots } from '../masks/ownerMap';
import { encodeRle } from '../masks/rle';
import { RecordCheck, checkLayer, checkRevision } from '../store/records';
import type { LayerObject } from '../store/types';
import { diffPixels } from './patch';
import { MAX_EDITOR_OBJECTS, objectCodec, STATE_CODEC, UNASSIGNED } from './pixelCodec';

const W = 6;
const H = 4;
const clip = { id: 'c1', width: W, height: H, frameCount: 1 };

/** A map from rows of characters: '.' 0, digits slots, 'u' unassigned. */
function mapOf(rows: string[]): LabelMap {
  const m = createLabelMap(rows[0].length, rows.length);
  rows.forEach((r, y) => [...r].forEach((ch, x) => (m.data[y * r.length + x] = ch === '.' ? 0 : ch === 'u' ? UNASSIGNED : Number(ch))));
  return m;
}

const rowsOf = (m: LabelMap) => Array.from({ length: m.height }, (_, y) => Array.from(m.data.subarray(y * m.width, (y + 1) * m.width), (v) => (v === 0 ? '.' : v === UNASSIGNED ? 'u' : String(v))).join(''));

function codecWith(...ids: string[]) {
  const slots = new ObjectSlots(MAX_EDITOR_OBJECTS);
  for (const id of ids) slots.slotOf(id);
  return objectCodec(slots);
}

describe('objects codec', () => {
  it('stores each object as its own RLE, every annotated pixel in act, nothing in trf, and reads it back', () => {
    const codec = codecWith('carrot', 'knife');
    const map = mapOf(['11....', '11.22.', 'u..22.', '......']);
    const pixels = codec.layerOf(map);
    const layer = checkLayer(new RecordCheck('The layer'), { clipId: 'c1', frameIndex: 0, source: 'gt', ...pixels, provenance: { kind: 'manual', by: 'a', at: 1 } }, '', clip, 'input', 1);
    expect(layer.actArea).toBe(9);
    expect(layer.trfArea).toBe(0);
    expect(layer.objects?.map((o) => [o.id, o.area])).toEqual([['carrot', 4], ['knife', 4]]);
    // A fresh session (new slots, another order) reads the same owners under its own numbers.
    const other = codecWith('knife');
    const back = other.mapOf(layer, W, H);
    expect(rowsOf(back)).toEqual(['22....', '22.11.', 'u..11.', '......']);
  });

  it('keeps an object\'s facts across an edit, and its provenance only while its pixels stay', () => {
    const codec = codecWith('a', 'b', 'c');
    const first = codec.layerOf(mapOf(['11.22.', '......', '......', '......']));
    const facts: LayerObject[] = first.objects!.map((o): LayerObject => (o.id === 'a' ? { ...o, keyframe: true as const, provenance: { kind: 'interpolated' as const, by: 't', at: 1, confidence: 0.8 } } : { ...o, provenance: { kind: 'propagated' as const, by: 't', at: 1 } }));
    facts.push({ id: 'c', rle: encodeRle(new Uint8Array(W * H), H, W), area: 0, presence: 'occluded' });
    const next = codec.layerOf(mapOf(['11.2..', '......', '......', '......']), facts);
    expect(next.objects?.map((o) => [o.id, o.area, o.keyframe, o.presence, o.provenance?.kind])).toEqual([
      ['a', 2, true, undefined, 'interpolated'],
      ['b', 1, undefined, undefined, undefined],
      ['c', 0, undefined, 'occluded', undefined],
    ]);
  });

  it('turns a patch into a revision the store accepts and back, owners included', () => {
    const codec = codecWith('a', 'b');
    const before = mapOf(['11....', '11....', 'u.....', '......']);
    const after = mapOf(['22....', '12....', '2.....', '......']);
    const patch = diffPixels({ x: 0, y: 0, w: W, h: H }, before.data, after.data, 0, 'brush')!;
    const rev = codec.toRevision(patch);
    expect(rev.objectsBefore?.map((o) => o.id)).toEqual(['a']);
    expect(rev.objectsAfter?.map((o) => o.id)).toEqual(['a', 'b']);
    // Giving pixels to another object leaves the footprint as it was: only the owners say what changed.
    expect(rev.before).toEqual(rev.after);
    expect(() => checkRevision(new RecordCheck('The revision'), { ...rev, clipId: 'c1', source: 'gt', author: 'a', at: 1 }, '', clip, 'input')).not.toThrow();
    const back = codec.toPatch(rev);
    expect(Array.from(back.before)).toEqual(Array.from(patch.before));
    expect(Array.from(back.after)).toEqual(Array.from(patch.after));
  });

  it('keeps a SPOC layer\'s objects inside its states when the states are edited', () => {
    const objects = codecWith('a', 'b').layerOf(mapOf(['11.22.', '11.22.', '......', '......'])).objects!;
    // The states editor erased a column of a's pixels and swapped b's states: b keeps all it had.
    const next = STATE_CODEC.layerOf(mapOf(['1..12.', '1..21.', '......', '......']), objects.map((o) => ({ ...o, provenance: { kind: 'imported', by: 'x', at: 1 } })));
    expect(next.objects?.map((o) => [o.id, o.area, o.provenance?.kind])).toEqual([['a', 2, undefined], ['b', 4, 'imported']]);
    const layer = checkLayer(new RecordCheck('The layer'), { clipId: 'c1', frameIndex: 0, source: 'gt', ...next, provenance: { kind: 'manual', by: 'a', at: 1 } }, '', clip, 'input', 1);
    expect(layer.objects).toHaveLength(2);
  });

  it('caps a session at 254 objects, and the states codec is the encoding SPOC always had', () => {
    const codec = codecWith(...Array.from({ length: 254 }, (_, i) => `o${i}`));
    expect(() => codec.slots.slotOf('one too many')).toThrow(/at most 254 objects per clip/);
    const m = mapOf(['12....', '......', '......', '......']);
    expect(STATE_CODEC.mapOf(STATE_CODEC.layerOf(m), W, H).data).toEqual(m.data);
  });
});
