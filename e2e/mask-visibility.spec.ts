/**
 * Whether the gt masks show: the toggle key (H) and what the review's views ask, one derived fact
 * (src/annotator/masksShown.ts). Checked on screen (the mask layer's pixels) and on the view's
 * data-masks, with the real keyboard in Chromium: H hides and shows; the annotator's version hides
 * them, H still shows them under it, and coming back (or viewing it again) starts from what each
 * view asks, not from a choice made under another.
 *
 * The demo clip "peeling potato (demo 2)" is 640x360, 20 frames, with an empty gt.
 */
import { test, expect, type Page } from '@playwright/test';
import { drag, imageToScreen, openEditor, waitSaved } from './helpers/editor';

const CLIP = 'peeling potato (demo 2)';

/** Alpha of the mask layer (the canvas view's second Konva layer) at an image point. */
async function maskAlpha(page: Page, x: number, y: number): Promise<number> {
  const p = await imageToScreen(page, x, y);
  const box = (await page.getByTestId('editor-canvas').boundingBox())!;
  return page.evaluate(
    ({ x, y }) => {
      const canvases = document.querySelectorAll<HTMLCanvasElement>('[data-testid="editor-canvas"] canvas');
      return canvases[1].getContext('2d')!.getImageData(x, y, 1, 1).data[3];
    },
    { x: Math.round(p.x - box.x), y: Math.round(p.y - box.y) },
  );
}

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
});

test('H hides and shows the masks; the annotator\'s version hides them, and each view starts from what it asks', async ({ page }) => {
  await openEditor(page, CLIP);
  const canvas = page.getByTestId('editor-canvas');
  const hide = page.getByRole('button', { name: 'Hide / show masks' });
  await page.keyboard.press('1');
  await drag(page, 100, 150, 300, 150);
  await waitSaved(page);
  await expect(canvas).toHaveAttribute('data-masks', 'shown');
  await expect.poll(() => maskAlpha(page, 200, 150)).toBeGreaterThan(0);
  await expect(hide).toHaveAttribute('aria-pressed', 'false');

  // The toggle, from the keyboard.
  await page.keyboard.press('h');
  await expect(canvas).toHaveAttribute('data-masks', 'hidden');
  await expect.poll(() => maskAlpha(page, 200, 150)).toBe(0);
  await expect(hide).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('h');
  await expect(canvas).toHaveAttribute('data-masks', 'shown');
  await expect.poll(() => maskAlpha(page, 200, 150)).toBeGreaterThan(0);

  // Reviewer mode: the annotator's version (V) takes the masks' place; H still shows them under it.
  await page.getByRole('button', { name: 'Reviewer mode' }).click();
  await expect(page.getByTestId('reviewer-panel')).toBeVisible();
  await expect(canvas).toHaveAttribute('data-masks', 'shown');
  await page.keyboard.press('v');
  await expect(page.getByTestId('annotator-version-readonly')).toBeVisible();
  await expect(canvas).toHaveAttribute('data-masks', 'hidden');
  await page.keyboard.press('h');
  await expect(canvas).toHaveAttribute('data-masks', 'shown');
  // Back: the gt view asks for the masks; viewing the annotator's version again hides them anew.
  await page.keyboard.press('v');
  await expect(page.getByTestId('annotator-version-readonly')).toHaveCount(0);
  await expect(canvas).toHaveAttribute('data-masks', 'shown');
  await page.keyboard.press('h');
  await expect(canvas).toHaveAttribute('data-masks', 'hidden');
  await page.keyboard.press('v');
  await expect(canvas).toHaveAttribute('data-masks', 'hidden');
  await page.keyboard.press('h');
  await expect(canvas).toHaveAttribute('data-masks', 'shown');
  await page.keyboard.press('v');
  await expect(canvas).toHaveAttribute('data-masks', 'shown');
  await expect.poll(() => maskAlpha(page, 200, 150)).toBeGreaterThan(0);

  // Leaving reviewer mode does not change the view (gt): the choice made under it holds.
  await page.keyboard.press('h');
  await expect(canvas).toHaveAttribute('data-masks', 'hidden');
  await page.getByRole('button', { name: 'Reviewer mode' }).click();
  await expect(page.getByTestId('reviewer-panel')).toHaveCount(0);
  await expect(canvas).toHaveAttribute('data-masks', 'hidden');
});
