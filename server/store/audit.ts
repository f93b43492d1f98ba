/** The audit log: one row per change, written in the same transaction as the change itself. */
import type { Queryable } from '../db/db';

export interface AuditEntry {
  /** The signed-in user; null for administrator commands run on the server machine. */
  userId: string | null;
  action: string;
  projectId?: string | null;
  details?: Record<string, unknown>;
}

export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query('INSERT INTO audit_log (user_id, action, project_id, details) VALUES ($1, $2, $3, $4)', [
    entry.userId,
    entry.action,
    entry.projectId ?? null,
    JSON.stringify(entry.details ?? {}),
  ]);
}

export interface AuditRow {
  at: Date;
  username: string | null;
  action: string;
  details: Record<string, unknown>;
}

export async function projectAudit(db: Queryable, projectId: string, limit: number): Promise<AuditRow[]> {
  return db.query<AuditRow>(
    `SELECT a.at, u.username, a.action, a.details FROM audit_log a LEFT JOIN users u ON u.id = a.user_id
     WHERE a.project_id = $1 ORDER BY a.id DESC LIMIT $2`,
    [projectId, limit],
  );
}
