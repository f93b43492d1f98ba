/**
 * The sync protocol between a browser's store and the team server: the wire shapes both sides
 * speak, and nothing else (no I/O). docs/sync.md "The protocol" explains every rule; the server
 * (`server/sync/`) and the browser client (`src/sync/`) both import these types, so a change to
 * the wire is a change here first.
 *
 * In one paragraph: a project on the server is a set of rows, each named by (kind, id). A browser
 * pushes the rows it wrote (idempotently: a row already there with the same content is a no-op)
 * and pulls every row changed after a server-assigned cursor. Log rows (revisions, lifecycle
 * steps, verdicts) are append-only; the other rows are replaced whole, last push wins, and the
 * server owns some of their fields (a clip's status follows its accepted lifecycle steps). A
 * frame's mask is the replay of its revisions in cursor order (`masks/replayRevisions`), so two
 * people's strokes on one frame both survive; the server flags such a frame.
 */

export const SYNC_PROTOCOL_VERSION = 1;

/**
 * The kinds of rows that sync. Layers, thumbnails, import markers, the crash journal and gesture
 * drafts never do: layers are derived (the replay of revisions), the rest is local state.
 */
export const SYNC_KINDS = ['project', 'clip', 'frame', 'revision', 'clipEvent', 'frameVerdict', 'comment', 'flagDismissal', 'concurrentEdit'] as const;
export type SyncKind = (typeof SYNC_KINDS)[number];

/** Append-only kinds: a pushed row is never replaced; pushing the same id with other content is refused (409). */
export const LOG_KINDS: readonly SyncKind[] = ['revision', 'clipEvent', 'frameVerdict'];
/** Rows the server writes itself; a client pushing one is refused (403). */
export const SERVER_KINDS: readonly SyncKind[] = ['concurrentEdit'];

export const isSyncKind = (v: unknown): v is SyncKind => typeof v === 'string' && (SYNC_KINDS as readonly string[]).includes(v);

/**
 * A row's id on the wire. Rows whose store key is composite get a composed id (`syncRowId`), so
 * every row is named by (kind, id) alone. Ids are at most 200 characters of [0-9A-Za-z._:/-].
 * - project, clip, comment: the row's `id` (a UUID);
 * - revision, clipEvent, frameVerdict: the row's `id` (a UUID v7);
 * - frame: `<clipId>/<index>`;
 * - flagDismissal: `<clipId>/<source>/<flagId>`;
 * - concurrentEdit: `<clipId>/<source>/<frameIndex>`.
 */
export const SYNC_ID_PATTERN = /^[0-9A-Za-z._:/-]{1,200}$/;

export function frameRowId(clipId: string, index: number): string {
  return `${clipId}/${index}`;
}
export function flagDismissalRowId(clipId: string, source: string, flagId: string): string {
  return `${clipId}/${source}/${flagId}`;
}
export function concurrentEditRowId(clipId: string, source: string, frameIndex: number): string {
  return `${clipId}/${source}/${frameIndex}`;
}

/**
 * Server cursors are decimal strings of a PostgreSQL bigint (a sequence): strictly increasing in
 * commit order within a project, never reused. "0" is before everything. Clients compare them with
 * `compareCursors`, never as JavaScript numbers.
 */
export type Cursor = string;
export const CURSOR_START: Cursor = '0';
export const CURSOR_PATTERN = /^(0|[1-9][0-9]{0,18})$/;
export function compareCursors(a: Cursor, b: Cursor): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

/** One row as pushed. `row` is the store row as the browser holds it, minus its local `seq`. */
export interface PushChange {
  kind: SyncKind;
  id: string;
  row: Record<string, unknown>;
  /**
   * Revisions only: the largest cursor among the revisions of the same clip, source and frame that
   * this browser had stored when it wrote this one (its local `seq` order tells), or "0". The server
   * flags the frame as a concurrent edit when another client's revision of it has a larger cursor.
   */
  base?: Cursor;
}

