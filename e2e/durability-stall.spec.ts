/**
 * IndexedDB stops answering (a transaction held open, as another tab or a full disk can leave one):
 * the page says so and asks before a reload, catches up once the database answers again, and a
 * browser killed while it never answers loses no stroke. (e2e/durability/stallRun.ts has the steps.)
 */
import { test, expect } from '@playwright/test';
import { runStall } from './durability/stallRun';
import { seedFromEnv } from './durability/seededRandom';
import { describeLost } from './durability/runResult';

test('a database that stops answering: the page says so, catches up after, and a kill meanwhile loses nothing', async ({ baseURL }) => {
  test.setTimeout(180_000);
  const result = await runStall({ baseURL: baseURL!, seed: seedFromEnv(), log: (line) => console.log(`  ${line}`) });
  expect(result.stallShown, 'the save indicator must say saving is not answering, both times').toEqual([true, true]);
  expect(result.notice ?? '').toContain('kept in the crash journal');
  expect(result.promptWhileStalled, 'a reload while a write goes unanswered must ask first').toBe(true);
  expect(result.savedAfterRelease, 'once the database answers, every edit must be saved').toBe(true);
  expect(result.storedAfterRelease).toBe(4);
  expect(result.lost.length, `strokes lost:\n${describeLost(result).join('\n')}`).toBe(0);
  expect(result.strokes).toHaveLength(7);
});
