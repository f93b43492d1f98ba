/**
 * Applying one pulled page to the store (docs/sync.md "The browser client"), in ONE transaction with
 * the checkpoint, so a page is applied whole or not at all and a crash between pages resumes at the
 * right cursor:
 *
 * - log rows (revisions, lifecycle steps, verdicts) are added by id when absent, with a new local
 *   `seq` and the server's cursor; a row this browser already holds only gains its cursor;
 * - mutable rows replace the local ones, except a row changed here since it was last agreed with the
 *   server: that change is due to be pushed, and the server's answer to it comes back in a later
 *   pull ("last push wins", docs/sync.md "The protocol");
 * - every (clip, source, frame) that gained revisions, or whose revisions changed order, is rebuilt
 *   as the replay of all its revisions in cursor order (rebuildLayer.ts).
 *
 * Rows are checked with the store's validators (store/records) before they are stored; one that
 * fails is left out and recorded in the link's `problems`, and the rest of the page lands. Applying
 * the same page twice changes nothing.
 */
import { Dexie } from 'dexie';
import type { SpocDb } from '../store/db';
import { RecordCheck, checkClip, checkClipEvent, checkComment, checkFlagDismissal, checkFrame, checkFrameVerdict, checkProject, checkRevision, type ClipShape } from '../store/records';
import { MAX_SIDE } from '../masks/labelMap';
import type { Clip, LayerSource } from '../store/types';
import { compareCursors, type PulledChange, type PullResponse, type SyncKind } from './protocol';
import { rebuildLayer } from './rebuildLayer';
import { LOG_TABLES, readFingerprints, readImageRefs, readLink, recordProblem, rowKey, writeFingerprints, writeImageRefs, writeLink, type LogTable, type SyncLink } from './syncState';
import { fingerprint, fromWireRow, mutableRowId, toWireRow, type MutableKind } from './wireRows';

/**
 * The mutable rows a pull stored, by identity, so the engine can tell them from this page's own
 * writes (which it must push): log rows say so by their cursor, these have nothing to say it with.
 */
const pulledRows = new WeakSet<object>();
export const isPulledRow = (value: unknown): boolean => typeof value === 'object' && value !== null && pulledRows.has(value);

export interface ApplyResult {
  /** Rows stored or replaced. */
  applied: number;
  /** Frames whose layer was rebuilt: `<clipId> <source> <frameIndex>`. */
  rebuilt: { clipId: string; source: LayerSource; frameIndex: number }[];
  /** Rows left out (see the link's `problems`). */
  problems: number;
}

const LOG_TABLE_OF: Partial<Record<SyncKind, LogTable>> = { revision: 'revisions', clipEvent: 'clipEvents', frameVerdict: 'frameVerdicts' };
/** Clips and the project first, so that the rows under them are checked against them. */
const RANK: Record<SyncKind, number> = { project: 0, clip: 1, frame: 2, comment: 3, flagDismissal: 3, concurrentEdit: 3, revision: 4, clipEvent: 4, frameVerdict: 4 };

/** A stand-in for a clip not here yet (its row comes on a later page): checks a row's shape, not its bounds. */
const unknownClip = (id: string): ClipShape => ({ id, width: MAX_SIDE, height: MAX_SIDE, frameCount: Number.MAX_SAFE_INTEGER });