/** POST /api/projects/:projectId/sync/push */
export interface PushRequest {
  protocol: typeof SYNC_PROTOCOL_VERSION;
  /** A random UUID per browser profile (store meta), so a client's own rows are never "concurrent" with each other. */
  clientId: string;
  /**
   * true when a manager uploads a local project's existing history ("Share to server…"): rows may
   * then carry the authors they were written by (recorded in the audit log as uploaded by the
   * signed-in manager). Otherwise every `author` / `by` must be the signed-in user's name.
   */
  upload?: boolean;
  changes: PushChange[];
}

export const MAX_PUSH_CHANGES = 500;
/**
 * The largest push body the server reads (bytes of JSON); a larger one is refused whole (413)
 * before it is read. A client splits its outbox by size as well as by count (revisions of large
 * frames carry large patches).
 */
export const MAX_PUSH_BYTES = 8 * 1024 * 1024;

export type PushOutcome =
  /** Stored now, or already there with the same content (a resent batch): `cursor` is the row's. */
  | { kind: SyncKind; id: string; status: 'accepted'; cursor: Cursor; duplicate?: true }
  /** Not stored: why, as an HTTP-like status (400 invalid, 403 not allowed, 409 conflicts with the server's state). */
  | { kind: SyncKind; id: string; status: 'refused'; code: 400 | 403 | 409; error: string };

export interface PushResponse {
  /** One outcome per change, in request order. Rows are judged one by one, in order, in one transaction. */
  outcomes: PushOutcome[];
  /** The project's latest cursor after this push. */
  cursor: Cursor;
}

/** A row as pulled: the server's copy (server-owned fields filled in), its cursor and who pushed it. */
export interface PulledChange {
  kind: SyncKind;
  id: string;
  cursor: Cursor;
  /** The user name of whoever pushed the row (the server's, never the client's say). */
  by: string;
  row: Record<string, unknown>;
}

/** GET /api/projects/:projectId/sync/pull?after=<cursor>&limit=<n> (limit 1..1000, default 500) */
export interface PullResponse {
  /** Rows with a cursor above `after`, ascending; a row changed twice appears once, at its latest cursor. */
  changes: PulledChange[];
  /** The cursor to ask from next time (the last change's, or `after` when there were none). */
  cursor: Cursor;
  /** More changes wait beyond this page. */
  more: boolean;
}

/**
 * GET /api/projects/:projectId/sync/live (WebSocket). Whenever the project gains rows (fanned out
 * across server processes through PostgreSQL LISTEN/NOTIFY) the server sends them: `rows` holds every
 * row changed after `after` up to `cursor`, exactly what a pull from `after` would answer, so a client
 * whose cursor lies in [after, cursor) applies it instead of pulling (docs/sync.md "Live rows"). When
 * the rows are too many to send, or could not be read, it sends `changed` and the client pulls; so does
 * a client that finds a gap (its cursor below `after`). `hello` is the project's cursor when the socket
 * opens. Presence tells who has which clip open.
 */
export type LiveServerMessage =
  | { type: 'hello'; cursor: Cursor }
  | { type: 'changed'; cursor: Cursor }
  | { type: 'rows'; after: Cursor; cursor: Cursor; changes: PulledChange[] }
  | { type: 'presence'; clips: Record<string, string[]> };

/** Largest `rows` message the server sends (its JSON, in UTF-16 code units); larger news goes as `changed`. */
export const LIVE_ROWS_MAX_CHARS = 256 * 1024;
export type LiveClientMessage = { type: 'open'; clipId: string | null };

/**
 * A frame row on the wire: the store's Frame plus the image it shows, by content. The blob itself
 * travels separately (below) and is fetched lazily by a browser that opens the clip.
 */
export interface FrameImageRef {
  sha256: string;
  mime: string;
  width: number;
  height: number;
  size: number;
}

/** Frame images: PUT/GET /api/projects/:projectId/blobs/:sha256 (raw bytes; the id must be the bytes' SHA-256). */
export const BLOB_ID_PATTERN = /^[0-9a-f]{64}$/;
export const MAX_BLOB_BYTES = 32 * 1024 * 1024;
