import { beforeEach, expect, it } from 'vitest';
import type { Db } from '../db/db';
import { onBothBackends } from '../testing/backends';
import { SignInLimiter } from './signInLimiter';

const LIMITS = { perUsername: 3, perAddress: 5, windowMs: 60_000 };

/** Moves every window's start back, as the passing of that much time would. */
const age = (db: Db, ms: number) => db.query("UPDATE sign_in_windows SET window_start = window_start - $1::float8 * interval '1 millisecond'", [ms]);
const keys = async (db: Db) => (await db.query<{ key: string; attempts: number }>('SELECT key, attempts FROM sign_in_windows ORDER BY key'));

onBothBackends((ctx) => {
  let limiter: SignInLimiter;
  beforeEach(async () => {
    await ctx.db().query('DELETE FROM sign_in_windows');
    limiter = new SignInLimiter(ctx.db(), LIMITS);
  });

  it('locks a username after its failures, for the rest of the window, from any address', async () => {
    for (let i = 0; i < 3; i++) expect(await limiter.attempt(`10.0.0.${i}`, 'ana')).toBe(0);
    const wait = await limiter.attempt('10.0.0.9', 'ANA');
    expect(wait).toBeGreaterThan(50_000);
    expect(wait).toBeLessThanOrEqual(60_000);
    await age(ctx.db(), 59_000);
    const left = await limiter.attempt('10.0.0.9', 'ana');
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(1_000);
    await age(ctx.db(), 1_000);
    expect(await limiter.attempt('10.0.0.9', 'ana')).toBe(0);
  });

  it('locks an address spraying many usernames, without a row per name past its limit', async () => {
    for (let i = 0; i < 5; i++) expect(await limiter.attempt('10.0.0.1', `user${i}`)).toBe(0);
    for (let i = 5; i < 50; i++) expect(await limiter.attempt('10.0.0.1', `user${i}`)).toBeGreaterThan(0);
    expect(await limiter.attempt('10.0.0.2', 'someone-new')).toBe(0);
    expect((await keys(ctx.db())).filter((k) => k.key.startsWith('u:'))).toHaveLength(6);
  });

  it('takes a good sign-in back from its address and clears its username', async () => {
    await limiter.attempt('a', 'bo');
    await limiter.attempt('a', 'bo');
    await limiter.attempt('a', 'bo');
    await limiter.succeeded('a', 'bo');
    expect(await keys(ctx.db())).toEqual([{ key: 'a:a', attempts: 2 }]);
    await limiter.attempt('a', 'bo');
    await limiter.attempt('a', 'bo');
    expect(await limiter.attempt('b', 'bo')).toBe(0);
  });

  it('lets exactly the limit through when attempts arrive all at once', async () => {
    const many = ctx.kind === 'postgres' ? [ctx.db(), ctx.connectAgain()] : [ctx.db()];
    const limiters = many.map((db) => new SignInLimiter(db, LIMITS));
    const waits = await Promise.all(Array.from({ length: 12 }, (_, i) => limiters[i % limiters.length].attempt(`10.1.0.${i}`, 'cy')));
    expect(waits.filter((w) => w === 0)).toHaveLength(3);
  });

  it('sweeps windows that have ended, and only those', async () => {
    await limiter.attempt('old', 'old');
    await age(ctx.db(), 60_000);
    await limiter.attempt('new', 'new');
    expect(await limiter.sweep()).toBe(2);
    expect((await keys(ctx.db())).map((k) => k.key)).toEqual(['a:new', 'u:new']);
  });
});