export async function applyPullPage(db: SpocDb, projectId: string, page: PullResponse): Promise<ApplyResult> {
  const tables = [db.projects, db.clips, db.frames, db.comments, db.reviewFlags, db.layers, db.meta, ...LOG_TABLES.map((t) => db[t])];
  return db.transaction('rw', tables, async () => {
    const link = await readLink(db, projectId);
    if (!link) throw new Error('This project is not linked to a server.');
    const [prints, images] = await Promise.all([readFingerprints(db, projectId), readImageRefs(db, projectId)]);
    const result: ApplyResult = { applied: 0, rebuilt: [], problems: 0 };
    const touched = new Set<string>();
    const clips = new Map<string, Clip | null>();
    const clipOf = async (id: string): Promise<Clip | null> => {
      if (!clips.has(id)) clips.set(id, (await db.clips.get(id)) ?? null);
      return clips.get(id)!;
    };
    let printsChanged = false;
    let imagesChanged = false;

    /** Stores a mutable row unless it changed here since last agreed; records what was agreed. */
    const replace = async (kind: MutableKind, row: object, current: object | undefined, put: () => Promise<unknown>) => {
      const print = (r: object) => fingerprint(kind, toWireRow(kind, r, link!));
      const key = rowKey(kind, mutableRowId(kind, toWireRow(kind, row, link!) as never));
      const agreed = prints[key];
      const incoming = print(row);
      if (current !== undefined && agreed !== undefined && print(current) !== agreed) return; // due to push
      if (current !== undefined && agreed === incoming && JSON.stringify(current) === JSON.stringify(row)) return; // already so
      pulledRows.add(row);
      await put();
      if (agreed !== incoming) printsChanged = true;
      prints[key] = incoming;
      result.applied++;
    };

    const changes = page.changes.slice().sort((a, b) => RANK[a.kind] - RANK[b.kind] || compareCursors(a.cursor, b.cursor));
    for (const change of changes) {
      const check = new RecordCheck(`The pulled ${change.kind} ${change.id}`);
      try {
        await applyOne(change, check);
      } catch (err) {
        recordProblem(link, { kind: change.kind, id: change.id, error: err instanceof Error ? err.message : String(err), cursor: change.cursor });
        result.problems++;
      }
    }

    async function applyOne(change: PulledChange, c: RecordCheck): Promise<void> {
      const raw = change.row;
      switch (change.kind) {
        case 'project': {
          const current = await db.projects.get(projectId);
          const row = keepTrash(checkProject(c, fromWireRow('project', raw, link!), '', 'input'), current);
          await replace('project', row, current, () => db.projects.put(row));
          return;
        }
        case 'clip': {
          const { importing: _importing, ...wire } = fromWireRow('clip', raw, link!); // a half-imported clip is never pushed
          const current = await db.clips.get(String(wire.id));
          const row = keepTrash(checkClip(c, wire, '', 'input'), current);
          if (current && current.projectId !== projectId) throw new Error(`clip ${row.id} belongs to another local project`);
          await replace('clip', row, current, () => db.clips.put(row));
          clips.set(row.id, (await db.clips.get(row.id)) ?? null);
          if (!current) {
            // Its revisions may have come on earlier pages: their frames are replayed now that the clip is known.
            const keys = (await db.revisions.where('[clipId+source+frameIndex]').between([row.id, Dexie.minKey, Dexie.minKey], [row.id, Dexie.maxKey, Dexie.maxKey]).keys()) as unknown as [string, LayerSource, number][];
            for (const [, source, frameIndex] of keys) touched.add(JSON.stringify([row.id, source, frameIndex]));
          }
          return;
        }
        case 'frame': {
          const { image, ...rest } = raw as { image?: unknown };
          const row = checkFrame(c, rest, '', String(raw.clipId), 'input');
          if (image !== undefined) {
            const ref = image as { sha256: string; mime: string; width: number; height: number; size: number };
            images[change.id] = { sha256: String(ref.sha256), mime: String(ref.mime), width: Number(ref.width), height: Number(ref.height), size: Number(ref.size), onServer: true };
            imagesChanged = true;
          }
          await replace('frame', row, await db.frames.get([row.clipId, row.index]), () => db.frames.put(row));
          return;
        }
        case 'comment': {
          const clipId = String(raw.clipId);
          const row = checkComment(c, raw, '', (await clipOf(clipId)) ?? unknownClip(clipId), 'input');
          await replace('comment', row, await db.comments.get(row.id), () => db.comments.put(row));
          return;
        }
        case 'flagDismissal': {
          const clipId = String(raw.clipId);
          const row = checkFlagDismissal(c, raw, '', (await clipOf(clipId)) ?? unknownClip(clipId), 'input');
          await replace('flagDismissal', row, await db.reviewFlags.get([row.clipId, row.source, row.flagId]), () => db.reviewFlags.put(row));
          return;
        }
        case 'concurrentEdit':
          link!.concurrentEdits[change.id] = { ...raw, cursor: change.cursor, by: change.by };
          result.applied++;
          return;
        default:
          await applyLog(change, c);
      }
    }

    async function applyLog(change: PulledChange, c: RecordCheck): Promise<void> {
      const table = LOG_TABLE_OF[change.kind];
      if (!table) throw new Error(`unknown kind ${change.kind}`);
      const existing = (await db[table].get({ id: change.id })) as { seq: number; cursor?: string; clipId: string; source?: LayerSource; frameIndex?: number } | undefined;
      if (existing) {
        if (existing.cursor === change.cursor) return;
        await db[table].update(existing.seq, { cursor: change.cursor });
        if (table === 'revisions') touched.add(JSON.stringify([existing.clipId, existing.source, existing.frameIndex]));
        result.applied++;
        return;
      }
      const clipId = String(change.row.clipId);
      const shape = (await clipOf(clipId)) ?? unknownClip(clipId);
      const input = { ...change.row, id: change.id };
      if (table === 'revisions') {
        const row = checkRevision(c, input, '', shape, 'input');
        await db.revisions.add({ ...row, id: change.id, cursor: change.cursor } as never);
        touched.add(JSON.stringify([row.clipId, row.source, row.frameIndex]));
      } else if (table === 'clipEvents') {
        const row = checkClipEvent(c, input, '', shape, 'input');
        await db.clipEvents.add({ ...row, id: change.id, cursor: change.cursor } as never);
      } else {
        const row = checkFrameVerdict(c, input, '', shape, 'input');
        await db.frameVerdicts.add({ ...row, id: change.id, cursor: change.cursor } as never);
      }
      result.applied++;
    }

    for (const key of [...touched].sort()) {
      const [clipId, source, frameIndex] = JSON.parse(key) as [string, LayerSource, number];
      const clip = await clipOf(clipId);
      if (!clip || clip.importing !== undefined) continue; // replayed when the clip arrives
      const { skipped } = await rebuildLayer(db, clip, source, frameIndex);
      for (const s of skipped) recordProblem(link, { kind: 'revision', id: s.id, error: s.error, cursor: page.cursor });
      result.rebuilt.push({ clipId, source, frameIndex });
    }

    if (compareCursors(page.cursor, link.cursor) > 0) link.cursor = page.cursor;
    await writeLink(db, link as SyncLink);
    if (printsChanged) await writeFingerprints(db, projectId, prints);
    if (imagesChanged) await writeImageRefs(db, projectId, images);
    return result;
  });
}

/** The trash is this browser's: a pulled row never carries `deletedAt`, and leaves the local one as it is. */
function keepTrash<T extends { deletedAt?: number }>(row: T, current: { deletedAt?: number } | undefined): T {
  const out = { ...row };
  delete out.deletedAt;
  if (current?.deletedAt !== undefined) out.deletedAt = current.deletedAt;
  return out;
}
