/** Projects, their members and invites. Permission checks are the caller's (server/auth/permissions.ts). */
import type { Queryable } from '../db/db';
import type { Membership, Role } from '../auth/permissions';

export interface ProjectSummary {
  id: string;
  name: string;
  role: Role;
  created_at: Date;
}

/** The new project's id; null when `id` (chosen by the client) is taken. */
export async function insertProject(db: Queryable, name: string, creatorId: string, id?: string): Promise<string | null> {
  const rows = await db.query<{ id: string }>(
    'INSERT INTO projects (id, name, created_by) VALUES (coalesce($3::uuid, gen_random_uuid()), $1, $2) ON CONFLICT (id) DO NOTHING RETURNING id',
    [name, creatorId, id ?? null],
  );
  return rows[0]?.id ?? null;
}

export async function projectsOf(db: Queryable, userId: string): Promise<ProjectSummary[]> {
  return db.query<ProjectSummary>(
    `SELECT p.id, p.name, m.role, p.created_at FROM projects p JOIN project_members m ON m.project_id = p.id
     WHERE m.user_id = $1 ORDER BY p.created_at, p.id`,
    [userId],
  );
}

export async function roleIn(db: Queryable, projectId: string, userId: string): Promise<Membership> {
  const rows = await db.query<{ role: Role }>('SELECT role FROM project_members WHERE project_id = $1 AND user_id = $2', [projectId, userId]);
  return rows[0]?.role ?? null;
}

export interface MemberRow {
  user_id: string;
  username: string;
  role: Role;
}

export async function membersOf(db: Queryable, projectId: string): Promise<MemberRow[]> {
  return db.query<MemberRow>(
    `SELECT m.user_id, u.username, m.role FROM project_members m JOIN users u ON u.id = m.user_id
     WHERE m.project_id = $1 ORDER BY u.username`,
    [projectId],
  );
}

export async function insertMember(db: Queryable, projectId: string, userId: string, role: Role): Promise<boolean> {
  const rows = await db.query('INSERT INTO project_members (project_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1 AS ok', [
    projectId,
    userId,
    role,
  ]);
  return rows.length === 1;
}

export async function updateMemberRole(db: Queryable, projectId: string, userId: string, role: Role): Promise<void> {
  await db.query('UPDATE project_members SET role = $3 WHERE project_id = $1 AND user_id = $2', [projectId, userId, role]);
}

export async function deleteMember(db: Queryable, projectId: string, userId: string): Promise<void> {
  await db.query('DELETE FROM project_members WHERE project_id = $1 AND user_id = $2', [projectId, userId]);
}

/**
 * Locks the project's member rows for the rest of the transaction and counts the managers, so two
 * managers demoting each other at once cannot leave the project with none.
 */
export async function lockManagerCount(db: Queryable, projectId: string): Promise<number> {
  const rows = await db.query<{ role: Role }>('SELECT role FROM project_members WHERE project_id = $1 FOR UPDATE', [projectId]);
  return rows.filter((r) => r.role === 'manager').length;
}

export interface InviteRow {
  id: string;
  project_id: string;
  role: Role;
  expires_at: Date;
  used_by: string | null;
}

export async function insertInvite(db: Queryable, tokenHash: string, projectId: string, role: Role, createdBy: string, expiresAt: Date): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    'INSERT INTO invites (token_hash, project_id, role, created_by, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [tokenHash, projectId, role, createdBy, expiresAt],
  );
  return row.id;
}

/** The invite, locked until the transaction ends (so it is accepted at most once). */
export async function lockInvite(db: Queryable, tokenHash: string): Promise<(InviteRow & { expired: boolean }) | null> {
  const rows = await db.query<InviteRow & { expired: boolean }>(
    'SELECT id, project_id, role, expires_at, used_by, expires_at <= now() AS expired FROM invites WHERE token_hash = $1 FOR UPDATE',
    [tokenHash],
  );
  return rows[0] ?? null;
}

export async function markInviteUsed(db: Queryable, inviteId: string, userId: string): Promise<void> {
  await db.query('UPDATE invites SET used_by = $2, used_at = now() WHERE id = $1', [inviteId, userId]);
}
