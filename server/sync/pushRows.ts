/**
 * The rows one push reads and writes, read once: the push's rows and clips are fetched in one query
 * before judging, and every write updates what later changes of the same push see. Each query costs
 * a round trip (1–3 ms on a busy machine, PGlite or PostgreSQL alike), so looking each row up on its
 * own would cost more than judging it. The push holds the project's lock, so nobody else writes the
 * project's rows meanwhile; rows of other projects are only asked "is this id taken?".
 */
import type { Queryable } from '../db/db';
import type { JsonObject } from '../../src/store/records';
import { compareCursors, type Cursor, type SyncKind } from '../../src/sync/protocol';
import { getRow, idInOtherProject, newestOtherRevisions, writeRow, type RowWrite, type StoredRow } from './syncStore';

const keyOf = (kind: SyncKind, id: string) => `${kind}\u0000${id}`;

export class PushRows {
  private readonly mine = new Map<string, StoredRow | null>();
  private readonly elsewhere = new Map<string, boolean>();

  constructor(
    private readonly tx: Queryable,
    private readonly projectId: string,
  ) {}

  /** Reads these rows (of this project and whether another holds the id) in one query. */
  async prefetch(keys: readonly (readonly [SyncKind, string])[]): Promise<void> {
    const fresh = [...new Map(keys.map(([kind, id]) => [keyOf(kind, id), [kind, id] as const])).values()].filter(([k, id]) => !this.mine.has(keyOf(k, id)));
    if (fresh.length === 0) return;
    const rows = await this.tx.query<StoredRow & { mine: boolean; kind: SyncKind; row_id: string }>(
      `SELECT s.project_id = $1 AS mine, s.kind, s.row_id, CASE WHEN s.project_id = $1 THEN s.body END AS body, s.cursor::text AS cursor, s.client_id
       FROM sync_rows s JOIN unnest($2::text[], $3::text[]) AS k (kind, row_id) ON s.kind = k.kind AND s.row_id = k.row_id`,
      [this.projectId, fresh.map(([kind]) => kind), fresh.map(([, id]) => id)],
    );
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
    if (!this.mine.has(key)) this.mine.set(key, await getRow(this.tx, this.projectId, kind, id));
    return this.mine.get(key)!;
  }

  async inOtherProject(kind: SyncKind, id: string): Promise<boolean> {
    const key = keyOf(kind, id);
    if (!this.elsewhere.has(key)) this.elsewhere.set(key, await idInOtherProject(this.tx, this.projectId, kind, id));
    return this.elsewhere.get(key)!;
  }

  private othersNewest: Map<string, Cursor> | null = null;

  /**
   * Could a revision of this frame layer with this base be concurrent with another client's? Read
   * once per push for every clip it touches: rows this push writes are this client's, so the answer
   * does not change while it runs.
   */
  async mayHaveLaterRevisions(clipIds: () => string[], clientId: string, layerKey: string, base: Cursor): Promise<boolean> {
    this.othersNewest ??= await newestOtherRevisions(this.tx, this.projectId, clipIds(), clientId);
    const newest = this.othersNewest.get(layerKey);
    return newest !== undefined && compareCursors(newest, base) > 0;
  }

  private firstWritten: Cursor | null = null;
  private lastWritten: Cursor | null = null;

  /** The cursors of the first and last row this push wrote (cursors only grow), or null before any. */
  written(): { first: Cursor; last: Cursor } | null {
    return this.firstWritten === null ? null : { first: this.firstWritten, last: this.lastWritten! };
  }

  async write(w: Omit<RowWrite, 'projectId'>): Promise<Cursor> {
    const cursor = await writeRow(this.tx, { ...w, projectId: this.projectId });
    this.firstWritten ??= cursor;
    this.lastWritten = cursor;
    this.mine.set(keyOf(w.kind, w.rowId), { body: w.body as JsonObject, cursor, client_id: w.clientId });
    return cursor;
  }
}
