import { describe, expect, it } from 'vitest';
import type { LabelMap, RgbaImage } from '../../masks/labelMap';
import { directionalStep } from './directional';

describe('a step in either direction', () => {
  it('reads the neighbour frame backwards in the clip’s own numbers', async () => {
    const asked: number[] = [];
    const image = (k: number): RgbaImage => ({ width: 10, height: 10, data: new Uint8ClampedArray(400).fill(k) });
    const labels: LabelMap = { width: 10, height: 10, data: new Uint8Array(100).fill(0) };
    labels.data.fill(1, 0, 60);
    const flows: [number, number][] = [];
    const step = directionalStep(
      { kind: 'flow', backend: { propagateByFlow: async (prev, next, l) => (flows.push([prev.data[0], next.data[0]]), { map: l, confidence: 0.8 }) } },
      { getImage: async (k) => (asked.push(k), image(k)), frameKey: (k) => `f${k}` },
      20,
    );
    const back = await step('backward', 7, labels, { confidence: 1, depth: 0 });
    expect([back.from, back.to]).toEqual([7, 6]);
    expect(flows).toEqual([[7, 6]]);
    const fwd = await step('forward', 7, labels, { confidence: 1, depth: 0 });
    expect([fwd.from, fwd.to]).toEqual([7, 8]);
    expect(flows.at(-1)).toEqual([7, 8]);
    expect(asked.sort((p, q) => p - q)).toEqual([6, 7, 7, 8]);
  });
});
