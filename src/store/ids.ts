/**
 * Row ids: random RFC 4122 version-4 UUIDs for rows people name (projects, clips, comments), and
 * time-ordered RFC 9562 version-7 UUIDs for the rows of the append-only logs (revisions, lifecycle
 * events, frame verdicts), whose ids must also sort the way the log was written (docs/sync.md).
 *
 * `crypto.randomUUID` exists only in secure contexts (https, localhost). Served over plain http on a
 * LAN address the app used to fail with "crypto.randomUUID is not a function" at the first new
 * project. `crypto.getRandomValues` exists everywhere, so ids are built from it there (v7 always).
 */

type RandomSource = Pick<Crypto, 'getRandomValues'> & { randomUUID?: () => string };

/** A new random UUID (v4), in secure and insecure contexts alike. */
export function newId(source: RandomSource = globalThis.crypto): string {
  // Looked up at call time, so a test that replaces crypto.randomUUID still steers the ids.
  if (typeof source.randomUUID === 'function') return source.randomUUID();
  return uuidV4FromBytes(source.getRandomValues(new Uint8Array(16)));
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function format(b: Uint8Array): string {
  const h = Array.from(b, (x) => HEX[x]);
  return `${h.slice(0, 4).join('')}-${h.slice(4, 6).join('')}-${h.slice(6, 8).join('')}-${h.slice(8, 10).join('')}-${h.slice(10).join('')}`;
}

/** Formats 16 random bytes as a version-4, variant-1 UUID (RFC 4122 section 4.4). */
export function uuidV4FromBytes(random: Uint8Array): string {
  if (random.length !== 16) throw new RangeError(`a UUID takes 16 random bytes, got ${random.length}`);
  const b = Uint8Array.from(random);
  b[6] = (b[6] & 0x0f) | 0x40; // version 4
  b[8] = (b[8] & 0x3f) | 0x80; // variant 10xx
  return format(b);
}

/** A canonical (lower-case) RFC 9562 UUID of any version: the shape every stored row id has. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The 42 bits after the timestamp (rand_a and the top 30 bits of rand_b) count ids within one millisecond. */
const COUNTER_BITS = 42;
const COUNTER_MAX = 2 ** COUNTER_BITS - 1;

/**
 * A version-7 UUID generator (RFC 9562 section 5.7): 48 bits of Unix milliseconds, then a 42-bit
 * counter (section 6.2, method 1) seeded at random with its top bit clear at each new millisecond and
 * incremented for every further id in the same one, then 32 random bits. Ids of one generator are
 * therefore strictly increasing, as strings too, even when many are made in one millisecond or the
 * clock steps back (the last timestamp is kept until the clock passes it; a counter that runs out
 * moves the timestamp on by one). `clock` and `random` are looked up at every call.
 */
export function uuidV7Generator(clock: () => number = Date.now, random: () => Pick<Crypto, 'getRandomValues'> = () => globalThis.crypto): () => string {
  let lastMs = -1;
  let counter = 0;
  return () => {
    const bytes = random().getRandomValues(new Uint8Array(16));
    const seed = () => ((bytes[6] & 0x01) * 2 ** 40) + (bytes[7] * 2 ** 32) + (((bytes[8] << 24) | (bytes[9] << 16) | (bytes[10] << 8) | bytes[11]) >>> 0);
    const now = Math.floor(clock());
    if (now > lastMs) {
      lastMs = now;
      counter = seed();
    } else if (counter < COUNTER_MAX) {
      counter++;
    } else {
      lastMs++;
      counter = seed();
    }
    let ms = lastMs;
    for (let i = 5; i >= 0; i--) {
      bytes[i] = ms % 256;
      ms = Math.floor(ms / 256);
    }
    const hi = Math.floor(counter / 2 ** 24); // counter bits 41..24
    const lo = counter % 2 ** 24; // bits 23..0
    bytes[6] = 0x70 | (hi >>> 14); // version 7, counter bits 41..38
    bytes[7] = (hi >>> 6) & 0xff; // bits 37..30
    bytes[8] = 0x80 | (hi & 0x3f); // variant 10, bits 29..24
    bytes[9] = lo >>> 16;
    bytes[10] = (lo >>> 8) & 0xff;
    bytes[11] = lo & 0xff;
    return format(bytes);
  };
}

/**
 * A new time-ordered UUID (v7) for a log row: later calls in this page give greater ids. Ids of other
 * pages or machines interleave by their millisecond only; their order is no promise (docs/sync.md).
 */
export const newRowId: () => string = uuidV7Generator();

/**
 * A log row with its id: the one it has (a row restored from the journal or read from a bundle keeps
 * its identity), else a new one. The repositories pass every log row through here on its way in.
 */
export function withRowId<T extends { id?: string }>(row: T): T & { id: string } {
  return row.id === undefined ? { ...row, id: newRowId() } : (row as T & { id: string });
}
