/**
 * The review workflow played through on the demo clip "peeling potato (demo 2)" (640x360, empty gt):
 * an annotator submits (past the warning listing the 19 blank frames); a reviewer pins a comment,
 * corrects, requests changes; the annotator sees the comment at its place, fixes, resubmits; the
 * reviewer, who painted a correction and gave no frame a verdict, is refused a plain approval and
 * approves with an override and its reason; the stored history has every step with the right names.
 * Switching users is what a shared machine does: change "Your name" (becomeUser also reloads).
 */
import { test, expect, type Page } from '@playwright/test';
import { readRows } from './helpers/store';
import { clickAt, drag, openEditor, waitSaved, becomeUser } from './helpers/editor';
import fs from 'node:fs';
import { encodeIndexedPng } from '../src/io/indexedPng';
import { createLabelMap, type LabelMap } from '../src/masks/labelMap';
import { decodeLayer, parseLayer } from '../src/masks/layers';
import type { CocoRle } from '../src/masks/rle';
import { countFrame } from '../src/metrics/spoc';
import { errorMap } from '../src/review/errorMap';

interface ClipRow { id: string; name: string; status: string; assignee?: string }
interface EventRow { seq: number; clipId: string; action: string; from: string; to: string; by: string; at: number; note?: string }
interface CommentRow { clipId: string; frameIndex: number; x: number; y: number; author: string; text: string; parentId?: string; resolved: boolean }
interface RevisionRow { clipId: string; source: string; frameIndex: number; author: string }

const CLIP = 'peeling potato (demo 2)';

async function clipRow(page: Page): Promise<ClipRow> {
  return (await readRows<ClipRow>(page, 'clips')).find((c) => c.name === CLIP)!;
}


async function step(page: Page, button: string, status: string) {
  await page.getByTestId('review-bar').getByRole('button', { name: button, exact: true }).click();
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-status', status);
}

/** Submits a clip painted on frame 1 only: the warning lists the other 19 frames first. */
async function submitPastWarning(page: Page) {
  await page.getByTestId('review-bar').getByRole('button', { name: 'Submit for review', exact: true }).click();
  const warning = page.getByTestId('submit-warning');
  await expect(warning).toContainText('19 frames (2–20) are not annotated, ignored or marked empty.');
  await warning.getByRole('button', { name: 'Submit anyway' }).click();
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-status', 'submitted');
}

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
});

