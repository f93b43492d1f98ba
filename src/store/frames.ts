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

/**
 * Fetches a frame's picture that is not stored here yet and stores it; true when it is now stored.
 * A project synced with a team server holds frame rows whose pictures are fetched on demand
 * (docs/sync.md "The browser client"); the sync layer registers the fetcher, so every reader of
 * pictures (the editor, exports, assists) gets them without knowing about sync.
 */
export type MissingFrameImageSource = (clipId: string, index: number) => Promise<boolean>;
const missingImageSources = new WeakMap<SpocDb, MissingFrameImageSource>();

export function setMissingFrameImageSource(db: SpocDb, source: MissingFrameImageSource | null): void {
  if (source) missingImageSources.set(db, source);
  else missingImageSources.delete(db);
}

export async function getFrameImage(db: SpocDb, clipId: string, index: number): Promise<FrameImage | undefined> {
  const row = await db.frameImages.get([clipId, index]);
  if (row) return row;
  const source = missingImageSources.get(db);
  if (!source || !(await db.frames.get([clipId, index]))) return undefined;
  return (await source(clipId, index)) ? db.frameImages.get([clipId, index]) : undefined;
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

/**
 * Sets (or with `undefined` clears) the phase of many frames in ONE transaction: all of them or,
 * on an unknown frame or phase, none. Returns how many frames changed.
 */
export async function setFramePhases(db: SpocDb, clipId: string, phases: ReadonlyMap<number, FramePhase | undefined>): Promise<number> {
  for (const phase of phases.values()) {
    if (phase !== undefined && !PHASES.includes(phase)) throw new StoreError('invalid', `Unknown phase "${phase}".`);
  }
  if (phases.size === 0) return 0;
  return db.transaction('rw', [db.frames, ...touchTables(db)], async () => {
    const keys = [...phases.keys()].map((index) => [clipId, index] as [string, number]);
    const frames = await db.frames.bulkGet(keys);
    const changed: Frame[] = [];
    frames.forEach((frame, i) => {
      if (!frame) throw notFound(`Frame ${keys[i][1] + 1} of this clip`);
      const phase = phases.get(frame.index);
      if (frame.phase === phase) return;
      const next = { ...frame };
      if (phase === undefined) delete next.phase;
      else next.phase = phase;
      changed.push(next);
    });
    if (changed.length > 0) {
      await db.frames.bulkPut(changed);
      await touchClip(db, clipId, Date.now(), true);
    }
    return changed.length;
  });
}

/** Sets (or clears) the phase of frames `from`..`to` inclusive (either order), in one transaction. */
export async function setFramePhaseRange(db: SpocDb, clipId: string, from: number, to: number, phase: FramePhase | undefined): Promise<number> {
  const phases = new Map<number, FramePhase | undefined>();
  for (let k = Math.min(from, to); k <= Math.max(from, to); k++) phases.set(k, phase);
  return setFramePhases(db, clipId, phases);
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
