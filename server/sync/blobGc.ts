/**
 * Garbage collection of frame images (spoc-studio blobs gc; docs/server.md "Blobs"). Two kinds of
 * garbage, both only once older than a grace period counted from their last upload (put_at,
 * migration 007), so an image uploaded just before the push that names it is never taken:
 *
 * 1. a project's reference to an image that no frame row of the project shows any more (a frame's
 *    image was replaced; an upload whose frame row was refused or never came);
 * 2. a blob that no project references (after 1, or a deleted project's references, which go with
 *    it: ON DELETE CASCADE).
 *
 * Clips in the trash keep their frame rows (docs/sync.md "Deletions"), so their images stay.
 *
 * One transaction. Each project's references are dropped under that project's push lock
 * (syncStore.ts lockProject), so no push names an image between the check and the delete; a frame
 * that changes its image must name one its project holds (judge.ts newImageHeld), so a browser
 * cannot point a frame back at a dropped image later. An upload racing the sweep moves put_at first
 * (PostgreSQL re-checks a row updated under a DELETE) or stores the bytes again after it.
 */
import type { Db, Queryable } from '../db/db';
import { lockProject } from './syncStore';

export interface BlobGcReport {
  /** Project references dropped (images no frame of their project shows). */
  references: number;
  /** Blobs deleted, and their bytes. */
  blobs: number;
  bytes: number;
  /** Nothing was deleted: what would have been. */
  dryRun: boolean;
}

export interface BlobGcOptions {
  /** Only garbage last uploaded longer ago than this is collected. */
  graceMs: number;
  dryRun?: boolean;
}

/** One day: longer than any push round that uploads an image and then names it. */
export const DEFAULT_BLOB_GRACE_MS = 24 * 3600_000;

class DryRun extends Error {
  constructor(readonly report: BlobGcReport) {
    super('dry run');
  }
}

/** A reference `r` past the cutoff (the parameter named) that no frame of its project shows. */
const unshown = (cutoff: string) => `r.put_at < ${cutoff} AND NOT EXISTS (
  SELECT 1 FROM sync_rows s WHERE s.project_id = r.project_id AND s.kind = 'frame' AND s.body -> 'image' ->> 'sha256' = r.sha256)`;

export async function collectBlobGarbage(db: Db, options: BlobGcOptions): Promise<BlobGcReport> {
  if (!(options.graceMs >= 0)) throw new Error('the grace period must be a duration of 0 or more');
  const cutoff = new Date(Date.now() - options.graceMs);
  try {
    return await db.transaction(async (tx) => {
      const report: BlobGcReport = { references: 0, blobs: 0, bytes: 0, dryRun: options.dryRun === true };
      report.references = await dropUnshownReferences(tx, cutoff);
      const [gone] = await tx.query<{ n: number; bytes: string }>(
        `WITH gone AS (
           DELETE FROM blobs b WHERE b.put_at < $1 AND NOT EXISTS (SELECT 1 FROM project_blobs r WHERE r.sha256 = b.sha256) RETURNING size)
         SELECT count(*)::int AS n, coalesce(sum(size), 0)::text AS bytes FROM gone`,
        [cutoff],
      );
      report.blobs = gone.n;
      report.bytes = Number(gone.bytes);
      // A dry run does it all, then rolls back: the report is exactly what a real run would do now.
      if (report.dryRun) throw new DryRun(report);
      return report;
    });
  } catch (err) {
    if (err instanceof DryRun) return err.report;
    throw err;
  }
}

async function dropUnshownReferences(tx: Queryable, cutoff: Date): Promise<number> {
  const projects = await tx.query<{ project_id: string }>(`SELECT DISTINCT r.project_id FROM project_blobs r WHERE ${unshown('$1')} ORDER BY 1`, [cutoff]);
  let dropped = 0;
  for (const { project_id } of projects) {
    // In id order, one at a time: a push holds one project's lock, so nobody waits in a circle.
    await lockProject(tx, project_id);
    dropped += (await tx.query(`DELETE FROM project_blobs r WHERE r.project_id = $1 AND ${unshown('$2')} RETURNING 1 AS gone`, [project_id, cutoff])).length;
  }
  return dropped;
}