test('submit, comment, correct, request changes, fix, resubmit, approve — with the history', async ({ page }) => {
  // The annotator paints and submits.
  await becomeUser(page, 'ann');
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 150, 120, 300, 120);
  await waitSaved(page);
  await submitPastWarning(page);

  // The reviewer starts the review, pins a comment, corrects a stroke and sends the clip back.
  await becomeUser(page, 'rev');
  await step(page, 'Start review', 'in_review');
  await page.getByRole('button', { name: 'Add comment' }).click();
  await clickAt(page, 120, 125);
  await page.getByLabel(/Comment on frame 1 at \(120, 125\)/).fill('the peel continues to the left');
  await page.getByRole('button', { name: 'Post comment' }).click();
  const comment = page.getByTestId('comment').filter({ hasText: 'the peel continues to the left' });
  await expect(comment).toHaveAttribute('data-frame', '0');
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-pins', '120,125');
  await page.keyboard.press('2');
  await drag(page, 150, 200, 250, 200); // the reviewer's correction: a transformed stroke
  await waitSaved(page);
  await page.getByTestId('review-bar').getByRole('button', { name: 'Request changes…' }).click();
  await page.getByLabel('What should the annotator change?').fill('extend the actionable stroke to the left');
  await page.getByRole('button', { name: 'Send back to the annotator' }).click();
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-status', 'changes_requested');

  // The annotator sees the request and the comment at its place, fixes, replies, resolves, resubmits.
  await becomeUser(page, 'ann');
  await expect(page.getByTestId('change-request')).toContainText('rev requested changes: extend the actionable stroke to the left');
  await expect(comment).toHaveAttribute('data-x', '120');
  await expect(comment).toHaveAttribute('data-y', '125');
  await expect(comment).toHaveAttribute('data-frame', '0');
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-pins', '120,125');
  await comment.getByRole('button').first().click(); // jumps to its frame (already frame 1)
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 1 / 20');
  await page.keyboard.press('1');
  await drag(page, 110, 120, 160, 120);
  await waitSaved(page);
  await comment.getByLabel('Reply').fill('extended');
  await comment.getByLabel('Reply').press('Enter');
  await expect(comment).toContainText('ann: extended');
  await comment.getByRole('button', { name: 'resolve' }).click();
  await expect(comment).toHaveAttribute('data-resolved', 'true');
  await submitPastWarning(page);

  // The reviewer approves: not plainly (no frame has a verdict, and rev painted a correction), so
  // with an override and its reason.
  await becomeUser(page, 'rev');
  await step(page, 'Start review', 'in_review');
  await page.getByTestId('review-bar').getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Cannot approve: 20 of 20 frames have no verdict (frames 1–20); rev painted this clip' })).toBeVisible();
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-status', 'in_review');
  await page.getByTestId('review-bar').getByRole('button', { name: 'Approve with override…' }).click();
  await page.getByLabel(/Why approve without a verdict on every frame/).fill('frame 1 checked with the annotator; my correction was one stroke');
  await step(page, 'Approve with override', 'approved');

  // The history, in the UI and as stored.
  await expect(page.getByTestId('history-event')).toHaveCount(6);
  const clip = await clipRow(page);
  expect(clip).toMatchObject({ status: 'approved', assignee: 'ann' });
  const events = (await readRows<EventRow>(page, 'clipEvents')).filter((e) => e.clipId === clip.id).sort((a, b) => a.seq - b.seq);
  expect(events.map((e) => [e.action, e.from, e.to, e.by, e.note])).toEqual([
    ['submit', 'in_progress', 'submitted', 'ann', undefined],
    ['start_review', 'submitted', 'in_review', 'rev', undefined],
    ['request_changes', 'in_review', 'changes_requested', 'rev', 'extend the actionable stroke to the left'],
    ['submit', 'changes_requested', 'submitted', 'ann', undefined],
    ['start_review', 'submitted', 'in_review', 'rev', undefined],
    ['approve_override', 'in_review', 'approved', 'rev', 'frame 1 checked with the annotator; my correction was one stroke'],
  ]);
  for (let i = 1; i < events.length; i++) expect(events[i].at).toBeGreaterThanOrEqual(events[i - 1].at);
  const comments = (await readRows<CommentRow>(page, 'comments')).filter((c) => c.clipId === clip.id);
  expect(comments.map((c) => [c.frameIndex, c.x, c.y, c.author, c.text, Boolean(c.parentId), c.resolved]).sort()).toEqual([
    [0, 120, 125, 'ann', 'extended', true, false],
    [0, 120, 125, 'rev', 'the peel continues to the left', false, true],
  ]);
  // The reviewer's correction is a revision by "rev"; the annotator's strokes are by "ann".
  const authors = (await readRows<RevisionRow>(page, 'revisions')).filter((r) => r.clipId === clip.id && r.source === 'gt').map((r) => r.author);
  expect(authors).toEqual(['ann', 'rev', 'ann']);

  // The dashboard filters by state and by person (assignee "ann", last step by "rev").
  await page.getByRole('link', { name: '← clips' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3);
  for (const who of ['ann', 'rev']) {
    await page.getByLabel('Filter by person').selectOption(who);
    await expect(page.getByTestId('clip-card')).toHaveCount(1);
    await expect(page.getByTestId('clip-card')).toContainText(CLIP);
  }
  await page.getByLabel('Filter by person').selectOption('all');
  await page.getByLabel('Filter by status').selectOption('approved');
  await expect(page.getByTestId('clip-card')).toHaveCount(1);
});

