/** Drives the editor with the real mouse in image coordinates (the view publishes its transform). */
import { expect, type Page } from '@playwright/test';
import { readRows } from './store';

export async function imageToScreen(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const canvas = page.getByTestId('editor-canvas');
  const box = (await canvas.boundingBox())!;
  const [scale, tx, ty] = (await canvas.getAttribute('data-view'))!.split(' ').map(Number);
  return { x: box.x + tx + x * scale, y: box.y + ty + y * scale };
}

/** A straight drag from (x0, y0) to (x1, y1) in image pixels, in small steps like a hand would. */
export async function drag(page: Page, x0: number, y0: number, x1: number, y1: number, button: 'left' | 'right' = 'left') {
  const a = await imageToScreen(page, x0, y0);
  const b = await imageToScreen(page, x1, y1);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down({ button });
  await page.mouse.move(b.x, b.y, { steps: 20 });
  await page.mouse.up({ button });
}

export async function clickAt(page: Page, x: number, y: number) {
  const p = await imageToScreen(page, x, y);
  await page.mouse.click(p.x, p.y);
}

export async function openEditor(page: Page, clipName: string) {
  await page.getByTestId('clip-card').filter({ hasText: clipName }).click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
  // 1:1 so one screen pixel is one image pixel.
  await page.getByRole('button', { name: 'Actual pixels (1:1)' }).click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-view', /^1 /);
}

export async function waitSaved(page: Page) {
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'idle');
}

/** Becomes `name` (the header field), then reloads an open editor so edits are recorded under it. */
export async function becomeUser(page: Page, name: string) {
  const field = page.getByLabel('Your name');
  await field.fill(name);
  await field.press('Tab');
  await expect.poll(async () => (await readRows<{ key: string; value: unknown }>(page, 'meta')).find((m) => m.key === 'user.name')?.value).toBe(name);
  if (page.url().includes('#/c/')) {
    await page.reload();
    await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
    await page.getByRole('button', { name: 'Actual pixels (1:1)' }).click();
    await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-view', /^1 /);
  }
}
