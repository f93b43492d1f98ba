import { describe, expect, it } from 'vitest';
import type { LabelMap, RgbaImage } from '../../../masks/labelMap';
import { applySuggestion, objectMask, suggestionPatch, suggestionPreview, trainingFrames } from './suggestStates';

const W = 4;
const H = 2;
const map = (values: number[]): LabelMap => ({ width: W, height: H, data: Uint8Array.from(values) });
const image = (k: number): RgbaImage => ({ width: W, height: H, data: new Uint8ClampedArray(W * H * 4).fill(k) });

describe('suggest states', () => {
  it('trains on the labelled frames nearest to the shown one, skipping empty ones', async () => {
    const maps = [map([1, 0, 0, 0, 0, 0, 0, 0]), map(Array(8).fill(0)), map([2, 0, 0, 0, 0, 0, 0, 0]), map([1, 1, 0, 0, 0, 0, 0, 0]), map([0, 2, 0, 0, 0, 0, 0, 0])];
    const loaded: number[] = [];
    const { indices, frames } = await trainingFrames({ frameCount: 5, loadMap: async (k) => (loaded.push(k), maps[k]), getImage: async (k) => image(k) }, 2, 2);
    expect(indices).toEqual([3, 0]);
    expect(frames[0].image.data[0]).toBe(3);
    expect(loaded).not.toContain(2);
  });

  it('replaces only the painted object when there is one, the whole frame otherwise', () => {
    const painted = map([1, 1, 0, 0, 2, 0, 0, 0]);
    const mask = objectMask(painted);
    expect([...mask!]).toEqual([1, 1, 0, 0, 1, 0, 0, 0]);
    const suggestion = { labels: Uint8Array.from([2, 1, 1, 1, 1, 2, 0, 0]) };
    expect([...applySuggestion(painted, suggestion, mask)]).toEqual([2, 1, 0, 0, 1, 0, 0, 0]);
    expect(objectMask(map(Array(8).fill(0)))).toBeUndefined();
    expect([...applySuggestion(map(Array(8).fill(0)), suggestion, undefined)]).toEqual([2, 1, 1, 1, 1, 2, 0, 0]);
  });

  it('writes one patch that undoes to the frame as it was', () => {
    const painted = map([1, 1, 0, 0, 2, 0, 0, 0]);
    const patch = suggestionPatch(painted, 7, { labels: Uint8Array.from([2, 2, 0, 0, 2, 0, 0, 0]) }, objectMask(painted))!;
    expect(patch.frameIndex).toBe(7);
    expect([...painted.data]).toEqual([2, 2, 0, 0, 2, 0, 0, 0]);
    expect(suggestionPatch(painted, 7, { labels: painted.data.slice() }, undefined)).toBeNull();
  });

  it('previews both states it would write: actionable and transformed, only where it decides', () => {
    const painted = map([1, 1, 0, 0, 2, 0, 0, 0]);
    const suggestion = { labels: Uint8Array.from([2, 1, 1, 1, 1, 2, 0, 0]) };
    const inside = suggestionPreview(painted, suggestion, objectMask(painted));
    expect(inside).toMatchObject({ width: W, height: H, act: 2, trf: 1 });
    expect([...inside.data]).toEqual([2, 1, 0, 0, 1, 0, 0, 0]);
    const whole = suggestionPreview(map(Array(8).fill(0)), suggestion, undefined);
    expect([...whole.data]).toEqual([2, 1, 1, 1, 1, 2, 0, 0]);
    expect(whole).toMatchObject({ act: 4, trf: 2 });
    expect([...painted.data]).toEqual([1, 1, 0, 0, 2, 0, 0, 0]); // the frame itself is untouched
  });
});
