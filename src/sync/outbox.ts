/**
 * What this browser has to push for one project (docs/sync.md "The browser client").
 *
 * Log rows (revisions, lifecycle steps, verdicts) by local `seq`: every row of the project above the
 * link's `pushedSeq` that has no server cursor and was not refused. One index range per table.
 *
 * Mutable rows (project, clips, frames, comments, flag dismissals) by content: a row is due when its
 * fingerprint (wireRows.ts) differs from the one last agreed with the server. Why not a change
 * stamp: frames, comments and dismissals have none (`updatedAt` exists on projects and clips only,
 * and moves on every stroke), and adding one means touching every writer. Why not a Dexie
 * `creating`/`updating` hook recording dirty keys: a hook can only write to tables its transaction
 * already holds, so every writer's transaction would have to include a "dirty" table, and hooks make
 * Dexie issue a transaction's writes one after another, which the editor's stroke transaction must
 * not do (docs/durability.md; store/localWrites.ts). Comparing content costs one read of the
 * project's small rows (no RLE, no image) per push, and is right whoever wrote the row: this tab,
 * another tab, an import, a bundle merge.
 *
 * The order of a batch is the order the server judges it in: the project, clips, frames, comments,
 * dismissals, then the log rows by time, then id (v7 ids of one browser increase in write order across
 * the three tables): a clip's strokes reach the server before the "submit" written after them, and an
 * upload replays each clip's history in the order it was written, as the server judges it
 * (docs/sync.md "Who may push what"). A batch holds at most MAX_PUSH_CHANGES changes and
 * MAX_PUSH_BYTES of JSON.
 */
import type { SpocDb } from '../store/db';
import { clipCommentRows, clipFlagDismissals, clipFrames } from '../store/keys';
import type { FrameImage } from '../store/types';
import { imageRef } from './frameImages';
import { compareCursors, CURSOR_START, frameRowId, MAX_PUSH_BYTES, MAX_PUSH_CHANGES, type Cursor, type FrameImageRef, type PushChange } from './protocol';
import { LOG_KIND_OF, LOG_TABLES, rowKey, type FrameImageRefs, type LogTable, type RowFingerprints, type SyncLink } from './syncState';
import { fingerprint, mutableRowId, toWireRow, wireLogRow, type MutableKind } from './wireRows';

/** One change of a batch, with what applying its outcome needs. */
export interface OutboxEntry {
  change: PushChange;
  /** Log rows: their table and local seq. */
  log?: { table: LogTable; seq: number };
  /** Mutable rows: the fingerprint to record once the server answered. */
  fingerprint?: string;
  /** Frames: the image the row names, with its bytes when the server does not have them yet. */
  image?: { ref: FrameImageRef; bytes: Uint8Array | null };
}

export interface Outbox {
  /** The batch: at most `limit` changes, in push order. */
  entries: OutboxEntry[];
  /** Changes due in all (this batch and the ones after it). */
  due: number;
  /**
   * Per log table, where `pushedSeq` may move once this batch is answered: just below the first row
   * still due after it (or of a clip still importing), else the last row seen.
   */
  checkpoint: Record<LogTable, number>;
}

interface LogRow {
  seq: number;
  id: string;
  at?: number;
  clipId: string;
  cursor?: string;
  source?: string;
  frameIndex?: number;
}

