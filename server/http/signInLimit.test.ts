/**
 * The sign-in lockout is shared by every server process on one database (docs/server.md "Sign-in
 * lockout"): guesses spread over two processes, or fired all at once, still stop at the limit.
 * Two servers on one database: on PostgreSQL each with a connection pool of its own, as two
 * processes have; on PGlite two servers over the one embedded database.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { onBothBackends } from '../testing/backends';
import { ORIGIN, PASSWORD, addUser, testServer } from '../testing/testServer';

const LIMITS = { perUsername: 5, perAddress: 50, windowMs: 60_000 };

onBothBackends((ctx) => {
  let first: FastifyInstance;
  let second: FastifyInstance;

  beforeAll(async () => {
    first = await testServer(ctx.db(), { signInLimits: LIMITS });
    second = await testServer(ctx.kind === 'postgres' ? ctx.connectAgain() : ctx.db(), { signInLimits: LIMITS });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  const attempt = (app: FastifyInstance, username: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/session', headers: { origin: ORIGIN }, payload: { username, password } });

  it('counts failures through either process against one limit', async () => {
    const victim = await addUser(ctx.db());
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await attempt(i % 2 ? second : first, victim.username, `wrong guess ${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect((await attempt(first, victim.username, PASSWORD)).statusCode).toBe(429);
    expect((await attempt(second, victim.username, PASSWORD)).statusCode).toBe(429);
  });

  it('lets no more than the limit through when guesses arrive all at once', async () => {
    const victim = await addUser(ctx.db());
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => attempt(i % 2 ? second : first, victim.username, `wrong guess ${i}`)));
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it('clears a username in both processes after a good sign-in through one', async () => {
    const user = await addUser(ctx.db());
    for (let i = 0; i < 4; i++) expect((await attempt(first, user.username, `a wrong typo ${i}`)).statusCode).toBe(401);
    expect((await attempt(second, user.username, PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await attempt(first, user.username, `a wrong typo again ${i}`)).statusCode).toBe(401);
    expect((await attempt(second, user.username, PASSWORD)).statusCode).toBe(200);
  });
});
