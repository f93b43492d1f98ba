/** SQL over sync_rows (migrations/006_sync.sql). Who may write what is decided before these run (judge.ts). */
import type { Db, Queryable } from '../db/db';
import type { JsonObject } from '../../src/store/records';
import { compareCursors, type Cursor, type PulledChange, type SyncKind } from '../../src/sync/protocol';

export interface StoredRow {
  body: JsonObject;
  cursor: Cursor;
  client_id: string | null;
}

/** Names "project pushes" among advisory locks (the two-key form: apart from the migration lock's one key). */
const SYNC_LOCK_CLASS = 740_512_018;

/**
 * Serializes the pushes of one project until this transaction ends. Cursors come from one sequence,
 * but nextval is not transactional: without the lock, push A could take cursor 5, push B cursor 6,
 * B commit first, and a reader pulling then would see 6 and move past 5 before A commits, never to
 * see it. Holding the project's lock from before the first nextval until commit means a later push
 * takes its cursors only after the earlier one is visible, so cursors appear in commit order.
 */
export async function lockProject(tx: Queryable, projectId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SYNC_LOCK_CLASS, projectId]);
}

/** A row of this project, or whether another project holds the id (the batch's reads, batchRows.ts). */
export interface FoundRow extends StoredRow {
  mine: boolean;
  kind: SyncKind;
  row_id: string;
}

/**
 * These rows, in one query: this project's with their content, other projects' only as "the id is
 * taken" (ids browsers make name one row on the whole server).
 */
export async function findRows(tx: Queryable, projectId: string, keys: readonly (readonly [SyncKind, string])[]): Promise<FoundRow[]> {
  return tx.query<FoundRow>(
    `SELECT s.project_id = $1 AS mine, s.kind, s.row_id, CASE WHEN s.project_id = $1 THEN s.body END AS body, s.cursor::text AS cursor, s.client_id
     FROM sync_rows s JOIN unnest($2::text[], $3::text[]) AS k (kind, row_id) ON s.kind = k.kind AND s.row_id = k.row_id`,
    [projectId, keys.map(([kind]) => kind), keys.map(([, id]) => id)],
  );
}

/**
 * Takes the project's lock (lockProject), then `n` new cursors, ascending, in one round trip: every
 * one is above the project's rows. The lock is a materialized CTE every output row joins, so it is
 * held before the first nextval runs.
 */
export async function lockProjectTakingCursors(tx: Queryable, projectId: string, n: number): Promise<Cursor[]> {
  const rows = await tx.query<{ cursor: string }>(
    `WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock($1, hashtext($2)))
     SELECT nextval('sync_cursor')::text AS cursor FROM locked, generate_series(1, $3::int)`,
    [SYNC_LOCK_CLASS, projectId, n],
  );
  return rows.map((r) => r.cursor).sort(compareCursors);
}

/** `n` new cursors, ascending (for a batch that ran out of those it took with the lock). */
export async function takeCursors(tx: Queryable, n: number): Promise<Cursor[]> {
  const rows = await tx.query<{ cursor: string }>("SELECT nextval('sync_cursor')::text AS cursor FROM generate_series(1, $1::int)", [n]);
  return rows.map((r) => r.cursor).sort(compareCursors);
}

export interface RowWrite {
  kind: SyncKind;
  rowId: string;
  /** null for rows the server writes itself. */
  clientId: string | null;
  userId: string;
  body: JsonObject;
}

/** A row to store under a cursor taken beforehand, its body already JSON. */
export interface CursoredWrite extends Omit<RowWrite, 'body'> {
  cursor: Cursor;
  json: string;
}

/** A NOTIFY to send with a statement (delivered at commit). */
export interface Notice {
  channel: string;
  payload: string;
}

/**
 * Inserts or replaces these rows of one project, each under its own cursor, in one statement (one
 * round trip however many rows), with `notice` sent by the same statement. Each (kind, rowId) at
 * most once: PostgreSQL refuses to update one row twice in a statement.
 */
export async function writeRows(tx: Queryable, projectId: string, rows: readonly CursoredWrite[], notice: Notice | null = null): Promise<void> {
  // Arrays of text, cast in SQL: both drivers pass text[] the same way (a jsonb[] parameter PGlite would re-encode).
  // A data-modifying WITH runs to completion whatever the query after it reads.
  await tx.query(
    `WITH written AS (INSERT INTO sync_rows (project_id, kind, row_id, cursor, client_id, pushed_by, body)
     SELECT $1, w.kind, w.row_id, w.cursor::bigint, w.client_id::uuid, w.pushed_by::uuid, w.body::jsonb
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS w (kind, row_id, cursor, client_id, pushed_by, body)
     ON CONFLICT (project_id, kind, row_id) DO UPDATE
       SET cursor = EXCLUDED.cursor, client_id = EXCLUDED.client_id, pushed_by = EXCLUDED.pushed_by, body = EXCLUDED.body, pushed_at = now())
     SELECT pg_notify($8, $9) WHERE $8::text IS NOT NULL`,
    [
      projectId,
      rows.map((r) => r.kind),
      rows.map((r) => r.rowId),
      rows.map((r) => r.cursor),
      rows.map((r) => r.clientId),
      rows.map((r) => r.userId),
      rows.map((r) => r.json),
      notice?.channel ?? null,
      notice?.payload ?? null,
    ],
  );
}

