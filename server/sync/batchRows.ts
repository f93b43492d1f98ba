/**
 * The rows a batch of pushes to one project reads and writes (push.ts pushBatch; docs/sync.md
 * "Group commit"), with as few round trips as the batch allows: every query costs 1–3 ms on a busy
 * machine (PGlite or PostgreSQL alike), and the batch holds the project's lock all along, so round
 * trips, not judging, set how many pushes a second a project takes.
 *
 * - Before judging: the rows every push of the batch names and the clips they belong to, in one
 *   query; per frame layer of every clip the batch paints, the newest revision of each client, in
 *   another; the project's lock and cursors for the batch, in a third.
 * - While judging: reads come from here, and a write only updates what later changes (of this push
 *   and of the later pushes of the batch) see. The batch holds the project's lock, so nobody else
 *   writes the project's rows meanwhile; rows of other projects are only asked "is this id taken?".
 * - At the end (or before any query that reads sync_rows itself: `flushed`): the rows written, in
 *   multi-row inserts, each under the cursor it was given when judged; the last one sends the
 *   batch's NOTIFY.
 *
 * So the batch stores exactly what its pushes would have stored one after another, under the same
 * cursor order; only the sequence may skip numbers (cursors taken for changes that were refused or
 * resent), as it always did when a push was rolled back.
 */
import type { Queryable } from '../db/db';
import { compareCursors, concurrentEditRowId, type Cursor, type SyncKind } from '../../src/sync/protocol';
import { findRows, lockProjectTakingCursors, newestRevisionsByClient, takeCursors, writeRows, type CursoredWrite, type Notice, type RowWrite, type StoredRow } from './syncStore';

const keyOf = (kind: SyncKind, id: string) => `${kind}\u0000${id}`;

/** Rows per INSERT at most, and JSON per INSERT at most (a batch may carry many large revisions). */
const WRITE_CHUNK_ROWS = 1000;
const WRITE_CHUNK_BYTES = 4 << 20;

export class BatchRows {
  private readonly mine = new Map<string, StoredRow | null>();
  private readonly elsewhere = new Map<string, boolean>();
  /** Cursors taken and not given out yet, ascending. */
  private cursors: Cursor[] = [];
  private taken = 0;
  /** Rows written since the last flush: the last write of each row (its cursor is the highest). */
  private readonly pending = new Map<string, CursoredWrite>();
  /** Per frame layer of the clips in `layerClips`, the newest revision cursor of each client ('' for none named). */
  private readonly layers = new Map<string, Map<string, Cursor>>();
  private readonly layerClips = new Set<string>();
  private batchFirst: Cursor | null = null;
  private batchLast: Cursor | null = null;

  constructor(
    private readonly tx: Queryable,
    private readonly projectId: string,
  ) {}

  /** Takes the project's lock and a cursor per change of the batch (most changes write one row), in one round trip. */
  async lock(changes: number): Promise<void> {
    // At least one: the lock is taken by the statement's first row (a batch of empty pushes still holds it).
    const n = Math.max(1, changes);
    this.cursors.push(...(await lockProjectTakingCursors(this.tx, this.projectId, n)));
    this.taken += n;
  }

  private async takeCursors(n: number): Promise<void> {
    this.cursors.push(...(await takeCursors(this.tx, n)));
    this.taken += n;
  }

  /** Reads these rows (of this project, and whether another holds the id) in one query. */
  async prefetch(keys: readonly (readonly [SyncKind, string])[]): Promise<void> {
    const fresh = [...new Map(keys.map(([kind, id]) => [keyOf(kind, id), [kind, id] as const])).values()].filter(([k, id]) => !this.mine.has(keyOf(k, id)));
    if (fresh.length === 0) return;
    // Rows written since the last flush are all in `mine`, so what is not there is read as stored.
    const rows = await findRows(this.tx, this.projectId, fresh);
    for (const [kind, id] of fresh) {
      this.mine.set(keyOf(kind, id), null);
      this.elsewhere.set(keyOf(kind, id), false);
    }
    for (const r of rows) {
      if (r.mine) this.mine.set(keyOf(r.kind, r.row_id), { body: r.body, cursor: r.cursor, client_id: r.client_id });
      else this.elsewhere.set(keyOf(r.kind, r.row_id), true);
    }
  }

  async get(kind: SyncKind, id: string): Promise<StoredRow | null> {
    const key = keyOf(kind, id);
    if (!this.mine.has(key)) await this.prefetch([[kind, id]]);
    return this.mine.get(key)!;
  }

