/** Store bridge of the lifecycle: validate a step with the pure state machine and record it. */
import type { SpocDb } from '../store/db';
import { applyClipStep } from '../store/clipEvents';
import type { Clip, ClipEvent } from '../store/types';
import { transition, type ClipAction } from './lifecycle';

/**
 * Takes one lifecycle step on a stored clip as `by`, with an optional note (required to request
 * changes). Judged against the status stored at the time of writing; throws StoreError('invalid')
 * with a readable message when the step is not allowed.
 */
export async function takeClipStep(
  db: SpocDb,
  clipId: string,
  action: ClipAction,
  by: string,
  note?: string,
  at?: number,
): Promise<{ clip: Clip; event: ClipEvent }> {
  return applyClipStep(db, clipId, { action, by, note, at }, (from) => transition(from, action, note));
}
