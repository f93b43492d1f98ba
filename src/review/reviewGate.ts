/**
 * The review gate, pure: what must be true before a clip is handed in or approved.
 *
 * - Submitting is always allowed, but frames that are neither painted, ignored nor marked empty
 *   ("reviewed") are listed first, so nobody hands in a clip with 19 blank frames by accident.
 * - Approving needs a verdict on every frame that is not ignored, and a reviewer other than the
 *   people who painted the clip (the authors of its gt revisions). Either can be waived only by the
 *   `approve_override` step, whose note (the reason) is recorded in the clip's history.
 * - A rejected frame blocks approval even with an override: the reviewer said it is wrong; accept
 *   it after the fix or request changes.
 *
 * Frames are 0-based here and numbered from 1 in every message, as on the timeline.
 */
import { approvalBlocker, type Verdicts } from './verdicts';

/** "1–3, 5, 8–9" for frames [0, 1, 2, 4, 7, 8] (any order, duplicates ignored). */
export function frameRanges(indices: Iterable<number>): string {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j === i ? `${sorted[i] + 1}` : `${sorted[i] + 1}–${sorted[j] + 1}`);
    i = j + 1;
  }
  return parts.join(', ');
}

const frames = (n: number) => (n === 1 ? '1 frame' : `${n} frames`);

/** The facts about a frame that answer "has it been annotated?". */
export interface FrameAnswer {
  index: number;
  ignored?: unknown;
  reviewed?: boolean;
}

/**
 * Frames with no answer yet: not ignored, not marked empty, and no gt paint (`painted`, the frames
 * whose gt layer has pixels). The store's progress rule, as a list.
 */
export function unansweredFrames(frameRows: readonly FrameAnswer[], painted: ReadonlySet<number>): number[] {
  return frameRows.filter((f) => !f.ignored && !f.reviewed && !painted.has(f.index)).map((f) => f.index);
}

/** The submit warning for unanswered frames, or null when every frame has an answer. */
export function submitWarning(unanswered: readonly number[]): string | null {
  if (unanswered.length === 0) return null;
  const which = unanswered.length === 1 ? `Frame ${frameRanges(unanswered)} is` : `${frames(unanswered.length)} (${frameRanges(unanswered)}) are`;
  return `${which} not annotated, ignored or marked empty.`;
}

export interface ApprovalFacts {
  frameCount: number;
  /** Frames marked ignored: they need no verdict. */
  ignored: ReadonlySet<number>;
  /** The verdicts in force (store `latestVerdicts`). */
  verdicts: Verdicts;
  /** Who painted the clip: the authors of its gt revisions. */
  painters: ReadonlySet<string>;
}

/** Frames that are not ignored and have no verdict in force, ascending. */
export function framesWithoutVerdict(facts: Pick<ApprovalFacts, 'frameCount' | 'ignored' | 'verdicts'>): number[] {
  const out: number[] = [];
  for (let k = 0; k < facts.frameCount; k++) if (!facts.ignored.has(k) && !facts.verdicts.has(k)) out.push(k);
  return out;
}

export interface ApprovalCheck {
  /** Why approval is impossible whatever the override (rejected frames), or null. */
  blocked: string | null;
  /** Frames lacking a verdict (an override may waive them). */
  unreviewed: number[];
  /** The approver painted part of the clip (an override may waive it). */
  ownPainting: boolean;
}

export function checkApproval(facts: ApprovalFacts, approver: string): ApprovalCheck {
  return {
    blocked: approvalBlocker(facts.verdicts),
    unreviewed: framesWithoutVerdict(facts),
    ownPainting: facts.painters.has(approver.trim()),
  };
}

/**
 * Why `approver` may not approve now, or null when they may. `override` is true for the
 * `approve_override` step (its reason is checked by the lifecycle: a note is required).
 */
export function approvalRefusal(facts: ApprovalFacts, approver: string, override: boolean): string | null {
  const check = checkApproval(facts, approver);
  if (check.blocked) return check.blocked;
  if (override) return null;
  const reasons: string[] = [];
  if (check.unreviewed.length > 0) {
    const n = check.unreviewed.length;
    const total = facts.frameCount - facts.ignored.size;
    reasons.push(`${n} of ${total} frames ${n === 1 ? 'has' : 'have'} no verdict (${n === 1 ? 'frame' : 'frames'} ${frameRanges(check.unreviewed)})`);
  }
  if (check.ownPainting) reasons.push(`${approver.trim()} painted this clip and cannot approve their own work`);
  if (reasons.length === 0) return null;
  return `Cannot approve: ${reasons.join('; ')}. Accept or reject every frame in reviewer mode and leave approving to someone else, or use "Approve with override…" and give the reason.`;
}
