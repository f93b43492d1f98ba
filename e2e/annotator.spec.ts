/**
 * The annotator with the real mouse on the demo clip "peeling potato (demo 2)" (640x360, empty gt).
 * Pixel counts are read from the stored layers (actArea / trfArea are computed by the store from
 * the RLE it saved). Brush size 16 (radius 8): a straight stroke of length L covers a capsule of
 * 16 L + pi 64 pixels; rasterising its edge on the pixel grid moves the count by less than half its
 * perimeter, so we accept 3 % (measured error is well under 1 %).
 */
import { test, expect, type Page } from '@playwright/test';
import { readRows } from './helpers/store';
import { clickAt, drag, openEditor, waitSaved } from './helpers/editor';

interface LayerRow { clipId: string; frameIndex: number; source: string; actArea: number; trfArea: number }
interface FrameRow { clipId: string; index: number; phase?: string; ignored?: { reason: string } }
interface ClipRow { id: string; name: string }

const CLIP = 'peeling potato (demo 2)';
const capsule = (length: number, r = 8) => 2 * r * length + Math.PI * r * r;

async function clipId(page: Page): Promise<string> {
  return (await readRows<ClipRow>(page, 'clips')).find((c) => c.name === CLIP)!.id;
}

async function areas(page: Page, frame: number): Promise<{ act: number; trf: number }> {
  const id = await clipId(page);
  const row = (await readRows<LayerRow>(page, 'layers')).find((l) => l.clipId === id && l.source === 'gt' && l.frameIndex === frame);
  return { act: row?.actArea ?? 0, trf: row?.trfArea ?? 0 };
}

function near(actual: number, expected: number, tolerance = 0.03) {
  expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(expected * tolerance);
}

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
});

test('brush, eraser and polygon paint the geometry they were given, and it is stored', async ({ page }) => {
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 100, 100, 300, 100); // actionable, L = 200
  await page.keyboard.press('2');
  await drag(page, 100, 200, 250, 200); // transformed, L = 150
  await waitSaved(page);
  let a = await areas(page, 0);
  near(a.act, capsule(200));
  near(a.trf, capsule(150));

  // Erase the middle of the actionable stroke (the eraser erases whatever it covers; protect governs painting).
  await page.keyboard.press('1');
  await page.keyboard.press('e');
  await drag(page, 150, 100, 200, 100);
  await waitSaved(page);
  a = await areas(page, 0);
  near(a.act, capsule(200) - capsule(50));
  near(a.trf, capsule(150));

  // A 100 x 100 transformed square with the polygon tool, closed on its first point.
  await page.keyboard.press('2');
  await page.keyboard.press('p');
  for (const [x, y] of [[400, 150], [500, 150], [500, 250], [400, 250], [400, 150]]) await clickAt(page, x, y);
  await waitSaved(page);
  a = await areas(page, 0);
  near(a.trf, capsule(150) + 100 * 100, 0.02);
  await expect(page.getByTestId('frame-areas')).toContainText(`${a.trf} transformed px`);
  await expect(page.getByTestId('timeline-frame').first()).toHaveAttribute('data-state', 'annotated');
});

test('phases, ignores, and undo / redo across frame switches and a reload', async ({ page }) => {
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 100, 100, 200, 100); // frame 1: actionable stroke
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 2 / 20');
  await page.keyboard.press('2');
  await drag(page, 100, 150, 300, 150); // frame 2: transformed stroke
  await page.getByRole('button', { name: 'transitioning' }).click();

  // Back to frame 1 and undo its stroke; then frame 2: undo and redo.
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 1 / 20');
  await page.keyboard.press('Control+z');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Control+z'); // right after the switch: acts on frame 2, not frame 1
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 2 / 20');
  await waitSaved(page);
  expect(await areas(page, 0)).toEqual({ act: 0, trf: 0 });
  expect((await areas(page, 1)).trf).toBe(0);
  await page.keyboard.press('Control+Shift+z');
  await waitSaved(page);
  near((await areas(page, 1)).trf, capsule(200));

  // Frame 3 is the end state; frame 4 is ignored as too blurry.
  await page.keyboard.press('ArrowRight');
  await page.getByRole('button', { name: 'end', exact: true }).click();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('i');
  await page.getByLabel(/Why is frame 4 ignored/).selectOption('too_blurry');
  await page.getByRole('button', { name: 'Ignore frame', exact: true }).click();
  await expect(page.getByTestId('ignored-banner')).toContainText('Too blurry');

  await page.reload();
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 4 / 20');
  const id = await clipId(page);
  const frames = (await readRows<FrameRow>(page, 'frames')).filter((f) => f.clipId === id).sort((x, y) => x.index - y.index);
  expect(frames.slice(0, 4).map((f) => f.phase ?? null)).toEqual([null, 'transitioning', 'end', null]);
  expect(frames[3].ignored?.reason).toBe('too_blurry');
  await expect(page.getByTestId('timeline-frame').nth(3)).toHaveAttribute('data-state', 'ignored');
  await expect(page.getByTestId('timeline-frame').nth(1)).toHaveAttribute('data-phase', 'transitioning');

  // The history survived the reload: frame 2's stroke can still be undone and redone.
  await page.getByTestId('timeline-frame').nth(1).click();
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 2 / 20');
  await page.keyboard.press('Control+z');
  await waitSaved(page);
  expect((await areas(page, 1)).trf).toBe(0);
  await page.keyboard.press('Control+y');
  await waitSaved(page);
  near((await areas(page, 1)).trf, capsule(200));
});

