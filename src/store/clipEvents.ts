import type { SpocDb } from './db';
import { StoreError, notFound } from './errors';
import { withRowId } from './ids';
import { clipEventRows } from './keys';
import { RecordCheck, checkClipEvent } from './records';
import type { Clip, ClipEvent, ClipStatus } from './types';

/*
 * The review lifecycle's history (schema v4, table `clipEvents`). The rules of which step is allowed
 * live in src/review/lifecycle.ts (pure); this module applies a step the caller validated against the
 * status it read *inside* the transaction, so two tabs cannot both move a clip from the same state.
 */

export interface ClipStep {
  action: string;
  by: string;
  note?: string;
  at?: number;
}

/**
 * Moves a clip to a new status and appends the event, in one transaction. `decide(current)` is
 * called with the clip's status as stored now and returns the next status (and the cleaned note) or
 * an error message, which is thrown as StoreError('invalid') with nothing written.
 * Submitting also records the submitter as the clip's assignee (the person the reviewer's notes go
 * back to) when the clip has none.
 */
export async function applyClipStep(
  db: SpocDb,
  clipId: string,
  step: ClipStep,
  decide: (from: ClipStatus) => { ok: true; to: ClipStatus; note?: string } | { ok: false; error: string },
): Promise<{ clip: Clip; event: ClipEvent }> {
  const by = step.by.trim();
  if (!by) throw new StoreError('invalid', 'A review step needs who took it.');
  const at = step.at ?? Date.now();
  return db.transaction('rw', [db.clips, db.projects, db.clipEvents], async () => {
    const clip = await db.clips.get(clipId);
    if (!clip) throw notFound('Clip');
    const r = decide(clip.status);
    if (!r.ok) throw new StoreError('invalid', r.error);
    const given = { clipId, action: step.action, from: clip.status, to: r.to, by, at, ...(r.note ? { note: r.note } : {}) };
    const row = checkClipEvent(new RecordCheck('The review step'), given, '', clip, 'input');
    const next: Clip = { ...clip, status: r.to, updatedAt: at };
    if (step.action === 'submit' && !clip.assignee) next.assignee = by;
    await db.clips.put(next);
    await db.projects.update(clip.projectId, { updatedAt: at });
    const event = withRowId(row);
    const seq = await db.clipEvents.add(event);
    return { clip: next, event: { ...event, seq } };
  });
}

/** A clip's history, oldest first. */
export async function listClipEvents(db: SpocDb, clipId: string): Promise<ClipEvent[]> {
  return clipEventRows(db, clipId).toArray();
}

/**
 * The last person who took a lifecycle step on each clip of a project (for "filter by person").
 * One pass over the table's rows of those clips; clips without events are absent.
 */
export async function lastActors(db: SpocDb, clipIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const id of clipIds) {
    const last = await clipEventRows(db, id).last();
    if (last) out.set(id, last.by);
  }
  return out;
}
