/**
 * Quota full (issue 3): edits waiting on a failed save are neither thrown away silently nor lost.
 * With the origin's quota squeezed to its usage, saving fails and the app says so; a reload with
 * edits still unsaved raises a beforeunload prompt; after a relaunch with space freed, every stroke
 * is stored (the app replays its journal of pending edits). The app gives up its journal reserve
 * to keep the failed edits, which often lets the retried save through: then nothing is unsaved at
 * the reload and no prompt is due.
 */
import { test, expect } from '@playwright/test';
import { runQuotaFull } from './durability/quotaRun';
import { seedFromEnv } from './durability/seededRandom';
import { describeLost } from './durability/runResult';

test('with the quota full: saving fails visibly, a reload warns, and every stroke is stored once there is space', async ({ baseURL }) => {
  test.setTimeout(180_000);
  const result = await runQuotaFull({ baseURL: baseURL!, seed: seedFromEnv(), log: (line) => console.log(`  ${line}`) });
  for (const note of result.notes) console.log(`  note: ${note}`);
  expect(result.saveFailed, 'saving never failed with the quota full: the run proves nothing').toBe(true);
  console.log(`  the reload came with the save state "${result.stateBeforeReload}" (${result.retriesBeforeReload} failed attempts) and ${result.reloadDialogs.length ? result.reloadDialogs.join(', ') : 'no dialog'}`);
  // A prompt is due exactly while a save is failing (an error, or a retry in flight); a first
  // write in flight commits even as the page goes, so it needs none.
  const due = result.stateBeforeReload === 'error' || result.retriesBeforeReload > 0;
  expect(result.reloadDialogs.includes('beforeunload'), due ? 'a reload with a failing save must raise a beforeunload prompt' : 'a prompt although no save was failing').toBe(due);
  expect(result.lost.length, `strokes lost:\n${describeLost(result).join('\n')}`).toBe(0);
  expect(result.storedAfter).toBe(result.strokes.length);
});
