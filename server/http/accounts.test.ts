/** Sign-in, sessions, sign-out and CLI tokens over HTTP, on both database backends. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiToken } from '../auth/accounts';
import { hashPassword } from '../auth/passwords';
import { hashSecret } from '../auth/tokens';
import { onBothBackends } from '../testing/backends';
import { FAST_SCRYPT, ORIGIN, PASSWORD, addUser, cookieFrom, signIn, testServer } from '../testing/testServer';

onBothBackends((ctx) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testServer(ctx.db(), { session: { ttlMs: 3_600_000, sliding: true } });
  });
  afterAll(() => app.close());

  it('signs in with an httpOnly, SameSite=Strict cookie holding a token stored only as its SHA-256', async () => {
    const user = await addUser(ctx.db());
    const res = await app.inject({ method: 'POST', url: '/api/session', headers: { origin: ORIGIN }, payload: { username: user.username.toUpperCase(), password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^spoc_session=[A-Za-z0-9_-]{43}; Max-Age=3600; Path=\/; HttpOnly; SameSite=Strict$/);
    const token = cookieFrom(res).split('=')[1];
    const stored = await ctx.db().query<{ token_hash: string }>('SELECT token_hash FROM sessions WHERE user_id = $1', [user.id]);
    expect(stored).toEqual([{ token_hash: hashSecret(token) }]);
    expect(res.json()).toEqual({ user: { id: user.id, username: user.username }, csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
  });

  it('marks the cookie Secure when the request came over https through a trusted proxy', async () => {
    const proxied = await testServer(ctx.db(), { trustProxy: true, publicOrigin: 'https://annotate.lab.example' });
    const user = await addUser(ctx.db());
    const res = await proxied.inject({
      method: 'POST',
      url: '/api/session',
      headers: { origin: 'https://annotate.lab.example', 'x-forwarded-proto': 'https' },
      payload: { username: user.username, password: PASSWORD },
    });
    await proxied.close();
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toContain('; Secure');
  });

  it('answers /api/me with the user and the CSRF token, and signs out for good', async () => {
    const client = await signIn(app, (await addUser(ctx.db())).username);
    const me = await client.request('GET', '/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ user: client.user, csrfToken: client.csrfToken });
    const out = await client.request('DELETE', '/api/session');
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^spoc_session=; Max-Age=0; Path=\/; Expires=/);
    expect(await ctx.db().query('SELECT 1 FROM sessions WHERE user_id = $1', [client.user.id])).toEqual([]);
    expect((await client.request('GET', '/api/me')).statusCode).toBe(401);
  });

  it('slides a session forward when it is used, and rejects it once expired', async () => {
    const client = await signIn(app, (await addUser(ctx.db())).username);
    const tokenHash = hashSecret(client.cookie.split('=')[1]);
    await ctx.db().query("UPDATE sessions SET expires_at = now() + interval '10 minutes' WHERE token_hash = $1", [tokenHash]);
    expect((await client.request('GET', '/api/me')).statusCode).toBe(200);
    const [{ left }] = await ctx.db().query<{ left: number }>('SELECT extract(epoch FROM expires_at - now())::int AS left FROM sessions WHERE token_hash = $1', [tokenHash]);
    expect(left).toBeGreaterThan(3500);
    await ctx.db().query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [tokenHash]);
    expect((await client.request('GET', '/api/me')).statusCode).toBe(401);
  });

  it('keeps a fixed expiry when sessions are not sliding', async () => {
    const fixed = await testServer(ctx.db(), { session: { ttlMs: 3_600_000, sliding: false } });
    const client = await signIn(fixed, (await addUser(ctx.db())).username);
    const tokenHash = hashSecret(client.cookie.split('=')[1]);
    await ctx.db().query("UPDATE sessions SET expires_at = now() + interval '10 minutes' WHERE token_hash = $1", [tokenHash]);
    expect((await client.request('GET', '/api/me')).statusCode).toBe(200);
    const [{ left }] = await ctx.db().query<{ left: number }>('SELECT extract(epoch FROM expires_at - now())::int AS left FROM sessions WHERE token_hash = $1', [tokenHash]);
    await fixed.close();
    expect(left).toBeLessThanOrEqual(600);
  });

  it('accepts a CLI bearer token without CSRF headers', async () => {
    const user = await addUser(ctx.db());
    const token = await createApiToken(ctx.db(), user.username);
    expect(token).toMatch(/^spoc_[A-Za-z0-9_-]{43}$/);
    const auth = { authorization: `Bearer ${token}` };
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: auth })).json()).toEqual({ user, csrfToken: null });
    const created = await app.inject({ method: 'POST', url: '/api/projects', headers: auth, payload: { name: 'from the CLI' } });
    expect(created.statusCode).toBe(201);
    expect(await ctx.db().query('SELECT token_hash FROM api_tokens WHERE user_id = $1', [user.id])).toEqual([{ token_hash: hashSecret(token) }]);
  });

  it('stores a stronger hash after signing in with one made at a lower cost', async () => {
    const user = await addUser(ctx.db());
    const weaker = await hashPassword(PASSWORD, { ...FAST_SCRYPT, N: 512 });
    await ctx.db().query('UPDATE users SET password_hash = $2 WHERE id = $1', [user.id, weaker]);
    await signIn(app, user.username);
    const [{ password_hash }] = await ctx.db().query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [user.id]);
    expect(password_hash).toMatch(/^scrypt\$N=1024,r=8,p=1\$/);
  });

  it('gives one answer for an unknown user and a wrong password', async () => {
    const user = await addUser(ctx.db());
    const attempt = (username: string, password: string) => app.inject({ method: 'POST', url: '/api/session', headers: { origin: ORIGIN }, payload: { username, password } });
    const wrongPassword = await attempt(user.username, 'not the password');
    const unknownUser = await attempt('nobody-here', 'not the password');
    expect([wrongPassword.statusCode, unknownUser.statusCode]).toEqual([401, 401]);
    expect(wrongPassword.json()).toEqual({ error: 'wrong username or password' });
    expect(unknownUser.json()).toEqual(wrongPassword.json());
  });
});
