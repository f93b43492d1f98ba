/**
 * Random bearer secrets (session cookies, CLI tokens, invite links, CSRF tokens) and their stored
 * form. The database holds only SHA-256 of a secret: 256 random bits need no salt or slow hash, and a
 * leaked table lets nobody in.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url (43 characters). */
export function newSecret(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** CLI tokens carry a prefix so a leaked one is recognisable (and secret scanners can match it). */
export const API_TOKEN_PREFIX = 'spoc_';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time equality of two strings (different lengths are simply unequal). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Cheap shape check before touching the database: a real secret is base64url of a fixed length. */
export function looksLikeSecret(value: string, prefix = ''): boolean {
  return value.startsWith(prefix) && /^[A-Za-z0-9_-]{43}$/.test(value.slice(prefix.length));
}