/** Reads the project's due changes; the first `limit` of them, in push order, make the batch. */
export async function collectOutbox(db: SpocDb, link: SyncLink, fingerprints: RowFingerprints, images: FrameImageRefs, limit = MAX_PUSH_CHANGES, maxBytes = MAX_PUSH_BYTES - 64 * 1024): Promise<Outbox> {
  const { projectId } = link;
  const refused = new Set(link.refusals.map((r) => rowKey(r.kind, r.id)));
  const mutable: { kind: MutableKind; id: string; row: object; print: string }[] = [];
  const logs: { table: LogTable; row: LogRow }[] = [];
  /** Per table, the seqs of rows that must be pushed later whatever this batch holds (clips still importing). */
  const blocked: Record<LogTable, number> = { revisions: Infinity, clipEvents: Infinity, frameVerdicts: Infinity };
  const lastSeen: Record<LogTable, number> = { ...link.pushedSeq };
  const frameImages = new Map<string, FrameImage>();

  function consider(kind: MutableKind, local: object): boolean {
    const row = toWireRow(kind, local, link);
    const id = mutableRowId(kind, row as never);
    const print = fingerprint(kind, row);
    if (fingerprints[rowKey(kind, id)] === print) return false;
    mutable.push({ kind, id, row, print });
    return true;
  }

  await db.transaction('r', [db.projects, db.clips, db.frames, db.frameImages, db.comments, db.reviewFlags, ...LOG_TABLES.map((t) => db[t])], async () => {
    const project = await db.projects.get(projectId);
    if (!project) return;
    consider('project', project);
    const all = await db.clips.where('projectId').equals(projectId).toArray();
    // A clip still being imported is not pushed, nor anything of it, until its import completes.
    const clips = all.filter((c) => c.importing === undefined);
    const ready = new Set(clips.map((c) => c.id));
    const importing = new Set(all.filter((c) => c.importing !== undefined).map((c) => c.id));
    for (const clip of clips) consider('clip', clip);
    for (const clip of clips) {
      for (const f of await clipFrames(db, clip.id).toArray()) {
        const id = frameRowId(f.clipId, f.index);
        if (consider('frame', f) && !images[id]) {
          const image = await db.frameImages.get([f.clipId, f.index]);
          if (image) frameImages.set(id, image);
        }
      }
    }
    // Replies after the comment they answer: by time.
    const comments = [];
    for (const clip of clips) comments.push(...(await clipCommentRows(db, clip.id).toArray()));
    for (const c of comments.sort(byTime)) consider('comment', c);
    for (const clip of clips) for (const d of await clipFlagDismissals(db, clip.id).toArray()) consider('flagDismissal', d);
    for (const table of LOG_TABLES) {
      const rows = (await db[table].where(':id').above(link.pushedSeq[table]).toArray()) as LogRow[];
      for (const row of rows) {
        lastSeen[table] = Math.max(lastSeen[table], row.seq);
        if (importing.has(row.clipId)) blocked[table] = Math.min(blocked[table], row.seq);
        if (!ready.has(row.clipId)) continue; // another project's row (or an importing clip's, above)
        if (row.cursor !== undefined || refused.has(rowKey(LOG_KIND_OF[table], row.id))) continue;
        logs.push({ table, row });
      }
    }
  });

  // The logs in the order they were written.
  logs.sort((a, b) => byTime(a.row, b.row));
  const entries: OutboxEntry[] = [];
  let bytes = 0;
  /** Whether one more change fits the batch (count and body size: protocol.ts MAX_PUSH_BYTES). */
  const fits = (change: PushChange) => {
    const size = JSON.stringify(change).length + 1;
    if (entries.length >= limit || (entries.length > 0 && bytes + size > maxBytes)) return false;
    bytes += size;
    return true;
  };
  for (const m of mutable) {
    const entry: OutboxEntry = { change: { kind: m.kind, id: m.id, row: m.row as Record<string, unknown> }, fingerprint: m.print };
    if (m.kind === 'frame') {
      const known = images[m.id];
      const stored = frameImages.get(m.id);
      if (known) entry.image = { ref: withoutOnServer(known), bytes: known.onServer ? null : await storedBytes(db, m.row) };
      else if (stored) entry.image = await imageRef(stored);
      if (entry.image) entry.change.row = { ...entry.change.row, image: entry.image.ref };
    }
    if (!fits(entry.change)) break;
    entries.push(entry);
  }
  const candidates = entries.length < mutable.length ? [] : logs.slice(0, Math.max(0, limit - entries.length));
  const bases = await revisionBases(db, candidates.filter((l) => l.table === 'revisions').map((l) => l.row));
  let sent = 0;
  for (const { table, row } of candidates) {
    const change: PushChange = { kind: LOG_KIND_OF[table], id: row.id, row: wireLogRow(row) };
    if (table === 'revisions') change.base = bases.get(row.seq) ?? CURSOR_START;
    if (!fits(change)) break;
    entries.push({ change, log: { table, seq: row.seq } });
    sent++;
  }
  const checkpoint = { ...lastSeen };
  for (const table of LOG_TABLES) {
    const firstLeft = logs.slice(sent).find((l) => l.table === table)?.row.seq ?? Infinity;
    const first = Math.min(firstLeft, blocked[table]);
    if (first !== Infinity) checkpoint[table] = Math.max(link.pushedSeq[table], first - 1);
  }
  return { entries, due: mutable.length + logs.length, checkpoint };
}

/** By time, then id (v7 ids of one browser increase in write order even within a millisecond). */
function byTime(a: { at?: number; id: string }, b: { at?: number; id: string }): number {
  return (a.at ?? 0) - (b.at ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Each revision's `base` (protocol.ts PushChange): the largest server cursor among the revisions of
 * the same clip, source and frame with a lower local seq, i.e. the newest server state this browser
 * had replayed into the frame when the revision was written.
 */
export async function revisionBases(db: SpocDb, revisions: readonly LogRow[]): Promise<Map<number, Cursor>> {
  const out = new Map<number, Cursor>();
  const byFrame = new Map<string, LogRow[]>();
  for (const r of revisions) {
    const key = JSON.stringify([r.clipId, r.source, r.frameIndex]);
    byFrame.set(key, [...(byFrame.get(key) ?? []), r]);
  }
  for (const [key, mine] of byFrame) {
    const [clipId, source, frameIndex] = JSON.parse(key) as [string, string, number];
    const rows = (await db.revisions.where('[clipId+source+frameIndex]').equals([clipId, source, frameIndex]).toArray()).sort((a, b) => a.seq - b.seq);
    for (const r of mine) {
      let base: Cursor = CURSOR_START;
      for (const other of rows) {
        if (other.seq >= r.seq) break;
        if (other.cursor !== undefined && compareCursors(other.cursor, base) > 0) base = other.cursor;
      }
      out.set(r.seq, base);
    }
  }
  return out;
}

async function storedBytes(db: SpocDb, frame: object): Promise<Uint8Array | null> {
  const { clipId, index } = frame as { clipId: string; index: number };
  const image = await db.frameImages.get([clipId, index]);
  return image ? new Uint8Array(await image.blob.arrayBuffer()) : null;
}

function withoutOnServer(ref: FrameImageRefs[string]): FrameImageRef {
  const { onServer: _onServer, ...rest } = ref;
  return rest;
}
