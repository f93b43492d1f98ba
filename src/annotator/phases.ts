/**
 * Phases over many frames at once: timeline ranges, and the "change starts here" / "change ends
 * here" markers. Pure: the editor writes the returned changes in one store transaction
 * (store/frames.ts setFramePhases).
 *
 * The markers are read from the phases themselves, so there is nothing else to keep in step: the
 * change starts at the first transitioning frame and ends at the first end-state frame.
 *   starts here (k): frames before k initial; k up to the end marker (if it lies after k, else the
 *                    last frame) transitioning; the end marker on stays end.
 *   ends here (k):   frames from k on end; with a start marker before k, frames before it initial
 *                    and from it up to k transitioning; without one, frames before k keep their
 *                    phase, except that an "end" before k is cleared (the change ends at k).
 */
import type { FramePhase } from '../store/types';

export type Phases = readonly (FramePhase | undefined)[];
export type PhaseChanges = Map<number, FramePhase | undefined>;

/** A timeline selection: where it started and where it reaches now (either order). */
export interface FrameRange {
  anchor: number;
  head: number;
}

export function rangeBounds(r: FrameRange): [number, number] {
  return [Math.min(r.anchor, r.head), Math.max(r.anchor, r.head)];
}

export function phaseMarkers(phases: Phases): { start: number | null; end: number | null } {
  const start = phases.indexOf('transitioning');
  const end = phases.indexOf('end');
  return { start: start < 0 ? null : start, end: end < 0 ? null : end };
}

export function changeStartsAt(phases: Phases, k: number): PhaseChanges {
  const { end } = phaseMarkers(phases);
  const stop = end !== null && end > k ? end : phases.length;
  return diff(phases, (i) => (i < k ? 'initial' : i < stop ? 'transitioning' : 'end'));
}

export function changeEndsAt(phases: Phases, k: number): PhaseChanges {
  const { start } = phaseMarkers(phases);
  if (start !== null && start < k) return diff(phases, (i) => (i < start ? 'initial' : i < k ? 'transitioning' : 'end'));
  return diff(phases, (i) => (i >= k ? 'end' : phases[i] === 'end' ? undefined : phases[i]));
}

/**
 * What a phase button does to a range: sets `phase` on every frame of it, or clears it when every
 * frame already has it (the same toggle as on a single frame).
 */
export function rangePhaseTarget(phases: Phases, [lo, hi]: [number, number], phase: FramePhase): FramePhase | undefined {
  for (let i = lo; i <= hi; i++) if (phases[i] !== phase) return phase;
  return undefined;
}

/**
 * What a phase button (or the palette's "Set phase") does: on the frames selected on the timeline
 * when more than one is, else on frame k, where pressing the phase it already has clears it.
 */
export function phaseChangesFor(frames: readonly { phase?: FramePhase }[], k: number, selection: [number, number] | null, phase: FramePhase): PhaseChanges {
  const phases = frames.map((f) => f.phase);
  const range = selection && selection[1] > selection[0] ? selection : null;
  if (!range) return new Map([[k, phases[k] === phase ? undefined : phase]]);
  const target = rangePhaseTarget(phases, range, phase);
  const changes: PhaseChanges = new Map();
  for (let i = range[0]; i <= range[1]; i++) changes.set(i, target);
  return changes;
}

function diff(phases: Phases, target: (i: number) => FramePhase | undefined): PhaseChanges {
  const out: PhaseChanges = new Map();
  for (let i = 0; i < phases.length; i++) {
    const t = target(i);
    if (t !== phases[i]) out.set(i, t);
  }
  return out;
}
