import { describe, expect, it } from 'vitest';
import { evaluateSequence, jAndF } from './davis';
import { blank, sq } from '../testing/metricFixtures';

const close = (a: number, e: number): void => expect(Math.abs(a - e)).toBeLessThanOrEqual(1e-9);

describe('DAVIS sequence evaluation', () => {
  const gt = sq(10, 10, 2, 5, 2, 5);
  const seq = [
    { gt, pred: gt }, // J 1, F 1
    { gt, pred: sq(10, 10, 2, 5, 3, 6) }, // J 0.6, F 1
    { gt, pred: sq(10, 10, 2, 5, 4, 7) }, // J 1/3, F 0.625
    { gt, pred: blank(10, 10) }, // J 0, F 0
  ];

  it('combines per-frame J and F with the DAVIS statistics', () => {
    const r = evaluateSequence(seq);
    expect(r.perFrame.map((f) => f.j)).toEqual([1, 0.6, 1 / 3, 0]);
    close(r.j.mean, (1 + 0.6 + 1 / 3) / 4);
    close(r.j.recall, 0.5);
    close(r.f.mean, (1 + 1 + 0.625) / 4);
    close(r.f.recall, 0.75);
    // N = 4: edges [0, 1, 2, 2, 3] -> bin 0 = frames 0..1, bin 3 = frames 2..3.
    close(r.j.decay, 0.8 - 1 / 6);
    close(r.jfMean, (r.j.mean + r.f.mean) / 2);
  });

  it('applies the void mask to J and F alike (vector D8)', () => {
    const s = jAndF(gt, sq(10, 10, 2, 5, 3, 6), sq(10, 10, 0, 9, 0, 2));
    close(s.j, 0.75);
    close(s.f, 1);
    close(s.jf, 0.875);
  });
});
