/**
 * SPOC §3.3 dynamics constraints over one tracked masklet: state changes are irreversible, so every
 * actionable frame must precede every transformed frame.
 *
 * Causal ordering (the paper's loop, verbatim): with A / T the frames labelled actionable /
 * transformed, while max(A) > min(T): if |max(A) - mean(A)| > |min(T) - mean(T)| flip max(A) to
 * transformed, else flip min(T) to actionable (so a tie flips min(T)); recompute and repeat.
 * It terminates: each flip removes at least the pair (max(A), min(T)) from the set of inverted
 * (actionable-after-transformed) pairs and adds none, because the flipped frame is the extreme of
 * its old set — so at most |A|·|T| iterations.
 *
 * Ambiguity resolution, after ordering and using the ordered A and T for every ambiguous frame at
 * once: t becomes actionable if |t - max(A)| < |t - min(T)|, else transformed (ties: transformed).
 * An empty A or T counts as infinitely far. When both are empty the rule has nothing to compare
 * and the frames stay ambiguous (our choice: the paper does not define it; the annotator decides).
 * Background frames take no part and are never changed.
 */
import type { ProposalState } from './eq1';

export interface TrackFrame {
  /** Frame index (or any increasing time); need not be contiguous. */
  frame: number;
  state: ProposalState;
}

export interface ConstrainedFrame extends TrackFrame {
  /** The state before the constraints. */
  before: ProposalState;
  /** Which constraint changed it, if any. */
  changedBy: 'causal' | 'ambiguity' | null;
}

function sortedCopy(track: readonly TrackFrame[]): TrackFrame[] {
  const out = track.map((f) => ({ frame: f.frame, state: f.state }));
  out.sort((a, b) => a.frame - b.frame);
  for (let i = 0; i < out.length; i++) {
    if (!Number.isFinite(out[i].frame)) throw new RangeError(`track frame ${out[i].frame} is not a number`);
    if (i > 0 && out[i].frame === out[i - 1].frame) throw new RangeError(`frame ${out[i].frame} appears twice in the track`);
  }
  return out;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The causal-ordering loop. Returns the track sorted by frame with flipped states. */
export function causalOrdering(track: readonly TrackFrame[]): TrackFrame[] {
  const out = sortedCopy(track);
  // Frames sorted ascending, so A's max is its last element and T's min its first.
  const A = out.filter((f) => f.state === 'actionable').map((f) => f.frame);
  const T = out.filter((f) => f.state === 'transformed').map((f) => f.frame);
  const flipped = new Map<number, ProposalState>();
  while (A.length > 0 && T.length > 0 && A[A.length - 1] > T[0]) {
    const maxA = A[A.length - 1];
    const minT = T[0];
    if (Math.abs(maxA - mean(A)) > Math.abs(minT - mean(T))) {
      A.pop();
      T.splice(sortedIndex(T, maxA), 0, maxA);
      flipped.set(maxA, 'transformed');
    } else {
      T.shift();
      A.splice(sortedIndex(A, minT), 0, minT);
      flipped.set(minT, 'actionable');
    }
  }
  return out.map((f) => ({ frame: f.frame, state: flipped.get(f.frame) ?? f.state }));
}

function sortedIndex(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Ambiguity resolution. Returns the track sorted by frame. */
export function resolveAmbiguity(track: readonly TrackFrame[]): TrackFrame[] {
  const out = sortedCopy(track);
  const A = out.filter((f) => f.state === 'actionable').map((f) => f.frame);
  const T = out.filter((f) => f.state === 'transformed').map((f) => f.frame);
  if (A.length === 0 && T.length === 0) return out;
  const maxA = A.length ? Math.max(...A) : NaN;
  const minT = T.length ? Math.min(...T) : NaN;
  return out.map((f) => {
    if (f.state !== 'ambiguous') return f;
    const dA = A.length ? Math.abs(f.frame - maxA) : Infinity;
    const dT = T.length ? Math.abs(f.frame - minT) : Infinity;
    return { frame: f.frame, state: dA < dT ? 'actionable' : 'transformed' };
  });
}

/** Both constraints, causal ordering first, with provenance per frame. */
export function applyDynamics(track: readonly TrackFrame[]): ConstrainedFrame[] {
  const before = sortedCopy(track);
  const ordered = causalOrdering(before);
  const resolved = resolveAmbiguity(ordered);
  return resolved.map((f, i) => ({
    frame: f.frame,
    state: f.state,
    before: before[i].state,
    changedBy: ordered[i].state !== before[i].state ? 'causal' : resolved[i].state !== ordered[i].state ? 'ambiguity' : null,
  }));
}

/** True when no actionable frame comes after a transformed one. */
export function isCausallyOrdered(track: readonly TrackFrame[]): boolean {
  let seenTransformed = -Infinity;
  for (const f of sortedCopy(track)) {
    if (f.state === 'transformed') seenTransformed = Math.max(seenTransformed, f.frame);
    if (f.state === 'actionable' && seenTransformed > f.frame) return false;
  }
  return true;
}
