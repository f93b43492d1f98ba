import type { SpocDb } from './db';
import { StoreError, notFound } from './errors';
import { withRowId } from './ids';
import { clipVerdictRows } from './keys';
import { RecordCheck, checkFrameVerdict } from './records';
import type { FrameVerdict, FrameVerdictKind } from './types';

/*
 * Per-frame review verdicts (schema v5, table `frameVerdicts`). Append-only: a new verdict is a new
 * row, so who accepted or rejected a frame, and what they said, is never overwritten; the frame's
 * verdict is its latest row by time (ties: highest seq, so rows merged from another browser's bundle
 * never override newer local ones), and a `clear` row makes it unreviewed again.
 */

/** Longest note a verdict may carry (records/review.ts). */
export { MAX_VERDICT_NOTE } from './records';

export interface NewFrameVerdict {
  clipId: string;
  frameIndex: number;
  verdict: FrameVerdictKind;
  by: string;
  note?: string;
  at?: number;
}

/** Records a verdict on a frame (checked against the clip inside the transaction; refused once it is approved). */
export async function putFrameVerdict(db: SpocDb, input: NewFrameVerdict): Promise<FrameVerdict> {
  return db.transaction('rw', [db.clips, db.frameVerdicts], async () => {
    const clip = await db.clips.get(input.clipId);
    if (!clip) throw notFound('Clip');
    // An approved clip is read-only until reopened: its verdicts are what the approval rested on.
    if (clip.status === 'approved') throw new StoreError('invalid', `Clip "${clip.name}" is approved: reopen it to change frame verdicts.`);
    const by = typeof input.by === 'string' ? input.by.trim() : input.by;
    const note = typeof input.note === 'string' ? input.note.trim() : '';
    const given = { clipId: clip.id, frameIndex: input.frameIndex, verdict: input.verdict, by, at: input.at ?? Date.now(), ...(note ? { note } : {}) };
    const row = checkFrameVerdict(new RecordCheck('The frame verdict'), given, '', clip, 'input');
    const verdict = withRowId(row);
    const seq = await db.frameVerdicts.add(verdict);
    return { ...verdict, seq };
  });
}

/** Every verdict row of a clip (the full history), by frame then seq. */
export async function listFrameVerdictHistory(db: SpocDb, clipId: string): Promise<FrameVerdict[]> {
  return clipVerdictRows(db, clipId).toArray();
}

/**
 * The verdict in force per frame: the latest row of each frame (by time, then by seq), frames whose
 * latest row is `clear` left out. Time first because a merged bundle appends another machine's
 * verdicts after ours whatever their age; within one store seq and time agree.
 */
export function latestVerdicts(rows: readonly FrameVerdict[]): Map<number, FrameVerdict> {
  const latest = new Map<number, FrameVerdict>();
  for (const r of rows) {
    const prev = latest.get(r.frameIndex);
    if (!prev || r.at > prev.at || (r.at === prev.at && r.seq > prev.seq)) latest.set(r.frameIndex, r);
  }
  for (const [k, v] of latest) if (v.verdict === 'clear') latest.delete(k);
  return latest;
}

/** The verdicts in force of a clip (see latestVerdicts). */
export async function listFrameVerdicts(db: SpocDb, clipId: string): Promise<Map<number, FrameVerdict>> {
  return latestVerdicts(await listFrameVerdictHistory(db, clipId));
}