/** The rows of one kind that belong to a clip, oldest cursor first. */
export async function clipRows(tx: Queryable, projectId: string, kind: SyncKind, clipId: string): Promise<StoredRow[]> {
  return tx.query<StoredRow>(
    "SELECT body, cursor::text AS cursor, client_id FROM sync_rows WHERE project_id = $1 AND kind = $2 AND body ->> 'clipId' = $3 ORDER BY cursor",
    [projectId, kind, clipId],
  );
}

/** Who painted a clip: the authors of its gt revisions (without reading their patches). */
export async function gtPainters(tx: Queryable, projectId: string, clipId: string): Promise<string[]> {
  const rows = await tx.query<{ author: string }>(
    "SELECT DISTINCT body ->> 'author' AS author FROM sync_rows WHERE project_id = $1 AND kind = 'revision' AND body ->> 'clipId' = $2 AND body ->> 'source' = 'gt'",
    [projectId, clipId],
  );
  return rows.map((r) => r.author);
}

/**
 * For each frame layer of these clips ("<clipId>/<source>/<frameIndex>") and each client that wrote
 * revisions of it (null: none named), the newest cursor: a revision whose base is at least the
 * newest of the other clients' saw them all, so only the others need `revisionsAfter`.
 */
export async function newestRevisionsByClient(tx: Queryable, projectId: string, clipIds: readonly string[]): Promise<{ layer: string; client_id: string | null; cursor: Cursor }[]> {
  return tx.query(
    `SELECT concat_ws('/', body ->> 'clipId', body ->> 'source', (body ->> 'frameIndex')::int) AS layer, client_id::text AS client_id, max(cursor)::text AS cursor
     FROM sync_rows WHERE project_id = $1 AND kind = 'revision' AND body ->> 'clipId' = ANY($2::text[])
     GROUP BY 1, 2`,
    [projectId, clipIds],
  );
}

/** Revisions of one frame's layer stored after `base` by other clients than `clientId`. */
export async function revisionsAfter(
  tx: Queryable,
  q: { projectId: string; clipId: string; source: string; frameIndex: number; base: Cursor; clientId: string },
): Promise<{ row_id: string; author: string }[]> {
  return tx.query(
    `SELECT row_id, body ->> 'author' AS author FROM sync_rows
     WHERE project_id = $1 AND kind = 'revision' AND body ->> 'clipId' = $2 AND body ->> 'source' = $3
       AND (body ->> 'frameIndex')::int = $4 AND cursor > $5::bigint AND client_id IS DISTINCT FROM $6::uuid
     ORDER BY cursor`,
    [q.projectId, q.clipId, q.source, q.frameIndex, q.base, q.clientId],
  );
}

/** The project's latest cursor ("0" before its first row). */
export async function projectCursor(db: Queryable, projectId: string): Promise<Cursor> {
  const [row] = await db.query<{ cursor: string }>('SELECT coalesce(max(cursor), 0)::text AS cursor FROM sync_rows WHERE project_id = $1', [projectId]);
  return row.cursor;
}

/** The newest cursor handed out in any project: a client's cursor above it was never ours. */
export async function lastIssuedCursor(db: Queryable): Promise<Cursor> {
  const [row] = await db.query<{ cursor: string }>('SELECT (CASE WHEN is_called THEN last_value ELSE 0 END)::text AS cursor FROM sync_cursor');
  return row.cursor;
}

/** Rows changed after `after`, ascending, at most `limit` (and whether more wait). */
export async function pullPage(db: Db, projectId: string, after: Cursor, limit: number): Promise<{ changes: PulledChange[]; more: boolean }> {
  const rows = await db.query<{ kind: SyncKind; row_id: string; cursor: string; username: string; body: JsonObject }>(
    `SELECT s.kind, s.row_id, s.cursor::text AS cursor, u.username, s.body FROM sync_rows s JOIN users u ON u.id = s.pushed_by
     WHERE s.project_id = $1 AND s.cursor > $2::bigint ORDER BY s.cursor LIMIT $3`,
    [projectId, after, limit + 1],
  );
  const more = rows.length > limit;
  return { changes: rows.slice(0, limit).map((r) => ({ kind: r.kind, id: r.row_id, cursor: r.cursor, by: r.username, row: r.body })), more };
}
