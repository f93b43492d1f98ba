import { describe, expect, it } from 'vitest';
import type { LabelMap } from '../../masks/labelMap';
import { heldOutCheck, interpolateSpan, spanVerdict, type DirectionalStep, type HeldOutResult, type InterpolatedFrame } from './run';

const W = 12;
const H = 4;
/** A 2x2 square with its left column at x, rows 1–2. */
function square(x: number): LabelMap {
  const data = new Uint8Array(W * H);
  for (const y of [1, 2]) for (const dx of [0, 1]) data[y * W + x + dx] = 1;
  return { width: W, height: H, data };
}
const columns = (mask: Uint8Array) => [...new Set([...mask.keys()].filter((i) => mask[i]).map((i) => i % W))].sort((p, q) => p - q);

/** Moves the mask `speed` columns per frame in the direction of travel; each step's confidence is 0.9 of the last. */
function shifting(speed: number): DirectionalStep & { calls: string[] } {
  const calls: string[] = [];
  const step: DirectionalStep = async (direction, from, previous, chain) => {
    calls.push(`${direction} ${from}`);
    const d = (direction === 'forward' ? 1 : -1) * speed;
    const data = new Uint8Array(W * H);
    for (let i = 0; i < data.length; i++) if (previous.data[i]) data[i + d] = 1;
    return { map: { width: W, height: H, data }, confidence: chain.confidence * 0.9, depth: chain.depth + 1 };
  };
  return Object.assign(step, { calls });
}

async function collect(step: DirectionalStep, span: Parameters<typeof interpolateSpan>[1], fusion?: 'vote' | 'soft') {
  const out: InterpolatedFrame[] = [];
  await interpolateSpan(step, span, (f) => void out.push(f), { fusion });
  return out;
}

describe('interpolating one span', () => {
  it('both directions tracking the motion agree: the frames between hold the moved object, confidence weighted by distance', async () => {
    const step = shifting(1);
    const frames = await collect(step, { a: 0, b: 4, direction: 'both', first: square(0), last: square(4) });
    expect(frames.map((f) => [f.frame, columns(f.mask)])).toEqual([
      [1, [1, 2]],
      [2, [2, 3]],
      [3, [3, 4]],
    ]);
    // Backward first (kept cropped), then forward: 3 steps each, never onto a keyframe.
    expect(step.calls).toEqual(['backward 4', 'backward 3', 'backward 2', 'forward 0', 'forward 1', 'forward 2']);
    // t=1: forward 0.9, backward 0.9³ = 0.729; 0.75·0.9 + 0.25·0.729 = 0.85725, full agreement.
    expect(frames[0].forward).toBeCloseTo(0.9, 12);
    expect(frames[0].backward).toBeCloseTo(0.729, 12);
    expect(frames[0].confidence).toBeCloseTo(0.85725, 12);
    expect(frames[1].confidence).toBeCloseTo(0.81, 12);
  });

  it('a tracker that does not follow: the nearer keyframe wins, the middle takes both (vote)', async () => {
    const frames = await collect(shifting(0), { a: 0, b: 4, direction: 'both', first: square(0), last: square(6) }, 'vote');
    expect(frames.map((f) => columns(f.mask))).toEqual([[0, 1], [0, 1, 6, 7], [6, 7]]);
    // Disjoint at the middle: (0.5·0.81 + 0.5·0.81)·(1 − 2·0.5·1) = 0.
    expect(frames[1].confidence).toBe(0);
  });

  it('one direction only (a hand present on one keyframe): carried from that keyframe, its own confidence', async () => {
    const frames = await collect(shifting(1), { a: 0, b: 3, direction: 'backward', last: square(5) });
    expect(frames.map((f) => [f.frame, columns(f.mask), f.forward, Number(f.confidence.toFixed(4))])).toEqual([
      [2, [4, 5], null, 0.9],
      [1, [3, 4], null, 0.81],
    ]);
  });
});

describe('the held-out keyframe check', () => {
  it('scores the interpolation across k against k by J&F', async () => {
    const good = await heldOutCheck(shifting(1), 0, 2, 4, { a: square(0), k: square(2), b: square(4) });
    expect([good.j, good.f, good.jf]).toEqual([1, 1, 1]);
    // A tracker that stands still: the middle is the union of squares at 0 and 4, k's square at 2 is missed.
    const bad = await heldOutCheck(shifting(0), 0, 2, 4, { a: square(0), k: square(2), b: square(4) });
    expect(bad.j).toBe(0);
    expect(bad.jf).toBeLessThan(0.85);
  });

  it('keeps a span only when every check covering it reaches the threshold', () => {
    const check = (a: number, k: number, b: number, jf: number) => ({ a, k, b, jf, j: jf, f: jf, confidence: 1 }) as HeldOutResult;
    const checks = [check(0, 4, 8, 0.9), check(4, 8, 12, 0.8)];
    expect(spanVerdict(0, 4, checks, 0.85)).toBe('kept');
    expect(spanVerdict(4, 8, checks, 0.85)).toBe('rejected');
    expect(spanVerdict(8, 12, checks, 0.85)).toBe('rejected');
    expect(spanVerdict(8, 12, checks, 0.8)).toBe('kept');
    expect(spanVerdict(12, 20, checks, 0.85)).toBe('unchecked');
  });
});
