/** Which projects reference which blobs: a blob is read only through a project that holds it. */
import type { Queryable } from '../db/db';

export async function addBlobRef(db: Queryable, projectId: string, sha256: string, userId: string): Promise<void> {
  // A reference uploaded again keeps its first uploader and restarts its grace period (blobGc.ts).
  await db.query('INSERT INTO project_blobs (project_id, sha256, added_by) VALUES ($1, $2, $3) ON CONFLICT (project_id, sha256) DO UPDATE SET put_at = now()', [projectId, sha256, userId]);
}

export async function projectHasBlob(db: Queryable, projectId: string, sha256: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM project_blobs WHERE project_id = $1 AND sha256 = $2', [projectId, sha256])).length > 0;
}