test('closing the page mid-stroke loses only that stroke; every finished stroke is stored within a second', async ({ page, context }) => {
  await openEditor(page, CLIP);
  const url = page.url();
  await page.keyboard.press('1');
  await drag(page, 100, 100, 300, 100); // a finished gesture, written right after pointer-up
  await waitSaved(page);
  const p = await (await import('./helpers/editor')).imageToScreen(page, 100, 250);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down(); // a stroke in progress…
  await page.mouse.move(p.x + 150, p.y, { steps: 5 });
  await page.close({ runBeforeUnload: true }); // …when the tab goes away

  const again = await context.newPage();
  await again.goto(url);
  await expect(again.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
  const a = await areas(again, 0);
  // The finished stroke is there; the one in progress is either absent or, if the tab's last flush caught it, complete.
  expect(a.act).toBeGreaterThanOrEqual(capsule(200) * 0.97);
  expect(a.act).toBeLessThanOrEqual((capsule(200) + capsule(150)) * 1.03);

  // No flush at all (as in a crash): a finished gesture reaches IndexedDB within a second by itself.
  await again.getByRole('button', { name: 'Actual pixels (1:1)' }).click();
  await again.keyboard.press('2');
  await drag(again, 100, 300, 200, 300);
  await again.waitForTimeout(1000);
  const observer = await context.newPage(); // reads the database while the editor tab stays open and untouched
  await observer.goto('/');
  near((await areas(observer, 0)).trf, capsule(100));
});

test('a second tab opens the clip read-only and cannot change it', async ({ page, context }) => {
  await openEditor(page, CLIP);
  const second = await context.newPage();
  await second.goto(page.url());
  await expect(second.getByTestId('read-only')).toBeVisible();
  await expect(second.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
  await second.getByRole('button', { name: 'Actual pixels (1:1)' }).click();
  await drag(second, 100, 100, 300, 100);
  await second.waitForTimeout(1200);
  expect(await areas(second, 0)).toEqual({ act: 0, trf: 0 });

  // The first tab still edits.
  await page.bringToFront();
  await drag(page, 100, 100, 300, 100);
  await waitSaved(page);
  near((await areas(page, 0)).act, capsule(200));
});

test('instances: tag two painted regions as #1 and #2; the tags are stored and come back after a reload', async ({ page }) => {
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 100, 100, 200, 100);
  await drag(page, 100, 250, 200, 250);
  await page.keyboard.press('t');
  await clickAt(page, 150, 100);
  await page.keyboard.press('.');
  await expect(page.getByTestId('instance-id')).toHaveText('#2');
  await clickAt(page, 150, 250);
  await clickAt(page, 400, 320); // background: no tag
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-instances', '1,2');
  await waitSaved(page);
  const id = await clipId(page);
  const row = (await readRows<LayerRow & { instances?: { tags: { id: number }[] } }>(page, 'layers')).find((l) => l.clipId === id && l.frameIndex === 0 && l.source === 'gt');
  expect(row?.instances?.tags.map((t) => t.id)).toEqual([1, 2]);
  near(row!.actArea, 2 * capsule(100)); // tagging painted nothing

  await page.reload();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-instances', '1,2');
});
