/**
 * Crash durability, sampled for CI: a finished stroke must survive a SIGKILL of the whole browser
 * at any instant after pointer-up, the very tick mouse.up() resolves in included (a third of the
 * kills): the stroke's input is in the store before its pointer-up, and the next start finishes it
 * (docs/durability.md, "Strokes in progress"). 12 kills with 1–3 strokes each on one persistent
 * profile; `npm run soak` runs 100. Reproduce a failure with the seed it prints:
 * SPOC_DURABILITY_SEED=<seed>.
 */
import { test, expect } from '@playwright/test';
import { runKills } from './durability/killCycles';
import { seedFromEnv } from './durability/seededRandom';
import { describeLost } from './durability/runResult';

const KILLS = Number(process.env.SPOC_DURABILITY_KILLS ?? 12);

test('no finished stroke is lost when the browser is SIGKILLed 0–60 ms after pointer-up', async ({ baseURL }, info) => {
  test.setTimeout(240_000);
  const seed = seedFromEnv();
  info.annotations.push({ type: 'seed', description: String(seed) });
  console.log(`durability-kill: seed ${seed} (rerun with SPOC_DURABILITY_SEED=${seed})`);
  const result = await runKills({ baseURL: baseURL!, kills: KILLS, seed, minDelayMs: 0, log: (line) => console.log(`  ${line}`) });
  for (const note of result.notes) console.log(`  note: ${note}`);
  console.log(`durability-kill: ${result.cycles} kills, ${result.strokes.length} strokes, ${result.lost.length} lost, ${(result.ms / 1000).toFixed(1)} s`);
  expect(result.lost.length, `strokes lost (seed ${seed}):\n${describeLost(result).join('\n')}`).toBe(0);
  expect(result.strokes.length).toBeGreaterThanOrEqual(KILLS);
});
