/**
 * Who did what, and the review gate, on the demo clip "peeling potato (demo 2)" (640x360, 20
 * frames, empty gt), asserting on the rows stored in IndexedDB:
 * (a) renaming yourself in the header while the editor is open credits the next edits to the new
 *     name (revision, layer provenance, ignore) — no reload;
 * (b) the skip-review path (one person, one stroke, submit, start review, approve at once) warns on
 *     submit with the blank frames listed, is refused on approve naming the unreviewed frame count,
 *     and goes through only as an override whose reason is recorded;
 * (c) an approved clip opens read-only with who approved it and when, and Reopen makes it editable;
 * (d) Enter in the name field saves it: a reload right after keeps it;
 * (e) a frame that rightly holds neither state is marked empty beside the canvas, and the submit
 *     warning no longer counts it (the warning spoke of "marked empty" with no way to do it).
 */
import { test, expect, type Page } from '@playwright/test';
import { readRows } from './helpers/store';
import { drag, openEditor, waitSaved, becomeUser } from './helpers/editor';

const CLIP = 'peeling potato (demo 2)';

interface ClipRow { id: string; name: string; status: string }
interface EventRow { seq: number; clipId: string; action: string; from: string; to: string; by: string; note?: string }
interface RevisionRow { seq: number; clipId: string; source: string; frameIndex: number; author: string }
interface LayerRow { clipId: string; source: string; frameIndex: number; provenance: { kind: string; by: string } }
interface FrameRow { clipId: string; index: number; ignored?: { reason: string; by: string }; reviewed?: boolean }

async function clipId(page: Page): Promise<string> {
  return (await readRows<ClipRow>(page, 'clips')).find((c) => c.name === CLIP)!.id;
}
async function eventsOf(page: Page, id: string): Promise<EventRow[]> {
  return (await readRows<EventRow>(page, 'clipEvents')).filter((e) => e.clipId === id).sort((a, b) => a.seq - b.seq);
}
async function gtRevisions(page: Page, id: string): Promise<RevisionRow[]> {
  return (await readRows<RevisionRow>(page, 'revisions')).filter((r) => r.clipId === id && r.source === 'gt').sort((a, b) => a.seq - b.seq);
}
const storedName = async (page: Page) => (await readRows<{ key: string; value: unknown }>(page, 'meta')).find((m) => m.key === 'user.name')?.value;
const bar = (page: Page) => page.getByTestId('review-bar');
const status = (page: Page) => page.getByTestId('clip-status');

/** One person paints one stroke on frame 1, submits past the warning, and starts the review. */
async function oneStrokeInReview(page: Page) {
  await becomeUser(page, 'ann');
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 150, 120, 300, 120);
  await waitSaved(page);
  await bar(page).getByRole('button', { name: 'Submit for review', exact: true }).click();
  await page.getByTestId('submit-warning').getByRole('button', { name: 'Submit anyway' }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'submitted');
  await bar(page).getByRole('button', { name: 'Start review', exact: true }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'in_review');
}

async function approveWithOverride(page: Page, reason: string) {
  await bar(page).getByRole('button', { name: 'Approve with override…' }).click();
  await page.getByLabel(/Why approve without a verdict on every frame/).fill(reason);
  await bar(page).getByRole('button', { name: 'Approve with override', exact: true }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'approved');
}

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
});

test('(a) a rename in the header while the editor is open credits the next edits to the new name', async ({ page }) => {
  await becomeUser(page, 'alice');
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 150, 120, 300, 120);
  await waitSaved(page);

  // bob takes over the open editor: renamed in the header (leaving the field), no reload.
  const field = page.getByLabel('Your name');
  await field.fill('bob');
  await field.press('Tab');
  await expect.poll(() => storedName(page)).toBe('bob');
  await page.keyboard.press('e');
  await drag(page, 200, 120, 250, 120); // bob erases part of alice's stroke
  await waitSaved(page);
  await page.getByRole('button', { name: 'Ignore this frame… (i)' }).click();
  await page.getByRole('button', { name: 'Ignore frame' }).click();
  await expect(page.getByTestId('ignored-banner')).toBeVisible();

  const id = await clipId(page);
  const check = async () => {
    expect((await gtRevisions(page, id)).map((r) => r.author)).toEqual(['alice', 'bob']);
    const layer = (await readRows<LayerRow>(page, 'layers')).find((l) => l.clipId === id && l.source === 'gt' && l.frameIndex === 0)!;
    expect(layer.provenance).toMatchObject({ kind: 'manual', by: 'bob' });
    const frame = (await readRows<FrameRow>(page, 'frames')).find((f) => f.clipId === id && f.index === 0)!;
    expect(frame.ignored?.by).toBe('bob');
  };
  await check();
  // And so it stays after a reload (the rows were written with the right name).
  await page.reload();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
  await expect(page.getByLabel('Your name')).toHaveValue('bob');
  await check();
});

