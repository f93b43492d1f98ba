/**
 * The crash journal (docs/durability.md): a second copy of every committed change outside
 * IndexedDB, a start-up check that notices a lost or shrunken store, a rebuild from it, and a place
 * for edits whose save failed.
 */
import type { SpocDb, SpocDbOptions } from '../db';
import { openSpocDb } from '../db';
import { SCHEMA_VERSION } from '../schema';
import { captureMiddleware } from './capture';
import { Journal } from './journal';
import type { JournalFiles } from './journalFiles';

export { Journal, type JournalStatus } from './journal';
export { checkStore, type JournalVerdict } from './check';
export { compact, discardJournal, type CompactionResult } from './compact';
export { restoreFromJournal, type RestoreResult, type RestoreProgress } from './replay';
export { keepPendingEdits, dropPendingEdits, replayPendingEdits, ensureReserve, type ReplayedEdits } from './pendingEdits';
export { openOpfsFiles, MemoryFiles, type JournalFiles } from './journalFiles';

/** Opens the store with every committed change captured into `files`' journal. */
export async function openJournaledDb(files: JournalFiles, name?: string, options?: SpocDbOptions): Promise<{ db: SpocDb; journal: Journal }> {
  const journal = new Journal(files, SCHEMA_VERSION);
  const db = await openSpocDb(name, options, [
    captureMiddleware({
      sink: (tx) => journal.append(tx),
      blocked: () => journal.blocked,
      suspended: () => journal.replaying,
      missed: () => journal.noteMissed(),
    }),
  ]);
  return { db, journal };
}
