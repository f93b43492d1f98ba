/** SQL over sync_rows (migrations/006_sync.sql). Who may write what is decided before these run (judge.ts). */
import type { Db, Queryable } from '../db/db';
import type { JsonObject } from '../../src/store/records';
import type { Cursor, PulledChange, SyncKind } from '../../src/sync/protocol';

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

export async function getRow(tx: Queryable, projectId: string, kind: SyncKind, rowId: string): Promise<StoredRow | null> {
  const rows = await tx.query<StoredRow>('SELECT body, cursor::text AS cursor, client_id FROM sync_rows WHERE project_id = $1 AND kind = $2 AND row_id = $3', [
    projectId,
    kind,
    rowId,
  ]);
  return rows[0] ?? null;
}

/** Does another project hold a row of this kind under this id? */
export async function idInOtherProject(tx: Queryable, projectId: string, kind: SyncKind, rowId: string): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM sync_rows WHERE kind = $1 AND row_id = $2 AND project_id <> $3 LIMIT 1', [kind, rowId, projectId]);
  return rows.length > 0;
}

export interface RowWrite {
  projectId: string;
  kind: SyncKind;
  rowId: string;
  /** null for rows the server writes itself. */
  clientId: string | null;
  userId: string;
  body: JsonObject;
}

/** Inserts or replaces the row under a new cursor; returns the cursor. */
export async function writeRow(tx: Queryable, w: RowWrite): Promise<Cursor> {
  const [row] = await tx.query<{ cursor: string }>(
    `INSERT INTO sync_rows (project_id, kind, row_id, cursor, client_id, pushed_by, body)
     VALUES ($1, $2, $3, nextval('sync_cursor'), $4, $5, $6)
     ON CONFLICT (project_id, kind, row_id) DO UPDATE
       SET cursor = EXCLUDED.cursor, client_id = EXCLUDED.client_id, pushed_by = EXCLUDED.pushed_by, body = EXCLUDED.body, pushed_at = now()
     RETURNING cursor::text AS cursor`,
    [w.projectId, w.kind, w.rowId, w.clientId, w.userId, JSON.stringify(w.body)],
  );
  return row.cursor;
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
 * For each frame layer of these clips, the newest cursor among revisions of other clients than
 * `clientId`, keyed "<clipId>/<source>/<frameIndex>": a revision whose base is at least that saw
 * them all, so only the others need `revisionsAfter`.
 */
export async function newestOtherRevisions(tx: Queryable, projectId: string, clipIds: readonly string[], clientId: string): Promise<Map<string, Cursor>> {
  const rows = await tx.query<{ clip_id: string; source: string; frame_index: number; cursor: string }>(
    `SELECT body ->> 'clipId' AS clip_id, body ->> 'source' AS source, (body ->> 'frameIndex')::int AS frame_index, max(cursor)::text AS cursor
     FROM sync_rows WHERE project_id = $1 AND kind = 'revision' AND body ->> 'clipId' = ANY($2::text[]) AND client_id IS DISTINCT FROM $3::uuid
     GROUP BY 1, 2, 3`,
    [projectId, clipIds, clientId],
  );
  return new Map(rows.map((r) => [`${r.clip_id}/${r.source}/${r.frame_index}`, r.cursor]));
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
