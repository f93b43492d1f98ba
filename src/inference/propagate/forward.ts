/**
 * "Propagate forward…": frame after frame from t, each propagated from the map just written, until
 * N frames are done, the clip ends, confidence drops below the threshold, nothing is left to carry,
 * or the user cancels. Re-detection runs every `redetectEvery` steps, and on any step whose
 * confidence falls below `redetectBelow` (the better of the two attempts is kept). A frame whose
 * final confidence is below the threshold is NOT written: the run stops before it, so what is
 * stored is only what cleared the bar. The steps (propagation, reading and writing frames) are
 * injected, so this loop is tested without a browser.
 */
import type { LabelMap } from '../../masks/labelMap';
import type { PropagationResult } from './propagateFrame';

export interface ForwardOptions {
  start: number;
  /** Frames to propagate at most. */
  count: number;
  frameCount: number;
  /** Stop when a frame's confidence is below this (0 disables). */
  threshold: number;
  /** Re-detect every this many steps (SPOC: 10); 0 never. */
  redetectEvery: number;
  /** Retry a step with re-detection when its confidence is below this. */
  redetectBelow: number;
  signal?: AbortSignal;
}

export interface ForwardSteps {
  step(from: number, previous: LabelMap, redetect: boolean): Promise<PropagationResult>;
  loadMap(k: number): Promise<LabelMap>;
  /** Stores the result on frame result.to; returns the map as stored, the next step's input. */
  write(result: PropagationResult): Promise<LabelMap>;
  onStep?(result: PropagationResult, done: number, total: number): void;
}

export type ForwardStop = 'done' | 'end-of-clip' | 'low-confidence' | 'nothing-to-propagate' | 'cancelled';

export interface ForwardReport {
  written: PropagationResult[];
  stop: ForwardStop;
  /** The result that stopped the run (low confidence / nothing to propagate), not written. */
  rejected: PropagationResult | null;
}

export function isAbort(e: unknown): boolean {
  return e instanceof Error && e.name === 'AbortError' || (e instanceof DOMException && e.name === 'AbortError');
}

export async function propagateForward(options: ForwardOptions, steps: ForwardSteps): Promise<ForwardReport> {
  const written: PropagationResult[] = [];
  const total = Math.max(0, Math.min(options.count, options.frameCount - 1 - options.start));
  let previous = await steps.loadMap(options.start);
  for (let i = 1; i <= total; i++) {
    if (options.signal?.aborted) return { written, stop: 'cancelled', rejected: null };
    const from = options.start + i - 1;
    const scheduled = options.redetectEvery > 0 && i % options.redetectEvery === 0;
    let result: PropagationResult;
    try {
      result = await steps.step(from, previous, scheduled);
      if (!scheduled && result.confidence !== null && result.confidence < options.redetectBelow) {
        const retry = await steps.step(from, previous, true);
        if (retry.confidence !== null && retry.confidence > result.confidence) result = retry;
      }
    } catch (e) {
      if (isAbort(e) || options.signal?.aborted) return { written, stop: 'cancelled', rejected: null };
      throw e;
    }
    if (options.signal?.aborted) return { written, stop: 'cancelled', rejected: null };
    if (result.confidence === null) return { written, stop: 'nothing-to-propagate', rejected: result };
    if (result.confidence < options.threshold) return { written, stop: 'low-confidence', rejected: result };
    previous = await steps.write(result);
    written.push(result);
    steps.onStep?.(result, i, total);
  }
  return { written, stop: options.start + total >= options.frameCount - 1 && total < options.count ? 'end-of-clip' : 'done', rejected: null };
}
