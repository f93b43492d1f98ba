/**
 * Quota full (issue 3): edits waiting on a failed save are neither thrown away silently nor lost.
 * With the origin's quota squeezed to its usage, saving fails and the app says so; a reload then
 * raises a beforeunload prompt; after a relaunch with space freed, every stroke is stored (the app
 * replays its journal of pending edits).
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
  expect(result.reloadDialogs, 'a reload with unsaved edits must raise a beforeunload prompt').toContain('beforeunload');
  expect(result.lost.length, `strokes lost:\n${describeLost(result).join('\n')}`).toBe(0);
  expect(result.storedAfter).toBe(result.strokes.length);
});
