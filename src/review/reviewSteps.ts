/** Store bridge of the lifecycle: validate a step with the pure state machine and record it. */
import type { SpocDb } from '../store/db';
import { applyClipStep } from '../store/clipEvents';
import type { Clip, ClipEvent } from '../store/types';
import { storedClipRef, withClipWriteLock } from '../workspace/clipWriteLock';
import { ACTION_SPECS, transition, type ClipAction } from './lifecycle';

/**
 * Takes one lifecycle step on a stored clip as `by`, with an optional note (required to request
 * changes). Judged against the status stored at the time of writing; throws StoreError('invalid')
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

/** The step without the lock, for callers that hold it and need the step inside their own transaction. */
export function recordClipStep(db: SpocDb, clipId: string, action: ClipAction, by: string, note?: string, at?: number): Promise<{ clip: Clip; event: ClipEvent }> {
  return applyClipStep(db, clipId, { action, by, note, at }, (from) => transition(from, action, note));
}

/** How a refused step starts its message. */
export function refusalOf(action: ClipAction): string {
  const label = (ACTION_SPECS as Partial<Record<string, { label: string }>>)[action]?.label ?? action;
  return `Cannot take the step "${label.replace('…', '')}"`;
}
