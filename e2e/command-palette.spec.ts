/**
 * The command palette (Ctrl+K) on the demo clip "peeling potato (demo 2)": a disabled command is
 * listed greyed with its reason and does not run; "go to frame 12" goes there; "Set phase" writes
 * the frame row's phase (read back from IndexedDB); "Submit for review" takes the same path as the
 * review bar's button (the blank-frames warning, then the stored clip status); the shortcut sheet
 * lists reviewer mode's keys from the same action table, and those keys run those actions.
 */
import { test, expect, type Page } from '@playwright/test';
import { readRows } from './helpers/store';
import { openEditor } from './helpers/editor';

const CLIP = 'peeling potato (demo 2)';

async function palette(page: Page, query: string) {
  await page.keyboard.press('Control+k');
  const input = page.getByRole('textbox', { name: 'Command' });
  await expect(input).toBeFocused();
  await input.fill(query);
  return input;
}

test('palette: disabled commands with reasons, go to frame, set phase, submit; reviewer keys in the sheet', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  await openEditor(page, CLIP);
  const clipId = (await readRows<{ id: string; name: string }>(page, 'clips')).find((c) => c.name === CLIP)!.id;

  // "undo" on a fresh frame: Undo is there, greyed, with the reason, and Enter does not run it.
  const input = await palette(page, 'undo');
  const undo = page.getByTestId('palette-entry').filter({ hasText: 'Undo' });
  await expect(undo).toHaveCount(1);
  await expect(undo).toHaveAttribute('aria-disabled', 'true');
  await expect(undo.getByTestId('palette-reason')).toHaveText('— nothing to undo');
  await expect(page.getByText('No command matches.')).toHaveCount(0);
  await input.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible();
  await input.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Command palette' })).toHaveCount(0);

  // Go to frame 12, typed as a user would.
  await palette(page, 'go to frame 12');
  await expect(page.getByTestId('palette-entry').first()).toHaveText(/Go to frame 12/);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 12 / 20');
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '11');
  // ":3" too.
  await palette(page, ':3');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 3 / 20');

  // Set phase through the palette: the stored frame row says so.
  const phaseOf = async (k: number) => (await readRows<{ clipId: string; index: number; phase?: string }>(page, 'frames')).find((f) => f.clipId === clipId && f.index === k)?.phase ?? null;
  expect(await phaseOf(2)).toBeNull();
  await palette(page, 'phase transitioning');
  await expect(page.getByTestId('palette-entry')).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect.poll(() => phaseOf(2)).toBe('transitioning');
  await palette(page, 'set phase end');
  await page.getByTestId('palette-entry').filter({ hasText: 'Set phase: end' }).click();
  await expect.poll(() => phaseOf(2)).toBe('end');

  // Reviewer mode's commands are listed while it is off, disabled with the reason.
  await palette(page, 'accept frame');
  await expect(page.getByTestId('palette-entry')).toHaveAttribute('data-disabled', 'reviewer mode is off');
  await page.keyboard.press('Escape');

  // The shortcut sheet lists the reviewer keys from the same table.
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  const keyOf = (id: string) => sheet.locator(`[data-testid="shortcut"][data-id="${id}"] dd`);
  await expect(keyOf('review.nextUnreviewed')).toHaveText('J');
  await expect(keyOf('review.previousUnreviewed')).toHaveText('Shift+J');
  await expect(keyOf('review.accept')).toHaveText('A');
  await expect(keyOf('review.reject')).toHaveText('R');
  await expect(keyOf('review.annotatorVersion')).toHaveText('V');
  await expect(keyOf('review.diff')).toHaveText('D');
  await expect(keyOf('review.worstNext')).toHaveText('W');
  await expect(keyOf('assist.proposals')).toHaveText('Shift+A');
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);

  // Lifecycle steps not possible now say why (setting a phase started the work).
  await palette(page, 'approve clip');
  await expect(page.getByTestId('palette-entry').filter({ hasText: 'Approve clip' })).toHaveAttribute('data-disabled', 'not while the clip is “in progress”');
  await page.keyboard.press('Escape');

  // Submit through the palette: the blank frames are listed first, as with the button; then stored.
  await palette(page, 'submit');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('submit-warning')).toBeVisible();
  await page.getByRole('button', { name: 'Submit anyway' }).click();
  await expect.poll(async () => (await readRows<{ id: string; status: string }>(page, 'clips')).find((c) => c.id === clipId)?.status).toBe('submitted');
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-status', 'submitted');

  // Reviewer mode from the palette; then its key A (the same action) records a verdict.
  await palette(page, 'reviewer mode');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('reviewer-panel')).toBeVisible();
  await page.keyboard.press('a');
  await expect
    .poll(async () => (await readRows<{ clipId: string; frameIndex: number; verdict: string }>(page, 'frameVerdicts')).filter((v) => v.clipId === clipId).map((v) => [v.frameIndex, v.verdict]))
    .toEqual([[2, 'accept']]);
});
