/** Users table access. Usernames match without regard to case (see migrations/001_users.sql). */
import type { Queryable } from '../db/db';

export interface UserRow {
  id: string;
  username: string;
  password_hash: string;
  disabled: boolean;
}

export async function findUserByName(db: Queryable, username: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow>('SELECT id, username, password_hash, disabled FROM users WHERE lower(username) = lower($1)', [username]);
  return rows[0] ?? null;
}

/** null when the name is taken. */
export async function insertUser(db: Queryable, username: string, passwordHash: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow>(
    `INSERT INTO users (username, password_hash) VALUES ($1, $2)
     ON CONFLICT ((lower(username))) DO NOTHING
     RETURNING id, username, password_hash, disabled`,
    [username, passwordHash],
  );
  return rows[0] ?? null;
}

export async function setPasswordHash(db: Queryable, userId: string, passwordHash: string): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
}

/** Locks an account out (or lets it in again); its rows stay, authored by it. */
export async function setDisabled(db: Queryable, userId: string, disabled: boolean): Promise<void> {
  await db.query('UPDATE users SET disabled = $2 WHERE id = $1', [userId, disabled]);
}
