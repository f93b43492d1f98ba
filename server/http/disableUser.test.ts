/**
 * Disabling an account (spoc-studio user disable / enable, server/auth/accounts.ts): sign-in is
 * refused with a clear message, every session and CLI token it had stops working at once, its rows
 * stay, and enabling it lets it sign in again without bringing the old sessions back. Both backends.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccountError, createApiToken, disableAccount, enableAccount } from '../auth/accounts';
import { onBothBackends } from '../testing/backends';
import { ORIGIN, PASSWORD, addUser, signIn, testServer } from '../testing/testServer';

onBothBackends((ctx) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testServer(ctx.db());
  });
  afterAll(() => app.close());

  const signInAttempt = (username: string, password = PASSWORD) => app.inject({ method: 'POST', url: '/api/session', headers: { origin: ORIGIN }, payload: { username, password } });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('locks a user out at once: old cookie and bearer token get 401, sign-in is refused, their rows stay', async () => {
    const user = await addUser(ctx.db());
    const browser = await signIn(app, user.username);
    const laptop = await signIn(app, user.username);
    const token = await createApiToken(ctx.db(), user.username);
    const created = await browser.request('POST', '/api/projects', { name: 'kept after disabling' });
    expect(created.statusCode).toBe(201);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).statusCode).toBe(200);

    expect(await disableAccount(ctx.db(), user.username.toUpperCase())).toEqual({ sessions: 2, tokens: 1 });

    expect((await browser.request('GET', '/api/me')).statusCode).toBe(401);
    expect((await laptop.request('GET', '/api/projects')).statusCode).toBe(401);
    expect((await browser.request('POST', '/api/projects', { name: 'after' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).statusCode).toBe(401);
    expect(await ctx.db().query('SELECT 1 FROM sessions WHERE user_id = $1 UNION ALL SELECT 1 FROM api_tokens WHERE user_id = $1', [user.id])).toEqual([]);

    const refused = await signInAttempt(user.username);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: "this account is disabled; ask the server's administrator" });
    expect(refused.headers['set-cookie']).toBeUndefined();
    // A wrong password still gets the answer anyone gets: the message is only for whoever knows the password.
    expect((await signInAttempt(user.username, 'not the password')).json()).toEqual({ error: 'wrong username or password' });

    // Nothing they made is gone: the account, its project and membership, and the audit row naming them.
    const [project] = await ctx.db().query<{ created_by: string }>('SELECT created_by FROM projects WHERE id = $1', [created.json().id]);
    expect(project.created_by).toBe(user.id);
    expect(await ctx.db().query('SELECT role FROM project_members WHERE user_id = $1', [user.id])).toEqual([{ role: 'manager' }]);
    const audit = await ctx.db().query<{ user_id: string | null; details: Record<string, unknown> }>("SELECT user_id, details FROM audit_log WHERE action = 'user.disable' AND details ->> 'userId' = $1", [user.id]);
    expect(audit).toEqual([{ user_id: null, details: { username: user.username, userId: user.id, sessions: 2, tokens: 1 } }]);
  });

  it('refuses a new token for a disabled account', async () => {
    const user = await addUser(ctx.db());
    await disableAccount(ctx.db(), user.username);
    await expect(createApiToken(ctx.db(), user.username)).rejects.toThrow(/is disabled; enable it first/);
    expect(await ctx.db().query('SELECT 1 FROM api_tokens WHERE user_id = $1', [user.id])).toEqual([]);
  });

  it('enabling restores sign-in with the password, not the old sessions or tokens', async () => {
    const user = await addUser(ctx.db());
    const old = await signIn(app, user.username);
    const oldToken = await createApiToken(ctx.db(), user.username);
    await disableAccount(ctx.db(), user.username);
    await enableAccount(ctx.db(), user.username);

    expect((await old.request('GET', '/api/me')).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: bearer(oldToken) })).statusCode).toBe(401);
    const fresh = await signIn(app, user.username);
    expect((await fresh.request('GET', '/api/me')).json().user).toEqual(user);
    const actions = await ctx.db().query<{ action: string }>("SELECT action FROM audit_log WHERE details ->> 'userId' = $1 ORDER BY id", [user.id]);
    expect(actions.map((a) => a.action)).toEqual(['user.disable', 'user.enable']);
  });

  it('a session made before the disabling stays refused even if its row survived (the users flag is checked too)', async () => {
    const user = await addUser(ctx.db());
    const browser = await signIn(app, user.username);
    const token = await createApiToken(ctx.db(), user.username);
    // As if an older server had only set the flag: the rows remain, and still lead nowhere.
    await ctx.db().query('UPDATE users SET disabled = true WHERE id = $1', [user.id]);
    expect((await browser.request('GET', '/api/me')).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('names an unknown user', async () => {
    await expect(disableAccount(ctx.db(), 'nobody-at-all')).rejects.toThrow(AccountError);
    await expect(enableAccount(ctx.db(), 'nobody-at-all')).rejects.toThrow('there is no user "nobody-at-all"');
  });
});
