/**
 * Seeded randomness for the durability runs: every crash point comes from the seed, so a failing
 * run is replayed exactly with SPOC_DURABILITY_SEED=<seed printed by the run>.
 */

/** mulberry32: tiny, fast, and plenty for picking delays; returns numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed from SPOC_DURABILITY_SEED, or a fresh one (printed by the caller so it can be reused). */
export function seedFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.SPOC_DURABILITY_SEED;
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new Error(`SPOC_DURABILITY_SEED must be an integer from 0 to 4294967295, not "${given}"`);
    }
    return seed;
  }
  return Math.floor(Math.random() * 0x100000000);
}

/**
 * A delay after pointer-up, in whole milliseconds from 0 to maxMs. Exactly 0 (the instant the
 * pointer-up event has been handled) is the hardest case, so it gets a third of the draws instead
 * of 1 in maxMs + 1.
 */
export function crashDelay(random: () => number, maxMs = 60, zeroShare = 1 / 3): number {
  if (random() < zeroShare) return 0;
  return Math.floor(random() * (maxMs + 1));
}

/** An integer from min to max inclusive. */
export function intBetween(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