  async inOtherProject(kind: SyncKind, id: string): Promise<boolean> {
    const key = keyOf(kind, id);
    if (!this.elsewhere.has(key)) this.elsewhere.set(key, (await findRows(this.tx, this.projectId, [[kind, id]])).some((r) => !r.mine));
    return this.elsewhere.get(key)!;
  }

  /** Reads, in one query, the newest revision of each client per frame layer of these clips. */
  async prefetchRevisionLayers(clipIds: readonly string[]): Promise<void> {
    const fresh = [...new Set(clipIds)].filter((id) => !this.layerClips.has(id));
    if (fresh.length === 0) return;
    // Revisions written since the last flush are not in the table yet.
    const rows = await newestRevisionsByClient(await this.flushed(), this.projectId, fresh);
    for (const id of fresh) this.layerClips.add(id);
    for (const r of rows) this.noteRevision(r.layer, r.client_id, r.cursor);
  }

  private noteRevision(layer: string, clientId: string | null, cursor: Cursor): void {
    let byClient = this.layers.get(layer);
    if (!byClient) this.layers.set(layer, (byClient = new Map()));
    const client = clientId ?? '';
    const was = byClient.get(client);
    if (was === undefined || compareCursors(cursor, was) > 0) byClient.set(client, cursor);
  }

  /**
   * Could a revision of this frame layer with this base be concurrent with another client's? Only
   * if another client's newest revision of it is above the base (then `revisionsAfter` tells).
   */
  async mayHaveLaterRevisions(clipId: string, clientId: string, layerKey: string, base: Cursor): Promise<boolean> {
    await this.prefetchRevisionLayers([clipId]);
    for (const [client, newest] of this.layers.get(layerKey) ?? []) {
      if (client !== clientId && compareCursors(newest, base) > 0) return true;
    }
    return false;
  }

  /** The cursors of the first and last row the batch wrote (cursors only grow), or null before any. */
  batchWritten(): { first: Cursor; last: Cursor } | null {
    return this.batchFirst === null ? null : { first: this.batchFirst, last: this.batchLast! };
  }

  /** Gives the row the next cursor; it is stored at the next flush, and read from here until then. */
  async write(w: RowWrite): Promise<Cursor> {
    // Changes that write two rows (a step and its clip, a revision and its flag) may outrun the cursors taken.
    if (this.cursors.length === 0) await this.takeCursors(Math.max(16, this.taken));
    const cursor = this.cursors.shift()!;
    const key = keyOf(w.kind, w.rowId);
    this.pending.delete(key); // (re-inserted last: the order rows reach the INSERT does not matter, only their cursors)
    this.pending.set(key, { kind: w.kind, rowId: w.rowId, clientId: w.clientId, userId: w.userId, cursor, json: JSON.stringify(w.body) });
    this.mine.set(key, { body: w.body, cursor, client_id: w.clientId });
    if (w.kind === 'revision') {
      const r = w.body as { clipId?: unknown; source?: unknown; frameIndex?: unknown };
      const clipId = String(r.clipId);
      if (this.layerClips.has(clipId)) this.noteRevision(concurrentEditRowId(clipId, String(r.source), Number(r.frameIndex)), w.clientId, cursor);
    }
    this.batchFirst ??= cursor;
    this.batchLast = cursor;
    return cursor;
  }

  /** The newest cursor written by the batch so far: under the lock, the project's newest row. */
  lastWritten(): Cursor | null {
    return this.batchLast;
  }

  /**
   * The transaction with every row written so far stored: for queries that read sync_rows
   * themselves, and at the batch's end, with its NOTIFY sent by the last insert.
   */
  async flushed(notice: Notice | null = null): Promise<Queryable> {
    if (this.pending.size === 0) {
      if (notice) await this.tx.query('SELECT pg_notify($1, $2)', [notice.channel, notice.payload]);
      return this.tx;
    }
    const rows = [...this.pending.values()];
    this.pending.clear();
    let chunk: CursoredWrite[] = [];
    let bytes = 0;
    for (const row of rows) {
      if (chunk.length > 0 && (chunk.length >= WRITE_CHUNK_ROWS || bytes + row.json.length > WRITE_CHUNK_BYTES)) {
        await writeRows(this.tx, this.projectId, chunk);
        chunk = [];
        bytes = 0;
      }
      chunk.push(row);
      bytes += row.json.length;
    }
    await writeRows(this.tx, this.projectId, chunk, notice);
    return this.tx;
  }
}
