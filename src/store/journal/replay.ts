/**
 * Rebuilds the store from the journal: the snapshots, then every transaction record after them, in
 * change order. Writes go through Dexie with the journal's capture suspended (they are already in
 * the journal), each snapshot or record in its own transaction, so memory and transaction size stay
 * bounded by the largest clip. Afterwards the store's change number is the journal's.
 */
import { Dexie, type IndexableType, type Table } from 'dexie';
import type { SpocDb } from '../db';
import { newRowId } from '../ids';
import { ROW_ID_TABLES } from '../schema';
import { setStoreSeq } from './compact';
import { MANIFEST, SNAP_DIR, readWhole, type Journal } from './journal';
import type { JournalOp } from './recordFormat';

export interface RestoreProgress {
  done: number;
  total: number;
}

export interface RestoreResult {
  /** Store change number after the restore. */
  seq: number;
  snapshots: number;
  records: number;
  /** Journal files that were cut short or damaged and skipped (named for the report). */
  skipped: string[];
}

export interface RestoreOptions {
  /** 'scratch': empty the store and rebuild everything; 'tail': only replay records after the store's number. */
  mode: 'scratch' | 'tail';
  /** The store's change number, for 'tail'. */
  fromSeq?: number;
  onProgress?: (p: RestoreProgress) => void;
}

export async function restoreFromJournal(db: SpocDb, journal: Journal, options: RestoreOptions): Promise<RestoreResult> {
  const manifest = await journal.manifest();
  const compactedThrough = manifest?.compactedThrough ?? 0;
  const start = options.mode === 'tail' ? Math.max(options.fromSeq ?? 0, compactedThrough) : compactedThrough;
  const snapshots = options.mode === 'scratch' ? (await journal.files.list(SNAP_DIR)).filter((n) => n !== MANIFEST).sort(snapshotOrder) : [];
  const seqs = (await journal.txSeqs()).filter((s) => s > start);
  const total = snapshots.length + seqs.length;
  const skipped: string[] = [];
  let done = 0;
  let seq = start;

  journal.replaying = true;
  try {
    if (options.mode === 'scratch') {
      await db.transaction('rw', db.tables, () => Promise.all(db.tables.map((t) => t.clear())));
      for (const name of snapshots) {
        const file = await journal.files.read(SNAP_DIR, name);
        const record = file ? await readWhole(file) : null;
        if (record) await applyOps(db, record.ops);
        else skipped.push(`snapshot ${name}`);
        options.onProgress?.({ done: ++done, total });
      }
    }
    for (const s of seqs) {
      const record = await journal.readTx(s);
      if (record) await applyOps(db, record.ops);
      else skipped.push(`change ${s}`);
      seq = s;
      options.onProgress?.({ done: ++done, total });
    }
    await setStoreSeq(db, seq);
  } finally {
    journal.replaying = false;
  }
  journal.blocked = null;
  journal.raiseFloor(seq);
  return { seq, snapshots: snapshots.length, records: seqs.length, skipped };
}

/** Applies one record's operations in one transaction, in order. */
export async function applyOps(db: SpocDb, ops: readonly JournalOp[]): Promise<void> {
  const tables = [...new Set(ops.map((o) => o.table))].map((t) => db.table(t));
  await db.transaction('rw', tables, async () => {
    for (const op of ops) {
      const table = db.table(op.table);
      if (op.type === 'put') await table.bulkPut(ROW_ID_TABLE_SET.has(op.table) ? await withRowIds(table, op.values) : op.values);
      else if (op.type === 'delete') await table.bulkDelete(op.keys as IndexableType[]);
      else {
        const { lower, upper, lowerOpen, upperOpen } = op.range;
        if (lower === undefined && upper === undefined) await table.clear();
        else {
          await table
            .where(':id')
            .between(lower ?? Dexie.minKey, upper ?? Dexie.maxKey, !lowerOpen, !upperOpen)
            .delete();
        }
      }
    }
  });
}

const ROW_ID_TABLE_SET: ReadonlySet<string> = new Set(ROW_ID_TABLES);

/**
 * Log rows of a record written before schema v8 have no id (the journal holds rows as they were
 * committed). Each gets the id its row already has in the store, when there is one, else a new one,
 * made in the record's order; rows with an id keep it (docs/sync.md "Row identity").
 */
async function withRowIds(table: Table, values: readonly unknown[]): Promise<unknown[]> {
  const rows = values as { seq: number; id?: string }[];
  const missing = rows.filter((r) => r.id === undefined);
  if (missing.length === 0) return rows;
  const stored = (await table.bulkGet(missing.map((r) => r.seq))) as ({ id?: string } | undefined)[];
  const ids = new Map(missing.map((r, i) => [r, stored[i]?.id]));
  return rows.map((r) => (r.id === undefined ? { ...r, id: ids.get(r) ?? newRowId() } : r));
}

/** Settings, then projects, then clips: a clip's project row is in place before its rows. */
function snapshotOrder(a: string, b: string): number {
  const rank = (n: string) => (n.startsWith('meta') ? 0 : n.startsWith('project-') ? 1 : 2);
  return rank(a) - rank(b) || a.localeCompare(b);
}
