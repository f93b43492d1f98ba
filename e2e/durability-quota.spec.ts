/**
 * Quota full (docs/durability.md): edits waiting on a failed save are neither thrown away silently nor lost.
 * With the origin's quota squeezed to its usage, saving fails and the app says so. Edits pending
 * when the page is reloaded at once come back from the app's journal; with the room the app could
 * free filled too, saving fails for good and a reload raises a beforeunload prompt, and a person
 * who stays loses nothing once there is room again (a write Chromium leaves unanswered on the full
 * disk is reported, its edits kept, and the reload the page asks for saves them). After a relaunch with space freed every
 * stroke is stored. (e2e/durability/quotaRun.ts has the steps.)
 */
import { test, expect } from '@playwright/test';
import { runQuotaFull } from './durability/quotaRun';
import { seedFromEnv } from './durability/seededRandom';
import { describeLost } from './durability/runResult';

test('with the quota full: saving fails visibly, a reload warns, and every stroke is stored once there is space', async ({ baseURL }) => {
  // A write left unanswered costs the 30 s wait for the page to catch up by itself, then a reload.
  test.setTimeout(360_000);
  const result = await runQuotaFull({ baseURL: baseURL!, seed: seedFromEnv(), log: (line) => console.log(`  ${line}`) });
  expect(result.saveFailed, 'saving never failed with the quota full: the run proves nothing').toBe(true);
  expect(result.failedSteadily, 'saving did not fail steadily with the quota filled: the prompt would go untested').toBe(true);
  expect(result.reloadDialogs, `a reload while a save is failing (state "${result.stateBeforeReload}", ${result.retriesBeforeReload} failed attempts) must ask first`).toEqual(['beforeunload']);
  expect(result.stayed, 'answering "stay" to the prompt must keep the page').toBe(true);
  expect(result.savedAfterRoom, `once there was room again, the page that stayed must save every edit (${result.recovery})`).toBe(true);
  expect(result.lost.length, `strokes lost:\n${describeLost(result).join('\n')}`).toBe(0);
  expect(result.storedAfter).toBe(result.strokes.length);
});
