-- Blob garbage collection (spoc-studio blobs gc, server/sync/blobGc.ts). put_at: when the bytes, or
-- a project's reference to them, were last uploaded; every upload moves it, so an image uploaded
-- just before the push that names it is never collected (the grace period counts from here). Rows
-- that exist already start their grace period now.
ALTER TABLE blobs ADD COLUMN put_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE project_blobs ADD COLUMN put_at timestamptz NOT NULL DEFAULT now();
-- "Does any project still reference this blob?"
CREATE INDEX project_blobs_sha256 ON project_blobs (sha256);
-- "Does any frame of this project still show this image?"
CREATE INDEX sync_rows_frame_image ON sync_rows (project_id, (body -> 'image' ->> 'sha256')) WHERE kind = 'frame';
