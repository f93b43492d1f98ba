-- Replication (docs/sync.md "The protocol"): every synced row of a project, named by (kind, row_id),
-- with the cursor of its latest change. Cursors come from one sequence; pushes to a project hold a
-- transaction-level advisory lock on it, so within a project cursors are assigned in commit order.
CREATE SEQUENCE sync_cursor;

CREATE TABLE sync_rows (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('project', 'clip', 'frame', 'revision', 'clipEvent', 'frameVerdict', 'comment', 'flagDismissal', 'concurrentEdit')),
  row_id text NOT NULL,
  cursor bigint NOT NULL,
  -- The browser profile that pushed it; null for rows the server writes itself (concurrentEdit).
  client_id uuid,
  pushed_by uuid NOT NULL REFERENCES users (id),
  body jsonb NOT NULL,
  pushed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, kind, row_id)
);
CREATE INDEX sync_rows_cursor ON sync_rows (project_id, cursor);
-- The review rules read a clip's rows of one kind (its gt painters, its verdicts, its frames).
CREATE INDEX sync_rows_clip ON sync_rows (project_id, kind, (body ->> 'clipId'));
-- A pushed revision looks for revisions of its frame from other clients after its base (concurrent edits).
CREATE INDEX sync_rows_revision_frame ON sync_rows (project_id, (body ->> 'clipId'), (body ->> 'source'), ((body ->> 'frameIndex')::int), cursor)
  WHERE kind = 'revision';
-- Ids made by browsers (UUIDs) name one row everywhere: a second project may not reuse one.
CREATE INDEX sync_rows_row ON sync_rows (kind, row_id);

-- Frame images by content (server/sync/blobStore.ts), and which projects may read each one.
CREATE TABLE blobs (
  sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size integer NOT NULL CHECK (size >= 0),
  mime text NOT NULL,
  data bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE project_blobs (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  sha256 text NOT NULL REFERENCES blobs (sha256),
  added_by uuid NOT NULL REFERENCES users (id),
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, sha256)
);
