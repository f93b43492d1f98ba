import { describe, expect, it } from 'vitest';
import { SignInLimiter } from './signInLimiter';

function limiterAt(start = 1_000_000) {
  const clock = { t: start };
  const limiter = new SignInLimiter({ perUsername: 3, perAddress: 5, windowMs: 60_000 }, () => clock.t);
  return { limiter, clock };
}

describe('sign-in limiter', () => {
  it('locks a username after its failures, for the rest of the window, from any address', () => {
    const { limiter, clock } = limiterAt();
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfterMs(`10.0.0.${i}`, 'ana')).toBe(0);
      limiter.recordFailure(`10.0.0.${i}`, 'ana');
    }
    expect(limiter.retryAfterMs('10.0.0.9', 'ANA')).toBe(60_000);
    clock.t += 59_000;
    expect(limiter.retryAfterMs('10.0.0.9', 'ana')).toBe(1_000);
    clock.t += 1_000;
    expect(limiter.retryAfterMs('10.0.0.9', 'ana')).toBe(0);
  });

  it('locks an address spraying many usernames', () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 5; i++) limiter.recordFailure('10.0.0.1', `user${i}`);
    expect(limiter.retryAfterMs('10.0.0.1', 'someone-new')).toBeGreaterThan(0);
    expect(limiter.retryAfterMs('10.0.0.2', 'someone-new')).toBe(0);
  });

  it('clears a username after a good sign-in', () => {
    const { limiter } = limiterAt();
    limiter.recordFailure('a', 'bo');
    limiter.recordFailure('a', 'bo');
    limiter.recordSuccess('bo');
    limiter.recordFailure('a', 'bo');
    limiter.recordFailure('a', 'bo');
    expect(limiter.retryAfterMs('b', 'bo')).toBe(0);
  });
});
