/**
 * Two tabs (docs/durability.md): a second tab must not overwrite the clip another tab is editing.
 *
 * Two pages of one browser context share one IndexedDB and one set of Web Locks, like two tabs.
 * Tab A edits a clip; tab B tries to replace it from a bundle ("take theirs") and to change its
 * status: both are refused with a message naming the clip, and the store is left as it was. A tab
 * whose writes slip past the lock (here: one without Web Locks, standing for an older version of the
 * app) is noticed by the editing tab, which reloads the clip instead of writing its stale copy back.
 */
import { test, expect, type Page, type TestInfo } from '@playwright/test';
import { readRows } from './helpers/store';
import { drag, openEditor, waitSaved } from './helpers/editor';

const CLIP = 'peeling potato (demo 2)';
const BUSY = `"${CLIP}" is open for editing in another tab; close it there (or finish) and try again. Nothing was changed.`;

interface ClipRow {
  id: string;
  name: string;
  status: string;
}
interface LayerRow {
  clipId: string;
  frameIndex: number;
  source: string;
  actArea: number;
}
interface RevisionRow {
  seq: number;
  clipId: string;
  source: string;
}

/** The rows of the clip that a replacement or a status change would touch. */
async function clipState(page: Page, clipId: string) {
  const [clips, layers, revisions, events] = await Promise.all([
    readRows<ClipRow>(page, 'clips'),
    readRows<LayerRow>(page, 'layers'),
    readRows<RevisionRow>(page, 'revisions'),
    readRows<{ clipId: string }>(page, 'clipEvents'),
  ]);
  return {
    clip: clips.find((c) => c.id === clipId),
    layers: layers.filter((l) => l.clipId === clipId),
    revisions: revisions.filter((r) => r.clipId === clipId).map((r) => r.seq),
    events: events.filter((e) => e.clipId === clipId).length,
  };
}

/** The demo project, exported as a bundle before any work: the bundle's CLIP has no gt yet. */
async function demoWithBundle(page: Page, info: TestInfo): Promise<{ projectUrl: string; bundlePath: string; clipId: string }> {
  await page.addInitScript(() => {
    delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  const projectUrl = page.url();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export bundle' }).click()]);
  // Under its own name, as a person would pick it: messages name the bundle.
  const bundlePath = info.outputPath(download.suggestedFilename());
  await download.saveAs(bundlePath);
  const clipId = (await readRows<ClipRow>(page, 'clips')).find((c) => c.name === CLIP)!.id;
  return { projectUrl, bundlePath, clipId };
}

async function gtArea(page: Page, clipId: string, frame: number): Promise<number> {
  return (await readRows<LayerRow>(page, 'layers')).find((l) => l.clipId === clipId && l.source === 'gt' && l.frameIndex === frame)?.actArea ?? 0;
}

test('while tab A edits a clip, tab B can neither replace it from a bundle nor change its status', async ({ page, context }, info) => {
  const { projectUrl, bundlePath, clipId } = await demoWithBundle(page, info);

  // Tab A paints on the clip after the export, so the bundle differs from it.
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 100, 100, 200, 100);
  await waitSaved(page);
  const before = await clipState(page, clipId);
  expect(before.revisions.length).toBeGreaterThan(0);

  // Tab B: import the old bundle and take theirs for that clip.
  const b = await context.newPage();
  await b.goto(projectUrl);
  await expect(b.getByTestId('clip-card')).toHaveCount(3);
  await b.getByTestId('import-bundle').setInputFiles(bundlePath);
  const dialog = b.getByTestId('bundle-conflict');
  await expect(dialog).toContainText(`“${CLIP}” differs from the bundle`);
  await dialog.getByRole('button', { name: 'Take theirs' }).click();
  await expect(b.getByRole('alert').filter({ hasText: `Demo_ object state changes.spoc.zip: ${BUSY}` })).toBeVisible();
  expect(await clipState(b, clipId)).toEqual(before);

  // Tab B opens the clip (read-only) and tries a review step: refused, nothing written.
  await b.goto(page.url());
  await expect(b.getByTestId('read-only')).toBeVisible();
  await b.getByTestId('review-bar').getByRole('button', { name: 'Submit for review', exact: true }).click();
  await b.getByTestId('submit-warning').getByRole('button', { name: 'Submit anyway' }).click(); // the clip has blank frames
  await expect(b.getByRole('alert').filter({ hasText: `Cannot take the step "Submit for review": ${BUSY}` })).toBeVisible();
  await expect(b.getByTestId('clip-status')).toHaveAttribute('data-status', before.clip!.status);
  expect(await clipState(b, clipId)).toEqual(before);

  // Tab A keeps working, and may take the step itself: it holds the clip.
  await page.bringToFront();
  await drag(page, 100, 200, 200, 200);
  await waitSaved(page);
  await page.getByTestId('review-bar').getByRole('button', { name: 'Submit for review', exact: true }).click();
  await page.getByTestId('submit-warning').getByRole('button', { name: 'Submit anyway' }).click();
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-status', 'submitted');
  const after = await clipState(page, clipId);
  expect(after.revisions.length).toBe(before.revisions.length + 1);

  // Once tab A leaves the clip, tab B's import goes through.
  await page.goto(projectUrl);
  await b.goto(projectUrl);
  await b.getByTestId('import-bundle').setInputFiles(bundlePath);
  await b.getByTestId('bundle-conflict').getByRole('button', { name: 'Take theirs' }).click();
  await expect(b.getByText(/1 replaced by theirs/)).toBeVisible();
  expect(await gtArea(b, clipId, 0)).toBe(0);
});

test('a tab whose write slips past the lock: the editing tab notices, reloads the clip and writes nothing stale', async ({ page, context }, info) => {
  const { projectUrl, bundlePath, clipId } = await demoWithBundle(page, info);

  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 100, 100, 200, 100);
  await waitSaved(page);
  const oneStroke = await gtArea(page, clipId, 0);
  expect(oneStroke).toBeGreaterThan(1000);

  // Tab B without Web Locks (as an older version of the app wrote, or a browser without them):
  // its claim over the BroadcastChannel gets no answer from A, which holds a Web Lock, so B writes.
  const b = await context.newPage();
  await b.addInitScript(() => Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined }));
  await b.goto(projectUrl);
  await b.getByTestId('import-bundle').setInputFiles(bundlePath);
  await b.getByTestId('bundle-conflict').getByRole('button', { name: 'Take theirs' }).click();
  await expect(b.getByText(/1 replaced by theirs/)).toBeVisible();
  expect(await gtArea(b, clipId, 0)).toBe(0);

  // Tab A is told, and shows the stored clip (the bundle's: no gt on frame 1).
  await page.bringToFront();
  await expect(page.getByRole('status').filter({ hasText: `"${CLIP}" was changed outside this editor: its history was replaced` })).toBeVisible();
  await expect(page.getByTestId('frame-areas')).toContainText('0 actionable px');
  await page.getByRole('button', { name: 'Actual pixels (1:1)' }).click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-view', /^1 /);

  // A second stroke elsewhere: frame 1 holds that stroke only, not the first one written back.
  await drag(page, 100, 250, 200, 250);
  await waitSaved(page);
  const area = await gtArea(page, clipId, 0);
  expect(Math.abs(area - oneStroke)).toBeLessThan(oneStroke * 0.05);
  // The revision log tells the same story: undo removes that stroke and leaves an empty frame.
  await page.keyboard.press('Control+z');
  await waitSaved(page);
  expect(await gtArea(page, clipId, 0)).toBe(0);
});
