/**
 * A project bundle moves a whole project between browser profiles: paint and set a phase in the
 * demo project, export it (the download), import it into a FRESH context (empty IndexedDB), and find
 * every object store identical — clips, frames, masks (layer RLEs), the revision log with its seq
 * numbers, review flags, the review lifecycle log (a submit) and comments, project-scoped meta — blobs equal in size and type, and a frame's pixels
 * equal when the browser decodes them.
 */
import { test, expect, type Page } from '@playwright/test';
import { readRows, storedFramePixels } from './helpers/store';
import { clickAt, drag, openEditor, waitSaved } from './helpers/editor';

const CLIP = 'peeling potato (demo 2)';
/** Every table of the store; meta is compared for project-scoped keys (app-level ones stay per browser). */
const STORES = ['projects', 'clips', 'frames', 'frameImages', 'thumbnails', 'layers', 'revisions', 'reviewFlags', 'clipEvents', 'comments', 'meta'];

interface Row {
  [k: string]: unknown;
}

async function everyStore(page: Page): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const store of STORES) {
    const rows = await readRows<Row>(page, store).catch(() => [] as Row[]);
    out[store] = store === 'meta' ? rows.filter((r) => String(r.key).startsWith('project.')) : rows;
  }
  return out;
}

test('export a bundle in one profile and import it into a fresh one: every store identical', async ({ page, browser, baseURL }) => {
  // Use the download path (the File System Access picker cannot be driven headless).
  await page.addInitScript(() => {
    delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  const projectUrl = page.url();
  const name = page.getByLabel('Your name');
  await name.fill('ann');
  await name.press('Tab');
  await expect.poll(async () => (await readRows<{ key: string; value: unknown }>(page, 'meta')).find((m) => m.key === 'user.name')?.value).toBe('ann');

  // A little work: two strokes and a phase on the demo clip that has no ground truth yet.
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 100, 100, 220, 120);
  await page.keyboard.press('2');
  await drag(page, 300, 200, 380, 200);
  await page.getByRole('button', { name: 'transitioning' }).click();
  await waitSaved(page);
  // Review work: the clip submitted (a lifecycle event), and a comment pinned to the frame.
  await page.getByTestId('review-bar').getByRole('button', { name: 'Submit for review', exact: true }).click();
  await page.getByTestId('submit-warning').getByRole('button', { name: 'Submit anyway' }).click(); // 19 blank frames
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-status', 'submitted');
  if (await page.getByTestId('review-panel-open').isVisible()) await page.getByTestId('review-panel-open').click();
  await page.getByRole('button', { name: 'Add comment' }).click();
  await clickAt(page, 120, 125);
  await page.getByLabel(/Comment on frame \d+ at \(\d+, \d+\)/).fill('check the left edge');
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(page.getByTestId('comment').filter({ hasText: 'check the left edge' })).toBeVisible();

  await page.goto(projectUrl);
  await expect(page.getByTestId('clip-card')).toHaveCount(3);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export bundle' }).click()]);
  expect(download.suggestedFilename()).toBe('Demo_ object state changes.spoc.zip');
  const bundlePath = await download.path();
  const original = await everyStore(page);
  const clip = (original.clips as { id: string; name: string }[]).find((c) => c.name === CLIP)!;
  expect((original.revisions as { clipId: string }[]).filter((r) => r.clipId === clip.id).length).toBeGreaterThanOrEqual(2);
  expect((original.frames as { clipId: string; phase?: string }[]).some((f) => f.clipId === clip.id && f.phase === 'transitioning')).toBe(true);
  expect((original.clipEvents as { clipId: string; action: string; by: string }[]).filter((e) => e.clipId === clip.id)).toMatchObject([{ action: 'submit', by: 'ann' }]);
  expect((original.comments as { clipId: string; text: string }[]).filter((c) => c.clipId === clip.id)).toMatchObject([{ text: 'check the left edge' }]);

  // A fresh profile: empty IndexedDB.
  const fresh = await browser.newContext({ baseURL });
  const other = await fresh.newPage();
  await other.goto('/');
  await expect(other.getByTestId('welcome')).toBeVisible();
  await other.getByTestId('import-bundle').setInputFiles(bundlePath);
  await expect(other.getByTestId('project-name')).toHaveText('Demo: object state changes', { timeout: 60_000 });
  await expect(other.getByTestId('clip-card')).toHaveCount(3);

  const imported = await everyStore(other);
  for (const store of STORES) expect(imported[store], `store ${store}`).toEqual(original[store]);
  expect(original.frameImages.length).toBe(60);

  // The images are the same bytes: the browser decodes the same pixels.
  const region = { x: 200, y: 120, w: 64, h: 48 };
  const a = await storedFramePixels(page, clip.id, 3, region);
  const b = await storedFramePixels(other, clip.id, 3, region);
  expect(b.imageWidth).toBe(640);
  expect(b.data).toEqual(a.data);

  // The imported history is live: the editor opens on the same masks.
  await openEditor(other, CLIP);
  await expect(other.getByTestId('frame-areas')).toContainText('transformed px');
  await fresh.close();
});

test('importing a bundle into the project it came from: identical clips are skipped, different ones asked about', async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  const projectUrl = page.url();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export bundle' }).click()]);
  const bundlePath = await download.path();

  // Unchanged: everything is recognised.
  await page.getByTestId('import-bundle').setInputFiles(bundlePath);
  await expect(page.getByText(/: 3 already here\./)).toBeVisible();

  // Paint after the export, then import the older bundle: the dialog asks; keep both.
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 100, 100, 200, 100);
  await waitSaved(page);
  await page.goto(projectUrl);
  await page.getByTestId('import-bundle').setInputFiles(bundlePath);
  const dialog = page.getByTestId('bundle-conflict');
  await expect(dialog).toContainText(`“${CLIP}” differs from the bundle`);
  await expect(dialog).toContainText('Your clip continues the history in the bundle');
  await dialog.getByRole('button', { name: /^Keep mine$/ }).click();
  await expect(page.getByText(/2 already here, 1 kept yours/)).toBeVisible();
  const clips = await readRows<{ id: string; name: string }>(page, 'clips');
  const id = clips.find((c) => c.name === CLIP)!.id;
  const gt = (await readRows<{ clipId: string; source: string; actArea: number }>(page, 'layers')).filter((l) => l.clipId === id && l.source === 'gt');
  expect(gt.some((l) => l.actArea > 0)).toBe(true);
});
