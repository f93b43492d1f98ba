/**
 * Interpolating one object across one span (docs/objects.md "Keyframes and interpolation"): the
 * keyframe masks are propagated frame by frame forward from the first keyframe and backward from
 * the last with whatever tracker `step` wraps (the weight-free tracker, or SAM when a model is
 * loaded: src/inference/propagate/directional.ts), and each frame between gets the two fused by
 * distance weights (fuse.ts). The backward chain runs first and is kept cropped to its masks' boxes,
 * so a 60-frame span at 1080p holds a few object-sized crops, not 60 frames. Pure: no DOM, no store;
 * `emit` is where the caller writes.
 */
import { createLabelMap, type Box, type LabelMap } from '../../masks/labelMap';
import { contentBox } from '../../masks/geometry';
import { jAndF, type FrameJF } from '../../metrics/davis';
import { distanceWeights, fuseDirections, type Fused, type FusionMode } from './fuse';
import type { SpanDirection } from './spans';

export type Direction = 'forward' | 'backward';

/** A chain's state: the confidence and depth of the map it starts from (1 and 0: a keyframe). */
export interface ChainState {
  confidence: number;
  depth: number;
}

/**
 * One propagation step of a binary map (1: the object) from frame `from` to its neighbour in
 * `direction` (from + 1 forward, from − 1 backward).
 */
export type DirectionalStep = (direction: Direction, from: number, previous: LabelMap, chain: ChainState, signal?: AbortSignal) => Promise<{ map: LabelMap; confidence: number | null; depth: number }>;

export interface InterpolatedFrame extends Fused {
  frame: number;
  /** Each direction's confidence on this frame (null: that direction did not run). */
  forward: number | null;
  backward: number | null;
}

export interface SpanInput {
  a: number;
  b: number;
  direction: SpanDirection;
  /** The object's mask on keyframe a and on b (nonzero: the object); the one a direction starts from must be given. */
  first?: LabelMap;
  last?: LabelMap;
}

export interface RunOptions {
  fusion?: FusionMode;
  signal?: AbortSignal;
}

interface Cropped {
  box: Box | null;
  data: Uint8Array;
  confidence: number;
}

function binary(map: LabelMap): LabelMap {
  const data = new Uint8Array(map.data.length);
  for (let i = 0; i < data.length; i++) if (map.data[i] !== 0) data[i] = 1;
  return { width: map.width, height: map.height, data };
}

function crop(map: LabelMap, confidence: number): Cropped {
  const box = contentBox(map);
  if (!box) return { box, data: new Uint8Array(0), confidence };
  const data = new Uint8Array(box.w * box.h);
  for (let y = 0; y < box.h; y++) data.set(map.data.subarray((box.y + y) * map.width + box.x, (box.y + y) * map.width + box.x + box.w), y * box.w);
  return { box, data, confidence };
}

function uncrop(c: Cropped, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  if (!c.box) return out;
  for (let y = 0; y < c.box.h; y++) out.set(c.data.subarray(y * c.box.w, (y + 1) * c.box.w), (c.box.y + y) * width + c.box.x);
  return out;
}

function aborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new DOMException('interpolation cancelled', 'AbortError');
}

/**
 * Propagates `start` (on frame `from`) step by step in `direction` until frame `until` (inclusive),
 * handing each frame's map and confidence to `visit`.
 */
export async function runChain(
  step: DirectionalStep,
  direction: Direction,
  from: number,
  until: number,
  start: LabelMap,
  visit: (frame: number, map: LabelMap, confidence: number) => void | Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const d = direction === 'forward' ? 1 : -1;
  let map = binary(start);
  let chain: ChainState = { confidence: 1, depth: 0 };
  for (let t = from; t !== until; t += d) {
    aborted(signal);
    const r = await step(direction, t, map, chain, signal);
    aborted(signal);
    map = binary(r.map);
    chain = { confidence: r.confidence ?? 0, depth: r.depth };
    await visit(t + d, map, chain.confidence);
  }
}

