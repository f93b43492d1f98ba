/**
 * Reload and tab-close durability, sampled for CI (docs/durability.md): a stroke whose pointer-up was handled
 * is stored even when the page is reloaded or the tab closed (without beforeunload) at that very
 * instant. A beforeunload prompt, if the app raises one, is accepted and counted.
 * `npm run soak` runs 40 of each (see docs/durability.md).
 */
import { test, expect } from '@playwright/test';
import { runPageCycles } from './durability/pageCycles';
import { seedFromEnv } from './durability/seededRandom';
import { describeLost } from './durability/runResult';

const CYCLES = Number(process.env.SPOC_DURABILITY_PAGE_CYCLES ?? 8);

for (const mode of ['reload', 'close'] as const) {
  test(`no finished stroke is lost on a ${mode} right after pointer-up`, async ({ baseURL }, info) => {
    test.setTimeout(180_000);
    const seed = seedFromEnv();
    info.annotations.push({ type: 'seed', description: String(seed) });
    const result = await runPageCycles({ baseURL: baseURL!, mode, cycles: CYCLES, seed, log: (line) => console.log(`  ${line}`) });
    console.log(`durability-${mode}: ${result.cycles} cycles, ${result.lost.length} lost, ${result.dialogs} prompts, ${(result.ms / 1000).toFixed(1)} s`);
    expect(result.lost.length, `strokes lost:\n${describeLost(result).join('\n')}`).toBe(0);
  });
}
