import { describe, expect, it } from 'vitest';
import { makeRle } from '../masks/rle';
import type { LayerObject } from '../store/types';
import { isKeyframe, keyframesOf, toggleKeyframe, withProvenance } from './keyframes';

const obj = (id: string, area: number, extra: Partial<LayerObject> = {}): LayerObject => ({ id, rle: makeRle(area > 0 ? [0, area, 12 - area] : [12], 3, 4), area, ...extra });

describe('keyframe marks', () => {
  it('toggle on an object with pixels, keeping its other facts', () => {
    const on = toggleKeyframe('a', 4, 3)([obj('a', 2, { exhaustive: true }), obj('b', 1)]);
    expect(on.map((o) => [o.id, o.keyframe, o.exhaustive])).toEqual([['a', true, true], ['b', undefined, undefined]]);
    expect(isKeyframe(on, 'a')).toBe(true);
    const off = toggleKeyframe('a', 4, 3)(on);
    expect(off[0]).toEqual(obj('a', 2, { exhaustive: true }));
  });

  it('mark an object absent from the frame with an empty entry, removed again when unmarked', () => {
    const on = toggleKeyframe('c', 4, 3)([obj('a', 2)]);
    expect(on[1]).toEqual({ id: 'c', rle: makeRle([12], 3, 4), area: 0, keyframe: true });
    expect(toggleKeyframe('c', 4, 3)(on)).toEqual([obj('a', 2)]);
  });

  it('list an object’s keyframes in frame order with its presence', () => {
    const layers = [
      { frameIndex: 9, objects: [obj('a', 0, { keyframe: true })] },
      { frameIndex: 0, objects: [obj('a', 2, { keyframe: true })] },
      { frameIndex: 4, objects: [obj('a', 2)] },
      { frameIndex: 5 },
    ];
    expect(keyframesOf(layers, 'a')).toEqual([
      { frame: 0, present: true },
      { frame: 9, present: false },
    ]);
  });

  it('provenance goes on the object’s pixels, never on a keyframe', () => {
    const p = { kind: 'interpolated' as const, by: 'x', at: 1, confidence: 0.5 };
    const out = withProvenance('a', p)([obj('a', 2), obj('b', 2)]);
    expect(out[0].provenance).toEqual(p);
    expect(out[1].provenance).toBeUndefined();
    expect(withProvenance('a', p)([obj('a', 2, { keyframe: true })])[0].provenance).toBeUndefined();
  });
});
