/** Store bridge of the lifecycle: validate a step with the pure state machine and record it. */
import type { SpocDb } from '../store/db';
import { applyClipStep } from '../store/clipEvents';
import type { Clip, ClipEvent } from '../store/types';
import { storedClipRef, withClipWriteLock } from '../workspace/clipWriteLock';
import { ACTION_SPECS, APPROVAL_ACTIONS, transition, type ClipAction } from './lifecycle';
import { approvalRefusal } from './reviewGate';
import { approvalFactTables, loadApprovalFacts } from './reviewGateLoader';

/**
 * Takes one lifecycle step on a stored clip as `by`, with an optional note (required to request
 * changes and to approve with an override). Judged against the status stored at the time of
 * writing; approving also against the review gate (reviewGate.ts). Throws StoreError('invalid')
 * with a readable message when the step is not allowed, and ClipBusyError (nothing written) while
 * another tab edits the clip: a status written behind an editor's back is the stale-copy problem
 * the clip lock exists for.
 */
export async function takeClipStep(
  db: SpocDb,
  clipId: string,
  action: ClipAction,
  by: string,
  note?: string,
  at?: number,
): Promise<{ clip: Clip; event: ClipEvent }> {
  return withClipWriteLock([await storedClipRef(db, clipId)], refusalOf(action), () => recordClipStep(db, clipId, action, by, note, at));
}

/**
 * The step without the lock, for callers that hold it and need the step inside their own
 * transaction. An approval reads the gate's facts (frames, verdicts, gt revision authors) in the
 * same transaction as the step, so a verdict or stroke written in another tab cannot slip between
 * the check and the write.
 */
export function recordClipStep(db: SpocDb, clipId: string, action: ClipAction, by: string, note?: string, at?: number): Promise<{ clip: Clip; event: ClipEvent }> {
  const step = { action, by, note, at };
  if (!APPROVAL_ACTIONS.includes(action)) return applyClipStep(db, clipId, step, (from) => transition(from, action, note));
  return db.transaction('rw', [db.clips, db.projects, db.clipEvents, ...approvalFactTables(db)], async () => {
    const facts = await loadApprovalFacts(db, clipId);
    return applyClipStep(db, clipId, step, (from) => {
      const result = transition(from, action, note);
      if (!result.ok) return result;
      const refusal = approvalRefusal(facts, by, action === 'approve_override');
      return refusal ? { ok: false, error: refusal } : result;
    });
  });
}

/**
 * Approves a clip as `by` through the review gate (reviewGate.ts): refused (StoreError 'invalid',
 * nothing written) while a frame stands rejected, a frame has no verdict, or `by` painted the clip.
 * With `override` (the reason, required) the last two are waived and the step is recorded as
 * `approve_override` with the reason as its note.
 */
export function approveClip(
  db: SpocDb,
  clipId: string,
  by: string,
  options: { note?: string; override?: string; at?: number } = {},
): Promise<{ clip: Clip; event: ClipEvent }> {
  const { note, override, at } = options;
  if (override !== undefined) return takeClipStep(db, clipId, 'approve_override', by, override, at);
  return takeClipStep(db, clipId, 'approve', by, note, at);
}

/** How a refused step starts its message. */
export function refusalOf(action: ClipAction): string {
  const label = (ACTION_SPECS as Partial<Record<string, { label: string }>>)[action]?.label ?? action;
  return `Cannot take the step "${label.replace('…', '')}"`;
}
