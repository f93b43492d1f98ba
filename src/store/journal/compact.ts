/**
 * Folds the journal's transaction records into per-owner snapshots taken from the store, then drops
 * the records they cover, so the journal stays about the size of the store and a rebuild replays
 * few records. Run only while the store is known healthy (the start-up check passed): snapshots
 * are read from it.
 *
 * Why this order is safe at every crash point: let S0 be the store's change number when the
 * compaction starts. Each snapshot is read later, so it holds every change up to some number ≥ S0.
 * Records above S0 are kept and replayed over the snapshots on a rebuild; replaying a change that
 * a snapshot already holds, in order, ends in the same rows. The manifest (compactedThrough = S0) is
 * written after the snapshots and before any record is deleted, so a crash anywhere leaves either
 * the old manifest with all its records, or the new one with the records it needs.
 *
 * Change numbers have no gaps (each committed change takes the next one), so a missing number means
 * an append still in flight in some tab, or one that failed. Compacting only the changed owners is
 * safe up to the first missing number; past it, a record not seen yet could belong to an owner that
 * is not re-snapshotted. A full compaction (every owner re-read from the store) is safe at any time.
 */
import type { SpocDb } from '../db';
import { SNAP_DIR, MANIFEST, TX_DIR, txName, type Journal } from './journal';
import { allOwners, META_OWNER, ownerRows, snapshotName, touchedBy, type Touched } from './owners';
import { encodeRecord } from './recordFormat';

export interface CompactionResult {
  /** Change number the snapshots cover. */
  through: number;
  snapshotsWritten: number;
  snapshotsRemoved: number;
  recordsRemoved: number;
  /** Records that could not be read (cut short): their owners were unknown, so everything was re-snapshotted. */
  unreadable: number;
}

export interface CompactOptions {
  /** Snapshot every owner (first run, schema change, failed appends), not only the changed ones. */
  all?: boolean;
}

/** The store's change number: the key of its one journal mark (0 for a store that never changed). */
export async function storeSeq(db: SpocDb): Promise<number> {
  const key = await db.journalMarks.toCollection().lastKey();
  return typeof key === 'number' ? key : 0;
}

/**
 * Sets the store's change number (after a rebuild, or when the journal is discarded): an explicit
 * key moves the key generator on, so the next change is `seq + 1`. Call with capture suspended.
 */
export async function setStoreSeq(db: SpocDb, seq: number): Promise<void> {
  await db.transaction('rw', db.journalMarks, async () => {
    await db.journalMarks.clear();
    if (seq > 0) await db.journalMarks.add({ seq, at: Date.now() });
  });
}

/** Past this many records behind a missing change number, stop waiting for it and compact fully. */
const MAX_RECORDS_PAST_A_GAP = 200;

export async function compact(db: SpocDb, journal: Journal, options: CompactOptions = {}): Promise<CompactionResult> {
  await journal.whenWritten();
  const stored = await storeSeq(db);
  const manifest = await journal.manifest();
  const listed = (await journal.txSeqs()).filter((s) => s <= stored);
  const missedBefore = journal.status.missed;

  let all = options.all === true || !manifest || manifest.schema !== journal.schema || missedBefore > 0;
  let through = stored;
  if (!all && manifest) {
    through = contiguousEnd(manifest.compactedThrough, listed);
    if (through < stored && listed.filter((s) => s > through).length > MAX_RECORDS_PAST_A_GAP) {
      all = true;
      through = stored;
    }
  }
  const seqs = listed.filter((s) => s <= through);
  const touched: Touched = { all, owners: new Set() };
  let unreadable = 0;
  if (!touched.all) {
    for (const seq of seqs) {
      const record = await journal.readTx(seq);
      if (!record) {
        unreadable++;
        touched.all = true;
        break;
      }
      touchedBy(record.ops, touched);
    }
  }

  const existing = new Set((await journal.files.list(SNAP_DIR)).filter((n) => n !== MANIFEST));
  const owners = touched.all ? await allOwners(db) : [...touched.owners];
  let written = 0;
  let removed = 0;
  const kept = new Set<string>();
  for (const owner of owners) {
    // One read transaction per owner: a clip's rows are consistent with each other.
    const ops = await db.transaction('r', db.tables, () => ownerRows(db, owner));
    const name = snapshotName(owner);
    if (ops) {
      await journal.files.write(SNAP_DIR, name, await encodeRecord({ kind: 'snapshot', seq: through, schema: journal.schema, at: Date.now(), ops }));
      written++;
      kept.add(name);
    } else if (existing.has(name)) {
      await journal.files.remove(SNAP_DIR, name);
      removed++;
    }
  }
  if (touched.all) {
    // Owners deleted from the store (a deleted clip or project) lose their snapshot too.
    for (const name of existing) {
      if (!kept.has(name) && name !== snapshotName(META_OWNER)) {
        await journal.files.remove(SNAP_DIR, name);
        removed++;
      }
    }
  }

  await journal.writeManifest({ compactedThrough: through, schema: journal.schema, at: Date.now() });
  for (const seq of seqs) await journal.files.remove(TX_DIR, txName(seq));
  await journal.files.sweep(TX_DIR);
  await journal.files.sweep(SNAP_DIR);
  if (touched.all && journal.status.missed === missedBefore) journal.markRepaired();
  return { through, snapshotsWritten: written, snapshotsRemoved: removed, recordsRemoved: seqs.length, unreadable };
}

/** The highest number n such that every change after `from` up to n has a record in `seqs` (ascending). */
export function contiguousEnd(from: number, seqs: readonly number[]): number {
  let end = from;
  for (const s of seqs) {
    if (s <= end) continue;
    if (s !== end + 1) break;
    end = s;
  }
  return end;
}

/**
 * The person chose to start without the work the journal holds: forget it, and continue numbering
 * after it (so nothing written from now on is mistaken for the discarded changes), then snapshot
 * whatever the store holds now.
 */
export async function discardJournal(db: SpocDb, journal: Journal): Promise<void> {
  await journal.whenWritten();
  const floor = Math.max(journal.floor, await storeSeq(db));
  journal.replaying = true;
  try {
    await setStoreSeq(db, floor);
  } finally {
    journal.replaying = false;
  }
  journal.blocked = null;
  for (const seq of await journal.txSeqs()) await journal.files.remove(TX_DIR, txName(seq));
  for (const name of await journal.files.list(SNAP_DIR)) await journal.files.remove(SNAP_DIR, name);
  await compact(db, journal, { all: true });
}
