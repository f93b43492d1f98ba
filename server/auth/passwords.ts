/**
 * Password hashes with scrypt from node:crypto (memory-hard, no native dependency). The stored string
 * names the scheme and its cost parameters, then the per-user salt and the hash:
 *   scrypt$N=32768,r=8,p=1$<salt base64>$<hash base64>
 * so the cost can be raised later: old hashes still verify with the parameters they were made with,
 * and `needsRehash` tells sign-in to store a stronger one.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/**
 * 32 MiB and a fraction of a second per hash (0.4 s on this 2-core machine under heavy load; it runs
 * on libuv's thread pool, so the event loop keeps serving). OWASP's scrypt minimum is N=2^17 at
 * 128 MiB; 2^15 keeps a small server answering a morning's burst of sign-ins. Raise it here: stored
 * hashes carry their own parameters and are upgraded at the next sign-in.
 */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;

function scryptAsync(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scryptAsync(password, salt, params);
  return `scrypt$N=${params.N},r=${params.r},p=${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const m = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored);
  if (!m) return null;
  const params = { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  // Refuse absurd costs from a tampered row rather than exhausting memory.
  if (params.N < 2 || params.N > 2 ** 20 || (params.N & (params.N - 1)) !== 0 || params.r < 1 || params.r > 32 || params.p < 1 || params.p > 16) return null;
  return { params, salt: Buffer.from(m[4], 'base64'), key: Buffer.from(m[5], 'base64') };
}

/** Constant-time comparison of the derived key; false for a malformed stored hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await scryptAsync(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** True when a stored hash is weaker than the parameters in force (store a new one after a good sign-in). */
export function needsRehash(stored: string, params: ScryptParams = DEFAULT_SCRYPT): boolean {
  const parsed = parseHash(stored);
  return !parsed || parsed.params.N < params.N || parsed.params.r < params.r || parsed.params.p < params.p;
}
