/**
 * Brute-force brake for sign-in: failed attempts are counted per username and per client address in
 * a fixed window; past the limit every attempt is refused (429) until the window ends, even with the
 * right password, and without computing a password hash (so a flood costs the server nothing).
 * A good sign-in clears its username's count. Counts live in this process's memory: with several
 * server processes each keeps its own, so the effective limit is multiplied by their number.
 */

export interface SignInLimits {
  perUsername: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perUsername: 5, perAddress: 20, windowMs: 15 * 60_000 };

interface Window {
  failures: number;
  startedAt: number;
}

/** Entries kept before expired ones are swept (bounds memory under a spray of usernames). */
const SWEEP_AT = 10_000;

export class SignInLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** 0 when an attempt may proceed, else how long until it may (ms). */
  retryAfterMs(address: string, username: string): number {
    return Math.max(this.waitFor(userKey(username), this.limits.perUsername), this.waitFor(`a:${address}`, this.limits.perAddress));
  }

  recordFailure(address: string, username: string): void {
    this.bump(userKey(username));
    this.bump(`a:${address}`);
  }

  recordSuccess(username: string): void {
    this.windows.delete(userKey(username));
  }

  private waitFor(key: string, limit: number): number {
    const w = this.live(key);
    return w && w.failures >= limit ? w.startedAt + this.limits.windowMs - this.now() : 0;
  }

  private bump(key: string): void {
    const w = this.live(key);
    if (w) w.failures++;
    else {
      if (this.windows.size >= SWEEP_AT) this.sweep();
      this.windows.set(key, { failures: 1, startedAt: this.now() });
    }
  }

  private live(key: string): Window | undefined {
    const w = this.windows.get(key);
    if (w && this.now() - w.startedAt >= this.limits.windowMs) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  private sweep(): void {
    for (const key of [...this.windows.keys()]) this.live(key);
  }
}

// Usernames are unique regardless of case, so "Ana" and "ana" share one count.
const userKey = (username: string) => `u:${username.toLowerCase()}`;
