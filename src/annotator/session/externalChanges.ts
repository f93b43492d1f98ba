/**
 * Notices when the gt of the clip this tab edits is changed by anyone but this tab: another tab that
 * wrote it without the clip's lock (an older version of the app, a browser without Web Locks), or
 * any writer that slipped past the lock. The editor then reloads from the store instead of writing
 * its stale copy back over the change (which would leave the layer and the revision log telling
 * different stories, and undo reaching the wrong state).
 *
 * How "not this tab" is told apart: the revision log is append-only for the editor, and every
 * revision this tab writes is reported by its own connection (store/localWrites.ts; another tab's
 * writes never are). Dexie's liveQuery sees every commit, this tab's and — through
 * Dexie's own BroadcastChannel — other tabs'. A revision that appears without passing the hook, or
 * one that disappears, was written elsewhere.
 */
import { Dexie, liveQuery } from 'dexie';
import type { SpocDb } from '../../store/db';
import { onLocalWrites } from '../../store/localWrites';
import type { Revision } from '../../store/types';

export interface ExternalGtChange {
  /** Frames whose history gained revisions this tab did not write, ascending. */
  frames: number[];
  /** Revisions this tab had seen are gone: the clip's history was replaced (a bundle's "take theirs"). */
  replaced: boolean;
  /** Who wrote the new revisions, when known (read once the change is seen), sorted. */
  authors?: string[];
  /** The new revisions came from the team server (pulled rows carry a server cursor: docs/sync.md). */
  fromServer?: boolean;
}

export interface ExternalChangeWatch {
  /** Settles once the current history is known; changes after that are reported. */
  ready: Promise<void>;
  stop(): void;
}

/** seq -> frame index of every gt revision of the clip, from index keys only (no patch is loaded). */
async function gtRevisionFrames(db: SpocDb, clipId: string): Promise<Map<number, number>> {
  const range = () => db.revisions.where('[clipId+source+frameIndex]').between([clipId, 'gt', Dexie.minKey], [clipId, 'gt', Dexie.maxKey]);
  // Same index, same read transaction: keys and primary keys come in the same order.
  const [keys, seqs] = await Promise.all([range().keys(), range().primaryKeys()]);
  return new Map(seqs.map((seq, i) => [seq as number, (keys[i] as unknown as [string, string, number])[2]]));
}

/** What changed between two readings of the history, or null when every new revision is this tab's. */
export function externalChangeBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>, writtenHere: ReadonlySet<number>): ExternalGtChange | null {
  let replaced = false;
  for (const seq of before.keys()) if (!after.has(seq)) replaced = true;
  const frames = new Set<number>();
  for (const [seq, frame] of after) if (!before.has(seq) && !writtenHere.has(seq)) frames.add(frame);
  if (!replaced && frames.size === 0) return null;
  return { frames: [...frames].sort((a, b) => a - b), replaced };
}

/** The local seqs of the revisions `externalChangeBetween` counted as foreign. */
function foreignSeqs(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>, writtenHere: ReadonlySet<number>): number[] {
  return [...after.keys()].filter((seq) => !before.has(seq) && !writtenHere.has(seq));
}

/** Adds who wrote the change and whether it came from the team server (reads only the new rows). */
async function describedChange(db: SpocDb, change: ExternalGtChange, seqs: readonly number[]): Promise<ExternalGtChange> {
  if (seqs.length === 0) return change;
  try {
    const rows = (await db.revisions.bulkGet([...seqs])).filter((r): r is Revision => r !== undefined);
    return { ...change, authors: [...new Set(rows.map((r) => r.author))].sort(), fromServer: rows.some((r) => typeof r.cursor === 'string') };
  } catch {
    return change; // the notice without names is still right
  }
}

export function watchExternalGtChanges(db: SpocDb, clipId: string, onChange: (change: ExternalGtChange) => void): ExternalChangeWatch {
  const writtenHere = new Set<number>();
  // Reported when the row is added, before its transaction commits and so before the liveQuery
  // below re-reads: this tab's revisions are always known by then.
  const stopLocal = onLocalWrites(db, 'revisions', (keys, values) => {
    values.forEach((v, i) => {
      const row = v as Revision;
      // A row that arrives with a server cursor was pulled by the sync client through this same
      // connection (src/sync/applyPull.ts): someone else's work, to reload like another tab's.
      if (row.clipId === clipId && row.source === 'gt' && row.cursor === undefined && typeof keys[i] === 'number') writtenHere.add(keys[i] as number);
    });
  });
  let known: Map<number, number> | null = null;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const subscription = liveQuery(() => gtRevisionFrames(db, clipId)).subscribe({
    next: (now) => {
      const change = known ? externalChangeBetween(known, now, writtenHere) : null;
      const seqs = change && known ? foreignSeqs(known, now, writtenHere) : [];
      known = now;
      markReady();
      if (change) void describedChange(db, change, seqs).then(onChange);
    },
    // A closed database (an upgrade in another tab) is reported by src/workspace/db.ts; nothing to add.
    error: () => markReady(),
  });
  return {
    ready,
    stop: () => {
      subscription.unsubscribe();
      stopLocal();
      markReady();
    },
  };
}

/** The notice shown when the editor reloads after such a change. */
export function externalChangeNotice(clipName: string, change: ExternalGtChange): string {
  const what = change.replaced
    ? 'its history was replaced (for example by a bundle import)'
    : `frame${change.frames.length === 1 ? '' : 's'} ${change.frames.map((k) => k + 1).join(', ')} ${change.frames.length === 1 ? 'was' : 'were'} changed`;
  // A replaced history names nobody: its rows are a whole other history, not one person's edit.
  const by = !change.replaced && change.authors && change.authors.length > 0 ? ` by ${change.authors.join(', ')}` : '';
  if (change.fromServer && !change.replaced) {
    return `"${clipName}": ${what}${by} (synced from the team server). The editor shows it now; undo starts from the stored history.`;
  }
  return `"${clipName}" was changed outside this editor${by}: ${what}. The editor reloaded it from the store, so nothing stale is written back; undo starts from the stored history.`;
}
