import { describe, expect, it } from 'vitest';
import { LABEL } from '../../masks/labelMap';
import { cropMask, type CroppedMask } from '../spoc/croppedMask';
import { paintProposals } from './paint';
import { linkTracks } from './tracker';

const W = 40;
const H = 30;
function rect(x: number, y: number, w: number, h: number): CroppedMask {
  const data = new Uint8Array(W * H);
  for (let j = y; j < y + h; j++) for (let i = x; i < x + w; i++) data[j * W + i] = 1;
  return cropMask(data, W, H);
}

describe('linkTracks (greedy mask IoU)', () => {
  it('links the best-overlapping pairs first, one to one, and starts new tracks for the rest', () => {
    const f0 = [rect(0, 0, 10, 10), rect(20, 0, 10, 10)];
    // f1[0] overlaps f0[1] (IoU 80/120); f1[1] overlaps f0[0] fully; f1[2] is new.
    const f1 = [rect(22, 0, 10, 10), rect(0, 0, 10, 10), rect(0, 20, 5, 5)];
    const f2 = [rect(0, 0, 10, 10), rect(0, 1, 10, 10)]; // both want track 0: the identical one wins
    expect(linkTracks([f0, f1, f2])).toEqual([
      [0, 1],
      [1, 0, 2],
      [0, 3],
    ]);
  });
  it('respects the threshold (>=) and never bridges a frame without a match', () => {
    const a = rect(0, 0, 10, 10);
    const half = rect(5, 0, 10, 10); // IoU 50 / 150 = 1/3
    expect(linkTracks([[a], [half]], 1 / 3)).toEqual([[0], [0]]);
    expect(linkTracks([[a], [half]], 0.34)).toEqual([[0], [1]]);
    expect(linkTracks([[a], [], [a]])).toEqual([[0], [], [1]]);
    expect(() => linkTracks([[a]], 0)).toThrow(RangeError);
  });
});

describe('paintProposals', () => {
  it('paints only actionable/transformed, largest first so nested smaller masks win', () => {
    const big = rect(0, 0, 20, 20);
    const small = rect(5, 5, 5, 5);
    const map = paintProposals(W, H, [
      { mask: small, state: 'transformed', score: 0.5 },
      { mask: big, state: 'actionable', score: 0.9 },
      { mask: rect(30, 0, 5, 5), state: 'ambiguous', score: 1 },
      { mask: rect(30, 10, 5, 5), state: 'background', score: 1 },
    ]);
    expect(map.data[0]).toBe(LABEL.actionable);
    expect(map.data[6 * W + 6]).toBe(LABEL.transformed);
    expect(map.data[1 * W + 31]).toBe(0);
    expect(map.data[11 * W + 31]).toBe(0);
  });
  it('on equal areas the higher SAM score wins, then the lower index', () => {
    const a = rect(0, 0, 10, 10);
    const b = rect(5, 0, 10, 10);
    expect(paintProposals(W, H, [{ mask: a, state: 'actionable', score: 0.2 }, { mask: b, state: 'transformed', score: 0.8 }]).data[7]).toBe(LABEL.transformed);
    expect(paintProposals(W, H, [{ mask: a, state: 'actionable', score: 0.5 }, { mask: b, state: 'transformed', score: 0.5 }]).data[7]).toBe(LABEL.actionable);
    expect(() => paintProposals(10, 10, [{ mask: a, state: 'actionable', score: 1 }])).toThrow(/frame/);
  });
});
