/**
 * Seeded, platform-independent pseudo-random numbers and integer hashes.
 *
 * Everything here uses 32-bit integer arithmetic (Math.imul, shifts, >>> 0) and one exact division,
 * so the same seed gives the same stream in every JavaScript engine.
 */

/** 32-bit avalanche (murmur3 fmix32). */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of two 32-bit integers. */
export function hash2(a: number, b: number): number {
  return mix32(Math.imul(a | 0, 0x9e3779b1) ^ mix32((b | 0) + 0x7f4a7c15));
}

/** Hash of three 32-bit integers (e.g. lattice x, y and a seed). */
export function hash3(a: number, b: number, c: number): number {
  return hash2(hash2(a, b), c);
}

/** FNV-1a over UTF-16 code units, then avalanched. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** Normalises a user seed (any safe integer, negative allowed) to a uint32. */
export function normalizeSeed(seed: number): number {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
  // Fold the high bits in so seeds that differ only above bit 31 still differ.
  const hi = Math.floor(seed / 4294967296);
  return hash2(seed >>> 0, hi | 0);
}

/** mulberry32: a tiny, fast, well-distributed 32-bit generator. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Rng {
  /** The uint32 this stream was seeded with. */
  readonly seed: number;
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform float in [lo, hi). */
  range(lo: number, hi: number): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Uniform float in [-1, 1). */
  signed(): number;
  /** Approximately normal (Irwin-Hall of 4), mean 0, sd 1. */
  gauss(): number;
  pick<T>(items: readonly T[]): T;
  /** An independent stream named by label: adding draws to one stream never shifts another. */
  fork(label: string): Rng;
}

export function createRng(seed: number): Rng {
  const s = seed >>> 0;
  const next = mulberry32(s);
  const rng: Rng = {
    seed: s,
    next,
    range: (lo, hi) => lo + (hi - lo) * next(),
    int: (n) => Math.floor(next() * n),
    signed: () => next() * 2 - 1,
    gauss: () => (next() + next() + next() + next() - 2) * 1.7320508075688772,
    pick: (items) => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[Math.floor(next() * items.length)];
    },
    fork: (label) => createRng(hash2(s, hashString(label))),
  };
  return rng;
}
