/**
 * Brute-force brake for sign-in: attempts are counted per username and per client address in a
 * fixed window; past the limit every attempt is refused (429) until the window ends, even with the
 * right password, and without computing a password hash (so a flood costs the server one statement
 * per attempt). The counts live in PostgreSQL (table sign_in_windows), so every server process on
 * the database shares them: with N processes the limit stays the limit (docs/server.md).
 *
 * An attempt is counted before its password is checked, in the same statement that decides whether
 * it may proceed, so a burst of parallel attempts cannot all slip past the check; a good sign-in then
 * takes its attempt back (the address's count) and clears its username's count. What stays counted
 * are the failures (and attempts refused meanwhile). The database's clock decides the windows, so
 * processes with skewed clocks agree.
 */
import type { Queryable } from '../db/db';

export interface SignInLimits {
  perUsername: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perUsername: 5, perAddress: 20, windowMs: 15 * 60_000 };

/** The window length as an interval ($5 is the window in ms). */
const WINDOW = "($5::float8 * interval '1 millisecond')";

/** Upserts one key's row: its window restarts once it has ended, else it counts one attempt more. */
const countAttempt = (key: string, from = '') => `
  INSERT INTO sign_in_windows AS w (key, attempts, window_start) SELECT ${key}::text, 1, now() ${from}
  ON CONFLICT (key) DO UPDATE SET
    attempts = CASE WHEN w.window_start <= now() - ${WINDOW} THEN 1 ELSE w.attempts + 1 END,
    window_start = CASE WHEN w.window_start <= now() - ${WINDOW} THEN now() ELSE w.window_start END
  RETURNING attempts, window_start`;

/** Past the limit: the time left in the window (ms, at least 1). */
const waitMs = (limit: string) => `CASE WHEN attempts > ${limit}::int
  THEN greatest(1, ceil(extract(epoch FROM window_start + ${WINDOW} - now()) * 1000)) ELSE 0 END`;

// Both keys in one statement ($1 address, $2 username, $3 and $4 their limits). The username's row
// is counted only while the address is within its limit: an address spraying usernames past its
// limit adds no row per name it tries.
const ATTEMPT_SQL = `
  WITH address AS (${countAttempt('$1')}),
  username AS (${countAttempt('$2', 'FROM address WHERE address.attempts <= $4::int')})
  SELECT
    (SELECT ${waitMs('$4')} FROM address)::float8 AS address_wait,
    (SELECT ${waitMs('$3')} FROM username)::float8 AS username_wait`;

const SUCCEEDED_SQL = `
  WITH cleared AS (DELETE FROM sign_in_windows WHERE key = $2)
  UPDATE sign_in_windows SET attempts = attempts - 1 WHERE key = $1 AND attempts > 0`;

export class SignInLimiter {
  constructor(
    private readonly db: Queryable,
    private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
  ) {}

  /** Counts an attempt: 0 when it may proceed, else how long until one may (ms). */
  async attempt(address: string, username: string): Promise<number> {
    const { perUsername, perAddress, windowMs } = this.limits;
    const [row] = await this.db.query<{ address_wait: number | null; username_wait: number | null }>(ATTEMPT_SQL, [
      addressKey(address),
      userKey(username),
      perUsername,
      perAddress,
      windowMs,
    ]);
    return Math.max(row.address_wait ?? 0, row.username_wait ?? 0);
  }

  /** The attempt had the right password: it no longer counts, nor do the username's failures. */
  async succeeded(address: string, username: string): Promise<void> {
    await this.db.query(SUCCEEDED_SQL, [addressKey(address), userKey(username)]);
  }

  /** Deletes windows that have ended (their rows would only be reset); returns how many. */
  async sweep(): Promise<number> {
    const gone = await this.db.query("DELETE FROM sign_in_windows WHERE window_start <= now() - $1::float8 * interval '1 millisecond' RETURNING key", [
      this.limits.windowMs,
    ]);
    return gone.length;
  }
}

// Usernames are unique regardless of case, so "Ana" and "ana" share one count.
const userKey = (username: string) => `u:${username.toLowerCase()}`;
const addressKey = (address: string) => `a:${address}`;
