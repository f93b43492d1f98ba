/**
 * Administrator commands, run on the server machine (they open the database directly):
 *   spoc-studio user add NAME [--password-stdin]
 *   spoc-studio user reset-password NAME [--password-stdin]
 *   spoc-studio user disable NAME | user enable NAME
 *   spoc-studio token create NAME
 * Without --password-stdin a random password is made and printed once; a new password also signs
 * the user out everywhere. Disabling locks an account out (its sessions and tokens are deleted) and
 * keeps everything it wrote; enabling lets it sign in again with its password.
 */
import { randomBytes } from 'node:crypto';
import { AccountError, createAccount, createApiToken, disableAccount, enableAccount, resetPassword } from '../../server/auth/accounts';
import type { Db } from '../../server/db/db';
import { flag, parseCommandArgs, stringOption } from '../args';
import { TOKEN_HELP, USER_HELP } from '../help';
import { DataError, EXIT, UsageError, type CliIo } from '../io';
import { dbChoice, openMigratedDb } from '../serverDb';

async function readPassword(io: CliIo): Promise<string> {
  let text = '';
  for await (const chunk of io.stdin ?? process.stdin) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  // `echo pass | …` and files end with a newline that is not part of the password.
  return text.replace(/\r?\n$/, '');
}

async function withDb<T>(io: CliIo, dataDir: string | undefined, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openMigratedDb(dbChoice(io, dataDir));
  try {
    return await fn(db);
  } catch (err) {
    if (err instanceof AccountError) throw new DataError(err.message);
    throw err;
  } finally {
    await db.close();
  }
}

const accountOptions = { data: { type: 'string' }, 'password-stdin': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export async function userCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs('user', argv, accountOptions, true);
  if (flag(parsed, 'help')) {
    io.stdout.write(USER_HELP);
    return EXIT.ok;
  }
  const [action, name, ...extra] = parsed.positionals;
  if (action !== 'add' && action !== 'reset-password' && action !== 'disable' && action !== 'enable') {
    throw new UsageError(`expected "add", "reset-password", "disable" or "enable" after "user"${action ? `; got "${action}"` : ''}`, 'user');
  }
  if (!name) throw new UsageError(`a username is required: spoc-studio user ${action} NAME`, 'user');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`, 'user');
  if (action === 'disable' || action === 'enable') {
    if (flag(parsed, 'password-stdin')) throw new UsageError(`--password-stdin is for "add" and "reset-password", not "${action}"`, 'user');
    return switchAccount(io, stringOption(parsed, 'data'), action, name);
  }

  const fromStdin = flag(parsed, 'password-stdin');
  const password = fromStdin ? await readPassword(io) : randomBytes(15).toString('base64url');
  await withDb(io, stringOption(parsed, 'data'), async (db) => {
    if (action === 'add') await createAccount(db, name, password);
    else await resetPassword(db, name, password);
  });
  io.stdout.write(action === 'add' ? `created user ${name}\n` : `new password set for ${name}; their sessions are signed out\n`);
  if (!fromStdin) io.stdout.write(`password: ${password}\n(shown once; pass it on privately)\n`);
  return EXIT.ok;
}

async function switchAccount(io: CliIo, dataDir: string | undefined, action: 'disable' | 'enable', name: string): Promise<number> {
  if (action === 'enable') {
    await withDb(io, dataDir, (db) => enableAccount(db, name));
    io.stdout.write(`enabled ${name}: they can sign in again with their password (old sessions and tokens stay revoked)\n`);
    return EXIT.ok;
  }
  const { sessions, tokens } = await withDb(io, dataDir, (db) => disableAccount(db, name));
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  io.stdout.write(`disabled ${name}: signed out of ${plural(sessions, 'session')}, ${plural(tokens, 'token')} revoked; everything they wrote stays\n`);
  return EXIT.ok;
}

export async function tokenCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs('token', argv, { data: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, true);
  if (flag(parsed, 'help')) {
    io.stdout.write(TOKEN_HELP);
    return EXIT.ok;
  }
  const [action, name, ...extra] = parsed.positionals;
  if (action !== 'create') throw new UsageError(`expected "create" after "token"${action ? `; got "${action}"` : ''}`, 'token');
  if (!name) throw new UsageError('a username is required: spoc-studio token create NAME', 'token');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`, 'token');
  const token = await withDb(io, stringOption(parsed, 'data'), (db) => createApiToken(db, name));
  io.stdout.write(`${token}\n`);
  io.stderr.write(`a bearer token for ${name}, shown once: send it as "Authorization: Bearer <token>"\n`);
  return EXIT.ok;
}
