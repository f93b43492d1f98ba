/** Sessions (browser cookies) and API tokens (CLI), both found by the SHA-256 of their secret. */
import type { Queryable } from '../db/db';

/** The user behind a session or token, as every authenticated request sees it. */
export interface SignedInUser {
  id: string;
  username: string;
}

export interface SessionRow extends SignedInUser {
  csrf_token: string;
  expires_at: Date;
}

export async function insertSession(db: Queryable, tokenHash: string, userId: string, expiresAt: Date, csrfToken: string): Promise<void> {
  await db.query('INSERT INTO sessions (token_hash, user_id, expires_at, csrf_token) VALUES ($1, $2, $3, $4)', [tokenHash, userId, expiresAt, csrfToken]);
}

/** A live session of an enabled user (expired sessions and disabled users find nothing). */
export async function findSession(db: Queryable, tokenHash: string): Promise<SessionRow | null> {
  const rows = await db.query<SessionRow>(
    `SELECT u.id, u.username, s.csrf_token, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.expires_at > now() AND NOT u.disabled`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

export async function extendSession(db: Queryable, tokenHash: string, expiresAt: Date): Promise<void> {
  await db.query('UPDATE sessions SET expires_at = $2 WHERE token_hash = $1', [tokenHash, expiresAt]);
}

export async function deleteSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
}

/** Signs a user out everywhere (after a password reset, or when the account is disabled); how many sessions there were. */
export async function deleteUserSessions(db: Queryable, userId: string): Promise<number> {
  return (await db.query('DELETE FROM sessions WHERE user_id = $1 RETURNING 1 AS gone', [userId])).length;
}

/** Revokes every CLI token of a user (a disabled account); how many there were. */
export async function deleteUserApiTokens(db: Queryable, userId: string): Promise<number> {
  return (await db.query('DELETE FROM api_tokens WHERE user_id = $1 RETURNING 1 AS gone', [userId])).length;
}

/** Expired rows are dead weight; swept at sign-in so the table does not grow forever. */
export async function deleteExpiredSessions(db: Queryable): Promise<void> {
  await db.query('DELETE FROM sessions WHERE expires_at <= now()');
}

export async function insertApiToken(db: Queryable, tokenHash: string, userId: string): Promise<void> {
  await db.query('INSERT INTO api_tokens (token_hash, user_id) VALUES ($1, $2)', [tokenHash, userId]);
}

export async function findApiTokenUser(db: Queryable, tokenHash: string): Promise<SignedInUser | null> {
  const rows = await db.query<SignedInUser>(
    `UPDATE api_tokens t SET last_used_at = now() FROM users u
     WHERE t.token_hash = $1 AND u.id = t.user_id AND NOT u.disabled
     RETURNING u.id, u.username`,
    [tokenHash],
  );
  return rows[0] ?? null;
}
