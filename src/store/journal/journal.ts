/**
 * The crash journal: a second copy of every committed change, outside IndexedDB, from which the
 * store can be rebuilt when the browser loses or damages the database (docs/durability.md).
 *
 * Layout (directories of JournalFiles):
 *   tx/<seq>.rec          one file per committed transaction (recordFormat.ts), named by change number
 *   snap/manifest.json    { compactedThrough, schema }: snapshots hold every change up to that number
 *   snap/meta.rec, snap/project-<id>.rec, snap/clip-<id>.rec   per-row-owner snapshots (compact.ts)
 *   pending/<clipId>.rec  editor edits whose save failed (pendingEdits.ts)
 *   reserve/space.bin     room kept free so those can be written on a full disk
 *
 * Appends run in the background, in order; painting never waits for them. A failed append is
 * shown (status) and repaired by the next compaction, which snapshots from the store.
 */
import type { CapturedTx } from './capture';
import type { JournalFiles } from './journalFiles';
import { decodeRecord, encodeRecord, JournalFormatError, type JournalRecord } from './recordFormat';

export const TX_DIR = 'tx';
export const SNAP_DIR = 'snap';
export const PENDING_DIR = 'pending';
export const RESERVE_DIR = 'reserve';
export const MANIFEST = 'manifest.json';

export interface JournalManifest {
  /** Every change up to this number is in the snapshots; tx records at or below it are obsolete. */
  compactedThrough: number;
  schema: number;
  at: number;
}

export interface JournalStatus {
  /** Appends waiting or being written. */
  queued: number;
  /** Message of the last failed append; null once one succeeds. */
  error: string | null;
  /** Change numbers whose append failed and that only a compaction can cover again. */
  missed: number;
}

export function txName(seq: number): string {
  return `${String(seq).padStart(12, '0')}.rec`;
}

export function seqOfTxName(name: string): number | null {
  const m = /^(\d{12})\.rec$/.exec(name);
  return m ? Number(m[1]) : null;
}

export class Journal {
  readonly files: JournalFiles;
  readonly schema: number;
  /** Highest change number the journal holds (or the store had), so new numbers never reuse one. */
  private highest = 0;
  private chain: Promise<void> = Promise.resolve();
  private current: JournalStatus = { queued: 0, error: null, missed: 0 };
  private listeners = new Set<(s: JournalStatus) => void>();
  /** While true, the store is being rebuilt from the journal: its writes are not journaled again. */
  replaying = false;
  /**
   * Set while the store lacks changes the journal holds and the person has not chosen what to do:
   * every write is refused with this reason, so nothing is numbered (or overwritten) meanwhile.
   */
  blocked: string | null = null;

  constructor(files: JournalFiles, schema: number) {
    this.files = files;
    this.schema = schema;
  }

  get floor(): number {
    return this.highest;
  }

  raiseFloor(seq: number): void {
    this.highest = Math.max(this.highest, seq);
  }

  get status(): JournalStatus {
    return this.current;
  }

  subscribe(fn: (s: JournalStatus) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Queues a committed transaction for writing (called by the capture middleware). */
  append(tx: CapturedTx): void {
    this.raiseFloor(tx.seq);
    this.set({ queued: this.current.queued + 1 });
    const record: JournalRecord = { kind: 'tx', seq: tx.seq, schema: this.schema, at: Date.now(), ops: tx.ops };
    this.chain = this.chain.then(async () => {
      try {
        await this.files.write(TX_DIR, txName(tx.seq), await encodeRecord(record));
        this.set({ queued: this.current.queued - 1, error: null });
      } catch (err) {
        this.set({ queued: this.current.queued - 1, error: err instanceof Error ? err.message : String(err), missed: this.current.missed + 1 });
      }
    });
  }

  /** Resolves once every append queued so far has been written (or has failed). */
  whenWritten(): Promise<void> {
    return this.chain;
  }

  /** A change reached the store without a record (capture.ts leaveNextUnnumbered): the next compaction rebuilds. */
  noteMissed(): void {
    this.set({ missed: this.current.missed + 1 });
  }

  /** Called after a compaction covered everything: earlier failed appends no longer matter. */
  markRepaired(): void {
    this.set({ missed: 0, error: null });
  }

  async manifest(): Promise<JournalManifest | null> {
    const file = await this.files.read(SNAP_DIR, MANIFEST);
    if (!file) return null;
    try {
      const m = JSON.parse(await file.text()) as JournalManifest;
      return Number.isInteger(m.compactedThrough) ? m : null;
    } catch {
      return null;
    }
  }

  async writeManifest(m: JournalManifest): Promise<void> {
    await this.files.write(SNAP_DIR, MANIFEST, new Blob([JSON.stringify(m)], { type: 'application/json' }));
  }

  /** Change numbers of the tx records present, ascending. */
  async txSeqs(): Promise<number[]> {
    return (await this.files.list(TX_DIR))
      .map(seqOfTxName)
      .filter((s): s is number => s !== null)
      .sort((a, b) => a - b);
  }

  async readTx(seq: number): Promise<JournalRecord | null> {
    const file = await this.files.read(TX_DIR, txName(seq));
    return file ? readWhole(file) : null;
  }

  private set(patch: Partial<JournalStatus>): void {
    this.current = { ...this.current, ...patch };
    for (const fn of this.listeners) fn(this.current);
  }
}

/** A record, or null when the file was cut short or damaged (it is then skipped, and reported by the caller). */
export async function readWhole(file: Blob): Promise<JournalRecord | null> {
  try {
    return await decodeRecord(file);
  } catch (err) {
    if (err instanceof JournalFormatError || err instanceof SyntaxError) return null;
    throw err;
  }
}
