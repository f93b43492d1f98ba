/**
 * Editor edits whose save failed (a full disk, a broken database) are kept in the journal until a
 * save succeeds, so closing or reloading the tab does not throw them away; the next start replays
 * them (docs/durability.md). A small reserve file is kept beside them and given up when a pending
 * write hits the quota: OPFS and IndexedDB share the origin's quota, and the reserve is what lets
 * the edits be written when nothing else can.
 */
import type { SpocDb } from '../db';
import { isQuotaError } from '../errors';
import { saveFrameEdits, type FrameEdits } from '../layers';
import { listRevisions } from '../revisions';
import type { RevisionInput } from '../types';
import { PENDING_DIR, RESERVE_DIR } from './journal';
import type { JournalFiles } from './journalFiles';

const RESERVE_FILE = 'space.bin';
export const RESERVE_BYTES = 2 * 2 ** 20;

const pendingName = (clipId: string) => `${encodeURIComponent(clipId)}.json`;

/** Makes sure the reserve exists (best effort: a full disk simply has none). */
export async function ensureReserve(files: JournalFiles): Promise<void> {
  if ((await files.read(RESERVE_DIR, RESERVE_FILE))?.size === RESERVE_BYTES) return;
  await files.write(RESERVE_DIR, RESERVE_FILE, new Blob([new Uint8Array(RESERVE_BYTES)])).catch(() => undefined);
}

/**
 * Keeps a clip's unsaved edits (replacing what was kept before for that clip). Returns true when
 * the disk was full and the reserve had to be given up for them (the person should free space).
 */
export async function keepPendingEdits(files: JournalFiles, clipId: string, edits: readonly FrameEdits[]): Promise<boolean> {
  const data = new Blob([JSON.stringify({ clipId, at: Date.now(), edits })], { type: 'application/json' });
  try {
    await files.write(PENDING_DIR, pendingName(clipId), data);
    return false;
  } catch (err) {
    if (!isQuotaError(err)) throw err;
    await files.remove(RESERVE_DIR, RESERVE_FILE);
    await files.write(PENDING_DIR, pendingName(clipId), data);
    return true;
  }
}

export async function dropPendingEdits(files: JournalFiles, clipId: string): Promise<void> {
  await files.remove(PENDING_DIR, pendingName(clipId));
}

export interface ReplayedEdits {
  clipId: string;
  frames: number;
  revisions: number;
}

/**
 * Saves every kept edit into the store and forgets it. A revision already stored (the save did
 * succeed before the tab went away) is recognised by its content and not stored twice.
 * Edits of a clip that no longer exists are dropped.
 */
export async function replayPendingEdits(db: SpocDb, files: JournalFiles): Promise<ReplayedEdits[]> {
  const out: ReplayedEdits[] = [];
  for (const name of await files.list(PENDING_DIR)) {
    const file = await files.read(PENDING_DIR, name);
    let parsed: { clipId: string; edits: FrameEdits[] } | null;
    try {
      parsed = file ? (JSON.parse(await file.text()) as { clipId: string; edits: FrameEdits[] }) : null;
    } catch {
      parsed = null;
    }
    if (!parsed || !Array.isArray(parsed.edits) || !(await db.clips.get(parsed.clipId))) {
      await files.remove(PENDING_DIR, name);
      continue;
    }
    const batch: FrameEdits[] = [];
    let revisions = 0;
    for (const edit of parsed.edits) {
      const stored = await listRevisions(db, edit.layer.clipId, edit.layer.source, edit.layer.frameIndex);
      const known = new Set(stored.map(fingerprint));
      const fresh = edit.revisions.filter((r) => !known.has(fingerprint(r)));
      revisions += fresh.length;
      batch.push({ layer: edit.layer, revisions: fresh });
    }
    await saveFrameEdits(db, batch);
    await files.remove(PENDING_DIR, name);
    out.push({ clipId: parsed.clipId, frames: batch.length, revisions });
  }
  return out;
}

/** What makes a revision the same change: who, when, what and where (the seq is assigned on save). */
function fingerprint(r: RevisionInput): string {
  // Relation steps share their one-pixel box: what they set tells two apart.
  return JSON.stringify([r.author, r.at, r.action, r.box, r.before.counts, r.after.counts, r.beforeTrf?.counts ?? null, r.afterTrf?.counts ?? null, r.relationsAfter ?? null]);
}
