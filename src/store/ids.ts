/**
 * Row ids: random RFC 4122 version-4 UUIDs.
 *
 * `crypto.randomUUID` exists only in secure contexts (https, localhost). Served over plain http on a
 * LAN address the app used to fail with "crypto.randomUUID is not a function" at the first new
 * project. `crypto.getRandomValues` exists everywhere, so the same kind of id is built from it there.
 */

type RandomSource = Pick<Crypto, 'getRandomValues'> & { randomUUID?: () => string };

/** A new random UUID (v4), in secure and insecure contexts alike. */
export function newId(source: RandomSource = globalThis.crypto): string {
  // Looked up at call time, so a test that replaces crypto.randomUUID still steers the ids.
  if (typeof source.randomUUID === 'function') return source.randomUUID();
  return uuidV4FromBytes(source.getRandomValues(new Uint8Array(16)));
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Formats 16 random bytes as a version-4, variant-1 UUID (RFC 4122 section 4.4). */
export function uuidV4FromBytes(random: Uint8Array): string {
  if (random.length !== 16) throw new RangeError(`a UUID takes 16 random bytes, got ${random.length}`);
  const b = Uint8Array.from(random);
  b[6] = (b[6] & 0x0f) | 0x40; // version 4
  b[8] = (b[8] & 0x3f) | 0x80; // variant 10xx
  const h = Array.from(b, (x) => HEX[x]);
  return `${h.slice(0, 4).join('')}-${h.slice(4, 6).join('')}-${h.slice(6, 8).join('')}-${h.slice(8, 10).join('')}-${h.slice(10).join('')}`;
}
