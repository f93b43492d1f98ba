import type { SpocDb } from './db';
import { StoreError, notFound } from './errors';
import { clipFrames } from './keys';
import { touchClip, touchTables } from './touch';
import { IGNORE_REASONS, type Frame, type FrameIgnored, type FrameImage, type FramePhase, type IgnoreReason } from './types';

const PHASES: readonly FramePhase[] = ['initial', 'transitioning', 'end'];

/** A clip's frames in order, metadata only (no pixels). */
export async function listFrames(db: SpocDb, clipId: string): Promise<Frame[]> {
  return clipFrames(db, clipId).toArray();
}

export async function getFrame(db: SpocDb, clipId: string, index: number): Promise<Frame | undefined> {
  return db.frames.get([clipId, index]);
}

export async function getFrameImage(db: SpocDb, clipId: string, index: number): Promise<FrameImage | undefined> {
  return db.frameImages.get([clipId, index]);
}

/** Sets or clears (`undefined`) the phase of a frame. */
export async function setFramePhase(
  db: SpocDb,
  clipId: string,
  index: number,
  phase: FramePhase | undefined,
): Promise<Frame> {
  if (phase !== undefined && !PHASES.includes(phase)) throw new StoreError('invalid', `Unknown phase "${phase}".`);
  return editFrame(db, clipId, index, (frame) => {
    if (phase === undefined) delete frame.phase;
    else frame.phase = phase;
  });
}

export interface IgnoreInput {
  reason: IgnoreReason;
  note?: string;
  by?: string;
}

/**
 * Marks a frame ignored (with why, who and when) or, with `null`, un-ignores it. An ignored frame keeps
 * its layers: un-ignoring must not lose paint.
 */
export async function setFrameIgnored(
  db: SpocDb,
  clipId: string,
  index: number,
  ignored: IgnoreInput | null,
): Promise<Frame> {
  if (ignored && !IGNORE_REASONS.includes(ignored.reason)) {
    throw new StoreError('invalid', `Unknown ignore reason "${ignored.reason}".`);
  }
  return editFrame(db, clipId, index, (frame, now) => {
    if (!ignored) {
      delete frame.ignored;
      return;
    }
    const record: FrameIgnored = { reason: ignored.reason, at: now };
    if (ignored.note?.trim()) record.note = ignored.note.trim();
    if (ignored.by) record.by = ignored.by;
    frame.ignored = record;
  });
}

/** Marks that someone looked at the frame: an empty mask then counts as an answer, not as missing work. */
export async function setFrameReviewed(db: SpocDb, clipId: string, index: number, reviewed: boolean): Promise<Frame> {
  return editFrame(db, clipId, index, (frame) => {
    if (reviewed) frame.reviewed = true;
    else delete frame.reviewed;
  });
}

async function editFrame(
  db: SpocDb,
  clipId: string,
  index: number,
  edit: (frame: Frame, now: number) => void,
): Promise<Frame> {
  return db.transaction('rw', [db.frames, ...touchTables(db)], async () => {
    const frame = await db.frames.get([clipId, index]);
    if (!frame) throw notFound(`Frame ${index + 1} of this clip`);
    const now = Date.now();
    const next = { ...frame };
    edit(next, now);
    await db.frames.put(next);
    await touchClip(db, clipId, now, true);
    return next;
  });
}
