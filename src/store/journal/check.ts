/**
 * The start-up check: does the store hold every change the journal holds? Chromium may delete a
 * damaged IndexedDB database at an ordinary restart, without telling the page (docs/durability.md);
 * comparing change numbers notices it, and says what the journal can bring back.
 */
import type { SpocDb } from '../db';
import { storeSeq } from './compact';
import { SNAP_DIR, type Journal } from './journal';

export type JournalVerdict =
  /**
   * The store holds everything the journal does (or more, or the journal's snapshots hold rows of an
   * older schema, e.g. log rows without the ids v8 gave them: the journal then needs a full compaction).
   */
  | { kind: 'healthy'; storeSeq: number; journalSeq: number; journalBehind: boolean; firstRun: boolean }
  /** The journal holds changes the store lacks. */
  | {
      kind: 'store-behind';
      storeSeq: number;
      journalSeq: number;
      /** 'scratch' when the store lacks changes the snapshots fold in (it must be rebuilt whole). */
      mode: 'scratch' | 'tail';
      projects: number;
      clips: number;
      storeProjects: number;
    };

export async function checkStore(db: SpocDb, journal: Journal): Promise<JournalVerdict> {
  const manifest = await journal.manifest();
  const seqs = await journal.txSeqs();
  const compactedThrough = manifest?.compactedThrough ?? 0;
  const journalSeq = Math.max(compactedThrough, seqs.at(-1) ?? 0);
  const stored = await storeSeq(db);
  journal.raiseFloor(Math.max(journalSeq, stored));
  if (journalSeq <= stored) {
    return { kind: 'healthy', storeSeq: stored, journalSeq, journalBehind: journalSeq < stored || !manifest || manifest.schema !== journal.schema, firstRun: !manifest && seqs.length === 0 };
  }
  const snaps = await journal.files.list(SNAP_DIR);
  journal.blocked =
    'The browser’s database is missing work that SPOC Studio’s crash journal holds; nothing can be saved until you restore it or choose to start without it.';
  return {
    kind: 'store-behind',
    storeSeq: stored,
    journalSeq,
    mode: stored >= compactedThrough && manifest !== null ? 'tail' : 'scratch',
    projects: snaps.filter((n) => n.startsWith('project-')).length,
    clips: snaps.filter((n) => n.startsWith('clip-')).length,
    storeProjects: await db.projects.count(),
  };
}
