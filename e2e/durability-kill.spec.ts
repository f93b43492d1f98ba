/**
 * Crash durability, sampled for CI (issue 2): a finished stroke must survive a SIGKILL of the whole
 * browser from 1 ms after pointer-up on (a third of the kills at exactly 1 ms). A kill in the very
 * tick mouse.up() resolves in can beat any storage a page has — measured with a bare page as well —
 * so those are run and reported by `npm run soak` (docs/durability.md), not asserted here.
 * 12 kills with 1–3 strokes each on one persistent profile. Reproduce a failure with the seed it
 * prints: SPOC_DURABILITY_SEED=<seed>.
 */
import { test, expect } from '@playwright/test';
import { runKills } from './durability/killCycles';
import { seedFromEnv } from './durability/seededRandom';
import { describeLost } from './durability/runResult';

const KILLS = Number(process.env.SPOC_DURABILITY_KILLS ?? 12);

test('no finished stroke is lost when the browser is SIGKILLed 1–60 ms after pointer-up', async ({ baseURL }, info) => {
  test.setTimeout(240_000);
  const seed = seedFromEnv();
  info.annotations.push({ type: 'seed', description: String(seed) });
  console.log(`durability-kill: seed ${seed} (rerun with SPOC_DURABILITY_SEED=${seed})`);
  const result = await runKills({ baseURL: baseURL!, kills: KILLS, seed, minDelayMs: 1, log: (line) => console.log(`  ${line}`) });
  for (const note of result.notes) console.log(`  note: ${note}`);
  console.log(`durability-kill: ${result.cycles} kills, ${result.strokes.length} strokes, ${result.lost.length} lost, ${(result.ms / 1000).toFixed(1)} s`);
  expect(result.lost.length, `strokes lost (seed ${seed}):\n${describeLost(result).join('\n')}`).toBe(0);
  expect(result.strokes.length).toBeGreaterThanOrEqual(KILLS);
});
