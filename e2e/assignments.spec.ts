/**
 * The assignment board on the demo project (3 clips, nobody assigned), in real Chromium: a bulk
 * assignment gives the clips the filters show to one person in one go (stored on every clip row),
 * the board counts people × status, and a count filters the dashboard to exactly those clips.
 */
import { test, expect } from '@playwright/test';
import { readRows } from './helpers/store';

interface ClipRow { id: string; name: string; assignee?: string; status: string }

test('bulk assignment from the board, and its counts as filters', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });

  const board = page.getByTestId('assignment-board');
  await board.locator('summary').click();
  await expect(board.getByTestId('assignment-row')).toHaveCount(1);
  await expect(board.getByTestId('assignment-row').first()).toHaveAttribute('data-person', '');

  // Two of the three clips shown (search), given to ann.
  await page.getByLabel('Search clips').fill('demo');
  const shown = await page.getByTestId('clip-card').count();
  await page.getByLabel('Search clips').fill('potato');
  const potatoes = await page.getByTestId('clip-card').count();
  expect(potatoes).toBeGreaterThan(0);
  expect(potatoes).toBeLessThan(shown);
  await board.getByLabel('Assignee').fill('ann');
  await expect(board.getByTestId('assignment-summary')).toHaveText(`Give ${potatoes} clip${potatoes === 1 ? '' : 's'} of the ${potatoes} clip${potatoes === 1 ? '' : 's'} shown to ann.`);
  await board.getByRole('button', { name: 'Assign' }).click();

  await expect.poll(async () => (await readRows<ClipRow>(page, 'clips')).filter((c) => c.assignee === 'ann').length).toBe(potatoes);
  const rows = await readRows<ClipRow>(page, 'clips');
  for (const c of rows) expect(c.assignee === 'ann').toBe(c.name.includes('potato'));

  // The board: ann's row counts her clips; clicking the count shows exactly them.
  const annRow = board.locator('[data-testid="assignment-row"][data-person="ann"]');
  await expect(annRow.locator('td').last()).toHaveText(String(potatoes));
  await page.getByLabel('Search clips').fill('');
  await annRow.locator('td').last().getByRole('button').click();
  await expect(page.getByTestId('clip-card')).toHaveCount(potatoes);
  await expect(page.getByLabel('Filter by person')).toHaveValue('ann');

  // Nobody's row filters to the rest; unassigning them all leaves every clip with nobody.
  await board.locator('[data-testid="assignment-row"][data-person=""]').locator('td').last().getByRole('button').click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3 - potatoes);
  await page.getByLabel('Filter by person').selectOption('all');
  await board.getByLabel('Assignee').fill('');
  await board.getByRole('button', { name: 'Assign' }).click();
  await expect.poll(async () => (await readRows<ClipRow>(page, 'clips')).filter((c) => c.assignee !== undefined).length).toBe(0);
});