/** Fills the frames strictly between a and b, in order from a (from b when only backward), handing each to `emit`. */
export async function interpolateSpan(step: DirectionalStep, span: SpanInput, emit: (f: InterpolatedFrame) => void | Promise<void>, options: RunOptions = {}): Promise<void> {
  const { a, b, direction } = span;
  const { signal } = options;
  if (b - a < 2) return;
  const needFirst = direction !== 'backward';
  const needLast = direction !== 'forward';
  if ((needFirst && !span.first) || (needLast && !span.last)) throw new RangeError(`the span ${a}–${b} lacks the keyframe mask it starts from`);
  const only = (frame: number, map: LabelMap, confidence: number, dir: Direction) => {
    let area = 0;
    for (let i = 0; i < map.data.length; i++) area += map.data[i];
    return { frame, mask: map.data, area, confidence, agreement: 1, forward: dir === 'forward' ? confidence : null, backward: dir === 'backward' ? confidence : null };
  };
  if (direction === 'forward') return runChain(step, 'forward', a, b - 1, span.first!, (t, m, c) => emit(only(t, m, c, 'forward')), signal);
  if (direction === 'backward') return runChain(step, 'backward', b, a + 1, span.last!, (t, m, c) => emit(only(t, m, c, 'backward')), signal);
  const { width, height } = span.last!;
  const backward = new Map<number, Cropped>();
  await runChain(step, 'backward', b, a + 1, span.last!, (t, m, c) => void backward.set(t, crop(m, c)), signal);
  await runChain(
    step,
    'forward',
    a,
    b - 1,
    span.first!,
    async (t, m, c) => {
      const back = backward.get(t)!;
      backward.delete(t);
      const fused = fuseDirections({ mask: m.data, confidence: c }, { mask: uncrop(back, width, height), confidence: back.confidence }, distanceWeights(a, b, t), options.fusion);
      await emit({ frame: t, ...fused, forward: c, backward: back.confidence });
    },
    signal,
  );
}

export interface HeldOutResult extends FrameJF {
  a: number;
  k: number;
  b: number;
  /** The fused frame's confidence at k. */
  confidence: number;
}

/**
 * The quality check (VISOR §3.4): interpolates a → b as if keyframe k (a < k < b) were not there,
 * and scores the result at k against k's own mask with J&F (src/metrics/davis.ts).
 */
export async function heldOutCheck(step: DirectionalStep, a: number, k: number, b: number, masks: { a: LabelMap; k: LabelMap; b: LabelMap }, options: RunOptions = {}): Promise<HeldOutResult> {
  if (!(a < k && k < b)) throw new RangeError(`keyframe ${k} is not strictly between ${a} and ${b}`);
  const { width, height } = masks.k;
  let fwd = { map: createLabelMap(width, height), confidence: 0 };
  let bwd = { map: createLabelMap(width, height), confidence: 0 };
  await runChain(step, 'forward', a, k, masks.a, (t, map, confidence) => void (t === k && (fwd = { map, confidence })), options.signal);
  await runChain(step, 'backward', b, k, masks.b, (t, map, confidence) => void (t === k && (bwd = { map, confidence })), options.signal);
  const fused = fuseDirections({ mask: fwd.map.data, confidence: fwd.confidence }, { mask: bwd.map.data, confidence: bwd.confidence }, distanceWeights(a, b, k), options.fusion);
  const scores = jAndF(binary(masks.k), { width, height, data: fused.mask });
  return { a, k, b, ...scores, confidence: fused.confidence };
}

/** The spans a check covers are kept when every check covering them reaches the threshold; a span no check covers is unchecked. */
export function spanVerdict(a: number, b: number, checks: readonly HeldOutResult[], threshold: number): 'kept' | 'rejected' | 'unchecked' {
  const covering = checks.filter((c) => (c.a === a && c.k === b) || (c.k === a && c.b === b));
  if (covering.length === 0) return 'unchecked';
  return covering.every((c) => c.jf >= threshold) ? 'kept' : 'rejected';
}
