/**
 * The CLI's side of the sync protocol (docs/sync.md "The protocol"; the wire types are
 * src/sync/protocol.ts): who the token belongs to, every row of a project page by page, and pushes.
 * Authenticated with a bearer token (`spoc-studio token create NAME`), which needs no CSRF token.
 * Every failure becomes a DataError (exit 1) that says what to do about it.
 */
import { readFile } from 'node:fs/promises';
import { CURSOR_START, SYNC_PROTOCOL_VERSION, type PullResponse, type PulledChange, type PushChange, type PushResponse } from '../../src/sync/protocol';
import { DataError, UsageError, fsProblem, resolvePath, type CliIo } from '../io';
import { stringOption, type Parsed } from '../args';

export const PULL_PAGE = 1000;

export interface ServerClient {
  readonly server: string;
  me(): Promise<{ username: string }>;
  pullAll(projectId: string): Promise<PulledChange[]>;
  push(projectId: string, clientId: string, changes: PushChange[]): Promise<PushResponse>;
}

/** --server URL: an http(s) origin (a path after it is kept, for a server behind a prefix). */
export function parseServerUrl(value: string, command: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--server must be a URL such as https://annotate.lab.example; got "${value}"`, command);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--server must be an http:// or https:// URL; got "${value}"`, command);
  return url.toString().replace(/\/+$/, '');
}

/**
 * The token: --token-file FILE, else the SPOC_TOKEN environment variable. Never an option value:
 * a command line is visible to every user of the machine (ps) and kept in shell history.
 */
export async function readToken(parsed: Parsed, io: CliIo, command: string): Promise<string> {
  const file = stringOption(parsed, 'token-file');
  let token: string;
  if (file !== undefined) {
    try {
      token = (await readFile(resolvePath(io, file), 'utf8')).trim();
    } catch (err) {
      throw new DataError(`${file}: cannot read the token file (${fsProblem(err)})`);
    }
    if (!token) throw new DataError(`${file}: the token file is empty`);
  } else {
    token = ((io.env ?? process.env).SPOC_TOKEN ?? '').trim();
    if (!token) throw new UsageError('no token: set SPOC_TOKEN or pass --token-file FILE (make one with "spoc-studio token create NAME" on the server)', command);
  }
  if (/\s/.test(token)) throw new DataError('the token holds white space; it is one word as "spoc-studio token create" printed it');
  return token;
}

export function serverClient(server: string, token: string, doFetch: typeof fetch = fetch): ServerClient {
  async function request<T>(method: 'GET' | 'POST', path: string, what: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await doFetch(`${server}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new DataError(`cannot reach the server at ${server} (${cause?.code ?? cause?.message ?? (err as Error).message}); is the address right and the server running?`);
    }
    if (res.ok) {
      try {
        return (await res.json()) as T;
      } catch {
        throw new DataError(`${server} answered ${what} with something that is not JSON; is it a SPOC Studio server?`);
      }
    }
    const detail = await errorText(res);
    if (res.status === 401) throw new DataError(`the server refused the token (401 ${detail}); make a new one with "spoc-studio token create NAME" on the server`);
    if (res.status === 403) throw new DataError(`not allowed: ${what} (403 ${detail})`);
    if (res.status === 404) throw new DataError(`${what}: not found on ${server} (404 ${detail}); check the project id, and that the token's user is a member`);
    throw new DataError(`${what}: the server answered ${res.status} ${detail}`);
  }

  return {
    server,
    async me() {
      const body = await request<{ user?: { username?: unknown } }>('GET', '/api/me', 'who the token belongs to (GET /api/me)');
      const username = body.user?.username;
      if (typeof username !== 'string') throw new DataError(`${server} did not say whose token this is (GET /api/me)`);
      return { username };
    },
    async pullAll(projectId) {
      const rows: PulledChange[] = [];
      let after = CURSOR_START;
      for (;;) {
        const q = new URLSearchParams({ after, limit: String(PULL_PAGE) });
        const page = await request<PullResponse>('GET', `/api/projects/${encodeURIComponent(projectId)}/sync/pull?${q.toString()}`, `project ${projectId}`);
        rows.push(...page.changes);
        // A page that does not move the cursor cannot be followed by more (a server bug otherwise): stop.
        if (!page.more || page.cursor === after) return rows;
        after = page.cursor;
      }
    },
    push(projectId, clientId, changes) {
      return request<PushResponse>('POST', `/api/projects/${encodeURIComponent(projectId)}/sync/push`, `pushing to project ${projectId}`, {
        protocol: SYNC_PROTOCOL_VERSION,
        clientId,
        changes,
      });
    },
  };
}

async function errorText(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string') return body.error;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON
  }
  return res.statusText;
}
