/**
 * Helpers for the HTTP tests: a server on a test database with cheap password hashing, users made the
 * way `spoc-studio user add` makes them, and signed-in clients whose requests carry the session
 * cookie, its CSRF token and a same-origin Origin like a page of the app would.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createAccount } from '../auth/accounts';
import type { ScryptParams } from '../auth/passwords';
import type { Db } from '../db/db';
import { createServer } from '../http/createServer';
import type { ServerOptions } from '../http/serverContext';

/** Hashing at production cost would make each sign-in in a test take a tenth of a second. */
export const FAST_SCRYPT: ScryptParams = { N: 1024, r: 8, p: 1 };
/** app.inject() addresses requests to this host. */
export const ORIGIN = 'http://localhost:80';

export function testServer(db: Db, options: Partial<ServerOptions> = {}): Promise<FastifyInstance> {
  return createServer({ db, distDir: null, passwordParams: FAST_SCRYPT, ...options });
}

let counter = 0;
/** A username no other test in the file uses. */
export function uniqueName(prefix = 'user'): string {
  return `${prefix}${++counter}-${process.pid}`;
}

export const PASSWORD = 'correct horse battery';

export async function addUser(db: Db, username = uniqueName()): Promise<{ id: string; username: string }> {
  const user = await createAccount(db, username, PASSWORD, FAST_SCRYPT);
  return { id: user.id, username: user.username };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Client {
  user: { id: string; username: string };
  cookie: string;
  csrfToken: string;
  request(method: Method, url: string, body?: unknown, extraHeaders?: Record<string, string>): Promise<LightMyRequestResponse>;
}

export function cookieFrom(response: LightMyRequestResponse): string {
  const setCookie = response.headers['set-cookie'];
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  if (!first) throw new Error(`no Set-Cookie in ${response.statusCode} ${response.body}`);
  return first.split(';')[0];
}

export async function signIn(app: FastifyInstance, username: string, password = PASSWORD): Promise<Client> {
  const res = await app.inject({ method: 'POST', url: '/api/session', headers: { origin: ORIGIN }, payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const { user, csrfToken } = res.json();
  const cookie = cookieFrom(res);
  return {
    user,
    cookie,
    csrfToken,
    request: (method, url, body, extraHeaders = {}) =>
      app.inject({ method, url, headers: { cookie, 'x-csrf-token': csrfToken, origin: ORIGIN, ...extraHeaders }, ...(body === undefined ? {} : { payload: body as object }) }),
  };
}

/** A new user, signed in. */
export async function newClient(app: FastifyInstance, db: Db, prefix?: string): Promise<Client> {
  const user = await addUser(db, uniqueName(prefix));
  return signIn(app, user.username);
}

/** Row counts of every table a request could change, to assert that a refused request changed nothing. */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const tables = ['users', 'sessions', 'api_tokens', 'projects', 'project_members', 'invites', 'audit_log'];
  const counts: Record<string, number> = {};
  for (const t of tables) {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`);
    counts[t] = row.n;
  }
  return counts;
}