test('a prediction imported from PNG masks shows an error map whose FP / FN counts match the metric code', async ({ page }, testInfo) => {
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 150, 100, 300, 100);
  await page.keyboard.press('2');
  await drag(page, 150, 220, 300, 220);
  await waitSaved(page);

  // Prediction masks for frames 1 and 2, named as the clip's frames, written in Node.
  const W = 640;
  const H = 360;
  const rect = (map: LabelMap, label: number, x0: number, y0: number, w: number, h: number) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) map.data[y * W + x] = label;
  };
  const p0 = createLabelMap(W, H);
  rect(p0, 1, 100, 90, 100, 50);
  rect(p0, 2, 200, 205, 120, 30);
  rect(p0, 1, 260, 215, 20, 10); // predicted actionable inside the true transformed stroke: wrong state
  const p1 = createLabelMap(W, H);
  rect(p1, 1, 10, 10, 30, 20);
  const id = (await clipRow(page)).id;
  const frames = (await readRows<{ clipId: string; index: number; name?: string }>(page, 'frames')).filter((f) => f.clipId === id);
  const nameOf = (i: number) => frames.find((f) => f.index === i)!.name ?? `frame${String(i).padStart(4, '0')}`;
  const paths = [0, 1].map((i) => testInfo.outputPath(`${nameOf(i)}.png`));
  fs.writeFileSync(paths[0], encodeIndexedPng(p0));
  fs.writeFileSync(paths[1], encodeIndexedPng(p1));

  await page.getByRole('button', { name: 'Show review panel' }).click();
  await page.getByLabel('Prediction name').fill('unet');
  await page.getByTestId('prediction-files').setInputFiles(paths);
  await expect(page.getByLabel('Prediction source')).toHaveValue('pred:unet');
  await expect(page.getByRole('button', { name: 'error map' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-overlay', 'error');
  await expect(page.getByTestId('error-counts')).toHaveAttribute('data-frame', '0');

  // The same counts from the stored ground truth, by the metric code and by the error map code.
  const layers = await readRows<{ clipId: string; source: string; frameIndex: number; act: CocoRle; trf: CocoRle }>(page, 'layers');
  const gtRow = layers.find((l) => l.clipId === id && l.source === 'gt' && l.frameIndex === 0)!;
  const gt = decodeLayer(parseLayer({ act: gtRow.act, trf: gtRow.trf }), { width: W, height: H });
  const metric = countFrame(gt, p0);
  const truth = gt.data.reduce((n, v) => n + (v === 1 || v === 2 ? 1 : 0), 0);
  const em = errorMap(gt, p0).counts;
  const fp = metric.uObj - truth;
  const fn = truth - metric.iObj;
  expect(fp).toBe(em.fpAct + em.fpTrf);
  expect(fn).toBe(em.fnAct + em.fnTrf);
  expect(fp).toBeGreaterThan(0);
  expect(fn).toBeGreaterThan(0);
  expect(em.actAsTrf + em.trfAsAct).toBeGreaterThan(0);
  await expect(page.getByTestId('error-fp')).toHaveText(String(fp));
  await expect(page.getByTestId('error-fn')).toHaveText(String(fn));
  await expect(page.getByTestId('error-wrong')).toHaveText(String(em.actAsTrf + em.trfAsAct));

  // Frame 2 has no ground truth: every predicted pixel is a false positive.
  await page.getByTestId('timeline-frame').nth(1).click();
  await expect(page.getByTestId('error-counts')).toHaveAttribute('data-frame', '1');
  const m1 = countFrame(createLabelMap(W, H), p1);
  await expect(page.getByTestId('error-fp')).toHaveText(String(m1.uObj));
  await expect(page.getByTestId('error-fn')).toHaveText('0');

  // Stored as pred:unet, one layer per mask; the ground truth is untouched.
  const pred = (await readRows<{ clipId: string; source: string; frameIndex: number }>(page, 'layers')).filter((l) => l.clipId === id && l.source === 'pred:unet');
  expect(pred.map((l) => l.frameIndex).sort()).toEqual([0, 1]);
  // Back to GT only: the overlay is hidden.
  await page.getByRole('button', { name: 'GT only' }).click();
  await expect(page.getByTestId('error-counts')).toHaveCount(0);
});

test('automatic flags link to their frame and are dismissed with a reason', async ({ page }) => {
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 150, 100, 300, 100);
  await waitSaved(page);
  await page.getByRole('button', { name: 'Show review panel' }).click();
  await page.getByRole('button', { name: 'Check clip' }).click();
  // Frames 2..20 are neither painted nor ignored.
  const unannotated = page.getByTestId('flag').and(page.locator('[data-kind="unannotated"]'));
  await expect(unannotated).toHaveCount(19);
  await expect(page.getByTestId('flag-count')).toHaveText('19 open · 0 dismissed');
  const third = unannotated.and(page.locator('[data-frame="2"]'));
  await third.getByRole('button').first().click();
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 3 / 20');
  await third.getByRole('button', { name: 'dismiss…' }).click();
  await third.getByLabel('Dismiss reason').fill('hand out of view');
  await third.getByRole('button', { name: 'dismiss', exact: true }).click();
  await expect(page.getByTestId('flag-count')).toHaveText('18 open · 1 dismissed');
  const id = (await clipRow(page)).id;
  const rows = (await readRows<{ clipId: string; kind: string; frameIndex: number; reason: string; by: string }>(page, 'reviewFlags')).filter((r) => r.clipId === id);
  expect(rows.map((r) => [r.kind, r.frameIndex, r.reason])).toEqual([['unannotated', 2, 'hand out of view']]);
});
