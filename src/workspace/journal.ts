/**
 * The page's crash journal (store/journal; docs/durability.md): opened with the store, checked
 * before any view may write, compacted in the background, and the keeper of edits whose save failed.
 * Where the browser has no Origin Private File System (plain http outside localhost) there is no
 * journal, and the app says so (InsecureContextBanner).
 */
import type { SpocDb } from '../store/db';
import {
  compact,
  dropPendingEdits,
  ensureReserve,
  keepPendingEdits,
  replayPendingEdits,
  type Journal,
  type JournalVerdict,
  type ReplayedEdits,
} from '../store/journal';
import type { FrameEdits } from '../store/layers';
import { notify } from './notices';

export interface JournalState {
  journal: Journal | null;
  verdict: JournalVerdict | null;
}

let state: JournalState = { journal: null, verdict: null };

export function setJournalState(next: JournalState): void {
  state = next;
}

export function journalState(): JournalState {
  return state;
}

/** Where the editor keeps edits whose save failed (the shape of the session's PendingEditsPort). */
export interface PendingEditsKeeper {
  keep(clipId: string, edits: FrameEdits[]): Promise<void>;
  drop(clipId: string): Promise<void>;
}

/** Edits whose save failed go to the journal (undefined without one: they then live only in the tab). */
export function pendingEditsPort(): PendingEditsKeeper | undefined {
  const journal = state.journal;
  if (!journal) return undefined;
  return {
    keep: async (clipId, edits) => {
      if (await keepPendingEdits(journal.files, clipId, edits)) {
        notify(
          'warn',
          'Storage is full. SPOC Studio gave up its emergency reserve to keep your unsaved edits in the crash journal; free space (delete clips, or export and remove a project) before painting on.',
          { appWide: true },
        );
      }
    },
    drop: (clipId) => dropPendingEdits(journal.files, clipId),
  };
}

/** Records piling up between compactions before one is due; a compaction rewrites only changed clips. */
const COMPACT_AFTER_RECORDS = 300;
const COMPACT_CHECK_MS = 60_000;

let upkeepStarted = false;

/**
 * Background upkeep once the store is known healthy, once per page: replay kept edits, keep the
 * reserve, and compact when records pile up. One tab compacts at a time (a Web Lock); the others skip.
 */
export async function startJournalUpkeep(db: SpocDb, journal: Journal, verdict: JournalVerdict, onReplayed: (r: ReplayedEdits[]) => void): Promise<void> {
  if (upkeepStarted) return;
  upkeepStarted = true;
  const replayed = await replayPendingEdits(db, journal.files);
  if (replayed.length > 0) onReplayed(replayed);
  void ensureReserve(journal.files);
  const needsFull = verdict.kind === 'healthy' && verdict.journalBehind;
  let busy = false;
  // At start, any records left from the last session are folded in (only their clips are rewritten);
  // later, once they pile up.
  const run = async (all: boolean, threshold: number) => {
    if (busy) return;
    busy = true;
    try {
      await withCompactionLock(async () => {
        const records = (await journal.txSeqs()).length;
        if (all || records >= threshold || journal.status.missed > 0) await compact(db, journal, { all });
      });
    } catch (err) {
      console.warn('Journal compaction failed; it is retried later.', err);
    } finally {
      busy = false;
    }
  };
  void run(needsFull, 1);
  setInterval(() => void run(false, COMPACT_AFTER_RECORDS), COMPACT_CHECK_MS);
}

async function withCompactionLock(fn: () => Promise<void>): Promise<void> {
  if (!('locks' in navigator)) return fn();
  await navigator.locks.request('spoc-journal-compaction', { ifAvailable: true }, async (lock) => {
    if (lock) await fn();
  });
}