test('(b) approving at once with 0 frames reviewed is refused; an override with a reason goes through and is recorded', async ({ page }) => {
  await becomeUser(page, 'ann');
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 150, 120, 300, 120);
  await waitSaved(page);

  // Submitting warns and lists the blank frames; "Keep annotating" leaves the clip as it was.
  await bar(page).getByRole('button', { name: 'Submit for review', exact: true }).click();
  const warning = page.getByTestId('submit-warning');
  await expect(warning).toContainText('19 frames (2–20) are not annotated, ignored or marked empty.');
  await warning.getByRole('button', { name: 'Keep annotating' }).click();
  await expect(warning).toHaveCount(0);
  await expect(status(page)).toHaveAttribute('data-status', 'in_progress');
  const id = await clipId(page);
  expect(await eventsOf(page, id)).toEqual([]);
  await bar(page).getByRole('button', { name: 'Submit for review', exact: true }).click();
  await warning.getByRole('button', { name: 'Submit anyway' }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'submitted');
  await bar(page).getByRole('button', { name: 'Start review', exact: true }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'in_review');

  // Approving at once: refused, naming the 20 frames without a verdict and the self-approval.
  await bar(page).getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Cannot approve: 20 of 20 frames have no verdict (frames 1–20); ann painted this clip' })).toBeVisible();
  await expect(status(page)).toHaveAttribute('data-status', 'in_review');
  expect((await eventsOf(page, id)).map((e) => e.action)).toEqual(['submit', 'start_review']);
  expect((await readRows<ClipRow>(page, 'clips')).find((c) => c.id === id)!.status).toBe('in_review');

  // The override needs a reason (its button stays disabled while the reason is blank).
  await bar(page).getByRole('button', { name: 'Approve with override…' }).click();
  await page.getByLabel(/Why approve without a verdict on every frame/).fill('   ');
  await expect(bar(page).getByRole('button', { name: 'Approve with override', exact: true })).toBeDisabled();
  await page.getByLabel(/Why approve without a verdict on every frame/).fill('static demo clip, only frame 1 matters');
  await bar(page).getByRole('button', { name: 'Approve with override', exact: true }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'approved');

  const events = await eventsOf(page, id);
  expect(events.map((e) => [e.action, e.from, e.to, e.by, e.note])).toEqual([
    ['submit', 'in_progress', 'submitted', 'ann', undefined],
    ['start_review', 'submitted', 'in_review', 'ann', undefined],
    ['approve_override', 'in_review', 'approved', 'ann', 'static demo clip, only frame 1 matters'],
  ]);
  // The review panel folds away once the clip is approved; its history shows the override.
  await page.getByTestId('review-panel-open').click();
  await expect(page.getByTestId('history-event').last()).toHaveAttribute('data-action', 'approve_override');
  await expect(page.getByTestId('history-event').last()).toContainText('static demo clip, only frame 1 matters');
});

test('(c) an approved clip opens read-only until it is reopened', async ({ page }) => {
  await oneStrokeInReview(page);
  await approveWithOverride(page, 'spot check');
  const id = await clipId(page);
  const revisions = (await gtRevisions(page, id)).length;

  // Read-only at once, and after a reload: the banner says who approved it and when.
  for (const reload of [false, true]) {
    if (reload) {
      await page.reload();
      await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
    }
    await expect(page.getByTestId('read-only')).toHaveAttribute('data-reason', 'approved');
    const banner = page.getByTestId('approved-banner');
    await expect(banner).toContainText(`Approved by ann on ${await page.evaluate(() => new Date().toLocaleDateString())} (override) — reopen to edit`);
    await page.keyboard.press('1');
    await drag(page, 150, 200, 300, 200);
    await page.getByRole('button', { name: 'initial' }).click({ force: true }); // disabled: nothing happens
    await waitSaved(page);
    expect((await gtRevisions(page, id)).length).toBe(revisions);
    expect((await readRows<{ clipId: string; index: number; phase?: string }>(page, 'frames')).find((f) => f.clipId === id && f.index === 0)!.phase).toBeUndefined();
  }

  // Reopen (a review step, in the history): editable again, and the next stroke is stored.
  await bar(page).getByRole('button', { name: 'Reopen', exact: true }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'in_review');
  await expect(page.getByTestId('read-only')).toHaveCount(0);
  await expect(page.getByTestId('approved-banner')).toHaveCount(0);
  await page.keyboard.press('1');
  await drag(page, 150, 200, 300, 200);
  await waitSaved(page);
  await expect.poll(async () => (await gtRevisions(page, id)).length).toBe(revisions + 1);
  expect((await eventsOf(page, id)).map((e) => [e.action, e.to])).toEqual([
    ['submit', 'submitted'],
    ['start_review', 'in_review'],
    ['approve_override', 'approved'],
    ['reopen', 'in_review'],
  ]);
});

test('(d) Enter in the name field saves it: a reload right after keeps the name', async ({ page }) => {
  const field = page.getByLabel('Your name');
  await field.fill('dora');
  await field.press('Enter');
  await page.reload();
  await expect(page.getByLabel('Your name')).toHaveValue('dora');
  expect(await storedName(page)).toBe('dora');
});

test('(e) a frame marked empty is an answer: stored, and left out of the submit warning', async ({ page }) => {
  await becomeUser(page, 'ann');
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 150, 120, 300, 120);
  await waitSaved(page);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '1');
  const empty = page.getByRole('button', { name: /Nothing to paint here/ });
  await expect(empty).toHaveAttribute('aria-pressed', 'false');
  await empty.click();
  await expect(empty).toHaveAttribute('aria-pressed', 'true');
  const id = await clipId(page);
  await expect.poll(async () => (await readRows<FrameRow>(page, 'frames')).find((f) => f.clipId === id && f.index === 1)?.reviewed).toBe(true);

  await bar(page).getByRole('button', { name: 'Submit for review', exact: true }).click();
  const warning = page.getByTestId('submit-warning');
  await expect(warning).toContainText('18 frames (3–20) are not annotated, ignored or marked empty.');
  await expect(warning).toContainText('Nothing to paint here');

  // Unticked, it is missing work again.
  await warning.getByRole('button', { name: 'Keep annotating' }).click();
  await empty.click();
  await expect(empty).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(async () => (await readRows<FrameRow>(page, 'frames')).find((f) => f.clipId === id && f.index === 1)?.reviewed).toBeUndefined();
});
