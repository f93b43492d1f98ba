import { describe, expect, it } from 'vitest';
import { createRng } from '../src/demo';
import { applyNoise, chooseNoise, morph, swapStates } from './noise';
import { mapOf } from './testing';

const rows = (m: { width: number; data: Uint8Array }): string[] => {
  const out: string[] = [];
  for (let i = 0; i < m.data.length; i += m.width) out.push([...m.data.subarray(i, i + m.width)].join(''));
  return out;
};

describe('prediction noise', () => {
  const base = mapOf(['00000', '01120', '01120', '00000']);

  it('erodes and dilates the object with 4-neighbour steps', () => {
    expect(rows(morph(base, 1, 'erode'))).toEqual(['00000', '00000', '00000', '00000']);
    expect(rows(morph(base, 1, 'dilate'))).toEqual(['01120', '11122', '11122', '01120']);
    expect(rows(base)).toEqual(['00000', '01120', '01120', '00000']);
  });

  it('swaps the two states and leaves everything else', () => {
    expect(rows(swapStates(mapOf(['0123', '2145'])))).toEqual(['0213', '1245']);
  });

  it('drops a frame or copies it exactly', () => {
    expect(applyNoise(base, { op: 'drop', radius: 0 })).toBeNull();
    const copy = applyNoise(base, { op: 'exact', radius: 0 })!;
    expect(copy.data).toEqual(base.data);
    expect(copy.data).not.toBe(base.data);
  });

  it('is seeded: the same seed picks the same degradations; p = 0 never degrades', () => {
    const pick = (seed: number, p: number) => {
      const rng = createRng(seed);
      return Array.from({ length: 40 }, () => chooseNoise(rng, p, 854, 480));
    };
    expect(pick(3, 0.5)).toEqual(pick(3, 0.5));
    expect(pick(3, 0).every((c) => c.op === 'exact')).toBe(true);
    const ops = new Set(pick(3, 1).map((c) => c.op));
    expect(ops).toEqual(new Set(['erode', 'dilate', 'swap', 'drop']));
    for (const c of pick(4, 1)) if (c.op === 'erode' || c.op === 'dilate') expect(c.radius).toBeGreaterThanOrEqual(1);
  });
});
