/**
 * Account operations shared by the administrator commands (spoc-studio user …, token create) and the
 * HTTP routes: validation, hashing and the audit row in one transaction.
 */
import type { Db } from '../db/db';
import { recordAudit } from '../store/audit';
import { deleteUserApiTokens, deleteUserSessions, insertApiToken } from '../store/sessions';
import { findUserByName, insertUser, setDisabled, setPasswordHash, type UserRow } from '../store/users';
import { DEFAULT_SCRYPT, hashPassword, type ScryptParams } from './passwords';
import { API_TOKEN_PREFIX, hashSecret, newSecret } from './tokens';
import { checkPassword, checkUsername } from './validation';

/** A request the caller must fix (bad name, taken name, unknown user): its message is for the user. */
export class AccountError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 = 400,
  ) {
    super(message);
    this.name = 'AccountError';
  }
}

function valid<T>(checked: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!checked.ok) throw new AccountError(checked.message);
  return checked.value;
}

export async function createAccount(db: Db, username: string, password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<UserRow> {
  const name = valid(checkUsername(username));
  const hash = await hashPassword(valid(checkPassword(password)), params);
  return db.transaction(async (tx) => {
    const user = await insertUser(tx, name, hash);
    if (!user) throw new AccountError(`the username "${name}" is taken`, 409);
    await recordAudit(tx, { userId: null, action: 'user.create', details: { username: name } });
    return user;
  });
}

async function existingUser(db: Db, username: string): Promise<UserRow> {
  const user = await findUserByName(db, valid(checkUsername(username)));
  if (!user) throw new AccountError(`there is no user "${username}"`, 404);
  return user;
}

/** Sets a new password and signs the user out of every browser. */
export async function resetPassword(db: Db, username: string, password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<void> {
  const user = await existingUser(db, username);
  const hash = await hashPassword(valid(checkPassword(password)), params);
  await db.transaction(async (tx) => {
    await setPasswordHash(tx, user.id, hash);
    await deleteUserSessions(tx, user.id);
    await recordAudit(tx, { userId: null, action: 'user.reset-password', details: { username: user.username } });
  });
}

/**
 * Locks an account out without deleting anything it wrote: sign-in is refused, and its sessions and
 * CLI tokens are deleted in the same transaction, so every request made with them is 401 at once
 * (and enabling the account later brings none of them back). Disabling twice changes nothing more.
 */
export async function disableAccount(db: Db, username: string): Promise<{ sessions: number; tokens: number }> {
  const user = await existingUser(db, username);
  return db.transaction(async (tx) => {
    await setDisabled(tx, user.id, true);
    const sessions = await deleteUserSessions(tx, user.id);
    const tokens = await deleteUserApiTokens(tx, user.id);
    await recordAudit(tx, { userId: null, action: 'user.disable', details: { username: user.username, userId: user.id, sessions, tokens } });
    return { sessions, tokens };
  });
}

/** Lets a disabled account sign in again (with its password; old sessions and tokens stay gone). */
export async function enableAccount(db: Db, username: string): Promise<void> {
  const user = await existingUser(db, username);
  await db.transaction(async (tx) => {
    await setDisabled(tx, user.id, false);
    await recordAudit(tx, { userId: null, action: 'user.enable', details: { username: user.username, userId: user.id } });
  });
}

/** A new bearer token for the CLI; only its hash is kept, so this is the one time it is seen. */
export async function createApiToken(db: Db, username: string): Promise<string> {
  const user = await existingUser(db, username);
  if (user.disabled) throw new AccountError(`the account "${user.username}" is disabled; enable it first (spoc-studio user enable ${user.username})`, 409);
  const token = newSecret(API_TOKEN_PREFIX);
  await db.transaction(async (tx) => {
    await insertApiToken(tx, hashSecret(token), user.id);
    await recordAudit(tx, { userId: null, action: 'token.create', details: { username: user.username } });
  });
  return token;
}
