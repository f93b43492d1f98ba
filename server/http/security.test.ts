/**
 * Hostile requests: each is refused with an exact status and changes no row in any table. Runs on
 * both database backends. (Path traversal and oversized bodies go over a real socket in server.test.ts.)
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret, newSecret } from '../auth/tokens';
import type { Db } from '../db/db';
import { onBothBackends } from '../testing/backends';
import { ORIGIN, PASSWORD, addUser, newClient, tableCounts, testServer, type Client } from '../testing/testServer';

const INJECTIONS = ["x'; DROP TABLE users; --", "' OR '1'='1", 'manager\'); DELETE FROM project_members; --', '$1', '\\x00'];

/** Runs a hostile request and checks that nothing in the database changed. */
async function refused(db: Db, status: number, send: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  const before = await tableCounts(db);
  const res = await send();
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ error: expect.any(String) });
  expect(res.body).not.toMatch(/\n\s+at /);
  expect(await tableCounts(db)).toEqual(before);
  return res;
}

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let manager: Client;
  let annotator: Client;
  let reviewer: Client;
  let outsider: Client;
  let projectId: string;
  const db = () => ctx.db();

  beforeAll(async () => {
    app = await testServer(db());
    manager = await newClient(app, db(), 'manager');
    annotator = await newClient(app, db(), 'annotator');
    reviewer = await newClient(app, db(), 'reviewer');
    outsider = await newClient(app, db(), 'outsider');
    projectId = (await manager.request('POST', '/api/projects', { name: 'Guarded' })).json().id;
    await manager.request('POST', `/api/projects/${projectId}/members`, { username: annotator.user.username, role: 'annotator' });
    await manager.request('POST', `/api/projects/${projectId}/members`, { username: reviewer.user.username, role: 'reviewer' });
  });
  afterAll(() => app.close());

  const createProject = (headers: Record<string, string>) => app.inject({ method: 'POST', url: '/api/projects', headers, payload: { name: 'sneaky' } });

  describe('who is asking', () => {
    it('refuses a change with no session (401)', async () => {
      await refused(db(), 401, () => createProject({ origin: ORIGIN }));
    });

    it('refuses an expired session (401)', async () => {
      const client = await newClient(app, db(), 'expiring');
      await db().query("UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE token_hash = $1", [hashSecret(client.cookie.split('=')[1])]);
      await refused(db(), 401, () => client.request('POST', '/api/projects', { name: 'late' }));
    });

    it('refuses garbage and unknown session cookies (401)', async () => {
      for (const cookie of ['spoc_session=garbage', `spoc_session=${"' OR 1=1 --".padEnd(43, 'x')}`, `spoc_session=${newSecret()}`, 'spoc_session=']) {
        await refused(db(), 401, () => createProject({ cookie, origin: ORIGIN, 'x-csrf-token': manager.csrfToken }));
      }
    });

    it('refuses a signed-out session replayed (401)', async () => {
      const client = await newClient(app, db(), 'leaving');
      await client.request('DELETE', '/api/session');
      await refused(db(), 401, () => client.request('POST', '/api/projects', { name: 'ghost' }));
    });

    it('refuses a disabled user with a live session (401)', async () => {
      const client = await newClient(app, db(), 'disabled');
      await db().query('UPDATE users SET disabled = true WHERE id = $1', [client.user.id]);
      await refused(db(), 401, () => client.request('POST', '/api/projects', { name: 'nope' }));
    });

    it('refuses malformed and unknown bearer tokens (401)', async () => {
      for (const authorization of ['Bearer', 'Bearer spoc_short', `Bearer spoc_${newSecret().slice(5)}`, `Bearer ${newSecret()}`, `Basic ${Buffer.from('a:b').toString('base64')}`]) {
        await refused(db(), 401, () => createProject({ authorization }));
      }
    });
  });

  describe('cross-site request forgery', () => {
    it('refuses a cross-origin POST without the CSRF token (403)', async () => {
      await refused(db(), 403, () => manager.request('POST', '/api/projects', { name: 'csrf' }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'x-csrf-token': '' }));
    });

    it('refuses a same-origin POST without the CSRF token (403)', async () => {
      await refused(db(), 403, () => createProject({ cookie: manager.cookie, origin: ORIGIN }));
    });

    it("refuses another session's CSRF token (403)", async () => {
      await refused(db(), 403, () => manager.request('POST', '/api/projects', { name: 'csrf' }, { 'x-csrf-token': annotator.csrfToken }));
    });

    it('refuses the right token from another origin or another site (403)', async () => {
      await refused(db(), 403, () => manager.request('POST', '/api/projects', { name: 'csrf' }, { origin: 'https://evil.example' }));
      await refused(db(), 403, () => manager.request('POST', '/api/projects', { name: 'csrf' }, { 'sec-fetch-site': 'same-site' }));
      await refused(db(), 403, () => createProject({ cookie: manager.cookie, 'x-csrf-token': manager.csrfToken }));
    });

    it('refuses a sign-in posted from another site (403), so no one is signed in behind their back', async () => {
      const user = await addUser(db());
      await refused(db(), 403, () => app.inject({ method: 'POST', url: '/api/session', headers: { origin: 'https://evil.example' }, payload: { username: user.username, password: PASSWORD } }));
    });

    it('refuses the text/plain body a cross-site form can send (415)', async () => {
      await refused(db(), 415, () =>
        app.inject({ method: 'POST', url: '/api/projects', headers: { cookie: manager.cookie, 'content-type': 'text/plain' }, payload: '{"name":"form"}' }),
      );
    });
  });

  describe('roles', () => {
    it('refuses a non-manager adding members (403)', async () => {
      await refused(db(), 403, () => annotator.request('POST', `/api/projects/${projectId}/members`, { username: outsider.user.username, role: 'manager' }));
      await refused(db(), 403, () => reviewer.request('POST', `/api/projects/${projectId}/members`, { username: outsider.user.username, role: 'annotator' }));
    });

    it('refuses an annotator inviting (403)', async () => {
      await refused(db(), 403, () => annotator.request('POST', `/api/projects/${projectId}/invites`, { role: 'manager' }));
    });

    it('refuses a reviewer promoting themself or removing others (403)', async () => {
      await refused(db(), 403, () => reviewer.request('PUT', `/api/projects/${projectId}/members/${reviewer.user.id}`, { role: 'manager' }));
      await refused(db(), 403, () => reviewer.request('DELETE', `/api/projects/${projectId}/members/${annotator.user.id}`));
    });

    it('shows non-members nothing of a project, not even that it exists (404)', async () => {
      await refused(db(), 404, () => outsider.request('GET', `/api/projects/${projectId}/members`));
      await refused(db(), 404, () => outsider.request('POST', `/api/projects/${projectId}/invites`, { role: 'annotator' }));
    });

    it('keeps the audit log to managers (403)', async () => {
      await refused(db(), 403, () => annotator.request('GET', `/api/projects/${projectId}/audit`));
    });
  });

  describe('invites', () => {
    it('refuses a used invite (410)', async () => {
      const { token } = (await manager.request('POST', `/api/projects/${projectId}/invites`, { role: 'annotator' })).json();
      const first = await newClient(app, db(), 'first');
      expect((await first.request('POST', '/api/invites/accept', { token })).statusCode).toBe(200);
      const second = await newClient(app, db(), 'second');
      await refused(db(), 410, () => second.request('POST', '/api/invites/accept', { token }));
    });

    it('refuses an expired invite (410)', async () => {
      const { token } = (await manager.request('POST', `/api/projects/${projectId}/invites`, { role: 'reviewer' })).json();
      await db().query("UPDATE invites SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [hashSecret(token)]);
      await refused(db(), 410, () => outsider.request('POST', '/api/invites/accept', { token }));
    });

    it('refuses made-up invite tokens (404)', async () => {
      for (const token of [newSecret(), "' OR used_by IS NULL --", '']) await refused(db(), 404, () => outsider.request('POST', '/api/invites/accept', { token }));
    });
  });

  describe('forged authors and injected SQL', () => {
    it('refuses author, by, userId or created_by fields in a body (400)', async () => {
      for (const forged of [{ author: reviewer.user.username }, { by: reviewer.user.id }, { userId: reviewer.user.id }, { created_by: reviewer.user.id }]) {
        await refused(db(), 400, () => annotator.request('POST', '/api/projects', { name: 'forged', ...forged }));
      }
      await refused(db(), 400, () => annotator.request('POST', '/api/invites/accept', { token: newSecret(), userId: outsider.user.id }));
      await refused(db(), 400, () => manager.request('POST', `/api/projects/${projectId}/members`, { username: outsider.user.username, role: 'annotator', by: reviewer.user.id }));
    });

    it('refuses SQL in usernames (400) and in roles (400), leaving every table as it was', async () => {
      for (const text of INJECTIONS) {
        await refused(db(), 400, () => app.inject({ method: 'POST', url: '/api/session', headers: { origin: ORIGIN }, payload: { username: text, password: PASSWORD } }));
        await refused(db(), 400, () => manager.request('POST', `/api/projects/${projectId}/members`, { username: text, role: 'annotator' }));
        await refused(db(), 400, () => manager.request('POST', `/api/projects/${projectId}/members`, { username: outsider.user.username, role: text }));
        await refused(db(), 400, () => manager.request('PUT', `/api/projects/${projectId}/members/${annotator.user.id}`, { role: text }));
      }
    });

    it('stores SQL in a project name as plain text, touching nothing else', async () => {
      for (const text of INJECTIONS) {
        const before = await tableCounts(db());
        const res = await manager.request('POST', '/api/projects', { name: text });
        expect(res.statusCode).toBe(201);
        expect(await db().query('SELECT name FROM projects WHERE id = $1', [res.json().id])).toEqual([{ name: text }]);
        expect(await tableCounts(db())).toEqual({ ...before, projects: before.projects + 1, project_members: before.project_members + 1, audit_log: before.audit_log + 1 });
      }
    });

    it('treats SQL in URL ids as no such project (404)', async () => {
      for (const id of ["1' OR '1'='1", `${projectId}' --`, '00000000-0000-0000-0000-000000000000; DROP TABLE projects']) {
        await refused(db(), 404, () => manager.request('GET', `/api/projects/${encodeURIComponent(id)}/members`));
      }
    });

    it('refuses a type-confused body instead of coercing it (400)', async () => {
      await refused(db(), 400, () => manager.request('POST', '/api/projects', { name: ['a', 'b'] }));
      await refused(db(), 400, () => manager.request('POST', `/api/projects/${projectId}/invites`, { role: 'annotator', expiresInHours: '9999' }));
      await refused(db(), 400, () => manager.request('POST', `/api/projects/${projectId}/invites`, { role: 'annotator', expiresInHours: 100_000 }));
    });
  });

  describe('sign-in', () => {
    it('refuses an overlong username with a clear message (400)', async () => {
      const res = await refused(db(), 400, () => app.inject({ method: 'POST', url: '/api/session', headers: { origin: ORIGIN }, payload: { username: 'a'.repeat(10_000), password: PASSWORD } }));
      expect(res.json()).toEqual({ error: 'a username has at most 40 characters' });
    });

    it('locks out a brute-force loop (429), and then even the right password fails', async () => {
      const limited = await testServer(db(), { signInLimits: { perUsername: 5, perAddress: 50, windowMs: 60_000 } });
      const victim = await addUser(db());
      const attempt = (password: string) => limited.inject({ method: 'POST', url: '/api/session', headers: { origin: ORIGIN }, payload: { username: victim.username, password } });
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await attempt(`guess number ${i}`)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      const right = await refused(db(), 429, () => attempt(PASSWORD));
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
      await limited.close();
    });
  });
});
