import type { SpocDb } from './db';
import { StoreError, notFound } from './errors';
import { clipVerdictRows } from './keys';
import { FRAME_VERDICTS, type FrameVerdict, type FrameVerdictKind } from './types';

/*
 * Per-frame review verdicts (schema v5, table `frameVerdicts`). Append-only: a new verdict is a new
 * row, so who accepted or rejected a frame, and what they said, is never overwritten; the frame's
 * verdict is its latest row by time (ties: highest seq, so rows merged from another browser's bundle
 * never override newer local ones), and a `clear` row makes it unreviewed again.
 */

/** Longest note a verdict may carry (bundles check it too). */
export const MAX_VERDICT_NOTE = 2000;

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
  const by = typeof input.by === 'string' ? input.by.trim() : '';
  if (!by) throw new StoreError('invalid', 'A frame verdict needs who gave it.');
  if (!FRAME_VERDICTS.includes(input.verdict)) throw new StoreError('invalid', `Unknown frame verdict "${String(input.verdict)}".`);
  const note = typeof input.note === 'string' ? input.note.trim() : '';
  if (note.length > MAX_VERDICT_NOTE) throw new StoreError('invalid', `The note is ${note.length} characters long (at most ${MAX_VERDICT_NOTE}).`);
  return db.transaction('rw', [db.clips, db.frameVerdicts], async () => {
    const clip = await db.clips.get(input.clipId);
    if (!clip) throw notFound('Clip');
    // An approved clip is read-only until reopened: its verdicts are what the approval rested on.
    if (clip.status === 'approved') throw new StoreError('invalid', `Clip "${clip.name}" is approved: reopen it to change frame verdicts.`);
    const { frameIndex } = input;
    if (!Number.isInteger(frameIndex) || frameIndex < 0 || frameIndex >= clip.frameCount) {
      throw new StoreError('invalid', `Frame index ${frameIndex} is outside the clip (${clip.frameCount} frames).`);
    }
    const row: Omit<FrameVerdict, 'seq'> = { clipId: clip.id, frameIndex, verdict: input.verdict, by, at: input.at ?? Date.now() };
    if (note) row.note = note;
    const seq = await db.frameVerdicts.add(row);
    return { ...row, seq };
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
