/**
 * Reviewer mode on the demo clip "peeling potato (demo 2)" (640x360, 20 frames, empty gt): an
 * annotator paints three frames and submits; the reviewer steps through frames with one key,
 * accepts and rejects (stored in IndexedDB), cannot approve while a frame is rejected, corrects a
 * frame and reads diff counts equal to the pixels that changed since the submission (checked against
 * the layer the annotator handed in and the stored revisions), views the annotator's version
 * read-only, and finds the frame with the lowest IoU of an imported prediction at the top of the
 * worst-IoU list (expected IoUs computed here from the masks this test wrote and the stored gt).
 * Approval then passes the review gate: refused while frames lack a verdict, refused to the
 * reviewer who painted a correction even with every frame accepted, granted to another reviewer.
 */
import { test, expect, type Page } from '@playwright/test';
import fs from 'node:fs';
import { readRows } from './helpers/store';
import { drag, openEditor, waitSaved, becomeUser } from './helpers/editor';
import { encodeIndexedPng } from '../src/io/indexedPng';
import { createLabelMap, type LabelMap } from '../src/masks/labelMap';
import { decodeLayer, parseLayer } from '../src/masks/layers';
import type { CocoRle } from '../src/masks/rle';
import { revisionToPatch } from '../src/annotator/revisionPatch';
import type { Revision } from '../src/store/types';

const CLIP = 'peeling potato (demo 2)';
const W = 640;
const H = 360;

interface LayerRow { clipId: string; source: string; frameIndex: number; act: CocoRle; trf: CocoRle }
interface VerdictRow { seq: number; clipId: string; frameIndex: number; verdict: string; note?: string; by: string; at: number }

async function clipId(page: Page): Promise<string> {
  return (await readRows<{ id: string; name: string }>(page, 'clips')).find((c) => c.name === CLIP)!.id;
}

async function gtMap(page: Page, id: string, frameIndex: number): Promise<LabelMap> {
  const row = (await readRows<LayerRow>(page, 'layers')).find((l) => l.clipId === id && l.source === 'gt' && l.frameIndex === frameIndex);
  return row ? decodeLayer(parseLayer({ act: row.act, trf: row.trf }), { width: W, height: H }) : createLabelMap(W, H);
}


const frameIs = (page: Page, k: number) => expect(page.getByTestId('frame-indicator')).toHaveText(`frame ${k + 1} / 20`);

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
});

test('step, accept, reject, correct with a diff, annotator version, worst IoU', async ({ page }, testInfo) => {
  // The annotator paints frames 1-3 and submits.
  await becomeUser(page, 'ann');
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 150, 200, 350, 200);
  await page.keyboard.press('ArrowRight');
  await frameIs(page, 1);
  await drag(page, 150, 220, 400, 220);
  await page.keyboard.press('2');
  await drag(page, 150, 260, 300, 260);
  await page.keyboard.press('ArrowRight');
  await frameIs(page, 2);
  await drag(page, 200, 240, 260, 240);
  await waitSaved(page);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await frameIs(page, 0);
  await page.getByTestId('review-bar').getByRole('button', { name: 'Submit for review', exact: true }).click();
  await expect(page.getByTestId('submit-warning')).toContainText('17 frames (4–20) are not annotated, ignored or marked empty.');
  await page.getByTestId('submit-warning').getByRole('button', { name: 'Submit anyway' }).click();
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-status', 'submitted');
  const id = await clipId(page);
  const handedIn = await gtMap(page, id, 1);

  // The reviewer starts the review and switches reviewer mode on.
  await becomeUser(page, 'rev');
  await page.getByTestId('review-bar').getByRole('button', { name: 'Start review', exact: true }).click();
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-status', 'in_review');
  await page.getByRole('button', { name: 'Reviewer mode' }).click();
  await expect(page.getByTestId('reviewer-panel')).toBeVisible();
  await expect(page.getByTestId('verdict-tally')).toHaveText('0 accepted · 0 rejected · 20 open');

  // A accepts frame 1 and steps to frame 2; R rejects it with a note and steps to frame 3.
  await page.keyboard.press('a');
  await frameIs(page, 1);
  await page.keyboard.press('r');
  await page.getByLabel(/Reject frame 2: what is wrong/).fill('the peel continues to the right');
  await page.getByLabel(/Reject frame 2: what is wrong/).press('Enter');
  await frameIs(page, 2);
  await expect(page.getByTestId('verdict-tally')).toHaveText('1 accepted · 1 rejected · 18 open');
  await expect(page.getByTestId('verdict-cell').nth(0)).toHaveAttribute('data-verdict', 'accept');
  await expect(page.getByTestId('verdict-cell').nth(1)).toHaveAttribute('data-verdict', 'reject');
  // Shift+J steps back to the previous frame without a verdict (wrapping past frames 2 and 1), J forward again.
  await page.keyboard.press('Shift+J');
  await frameIs(page, 19);
  await page.keyboard.press('j');
  await frameIs(page, 2);

  // Stored, with who and when.
  const verdicts = (await readRows<VerdictRow>(page, 'frameVerdicts')).filter((v) => v.clipId === id).sort((a, b) => a.seq - b.seq);
  expect(verdicts.map((v) => [v.frameIndex, v.verdict, v.by, v.note])).toEqual([
    [0, 'accept', 'rev', undefined],
    [1, 'reject', 'rev', 'the peel continues to the right'],
  ]);
  expect(verdicts.every((v) => typeof v.at === 'number' && v.at > 0)).toBe(true);

  // Approving is refused while frame 2 is rejected; a change request starts from the rejected frames.
  await page.getByTestId('review-bar').getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByText(/Frame 2 is rejected/)).toBeVisible();
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-status', 'in_review');
  await page.getByTestId('review-bar').getByRole('button', { name: 'Request changes…' }).click();
  await expect(page.getByLabel('What should the annotator change?')).toHaveValue('Rejected frames:\nFrame 2: the peel continues to the right');
  await page.getByTestId('review-bar').getByRole('button', { name: 'cancel' }).click();

  // The reviewer corrects frame 2 in place: more actionable, part of the transformed stroke erased.
  await page.getByTestId('verdict-cell').nth(1).click();
  await frameIs(page, 1);
  await expect(page.getByTestId('annotator-of-frame')).toHaveText('handed in by ann; not corrected');
  await page.keyboard.press('1');
  await drag(page, 400, 220, 480, 220);
  await drag(page, 200, 300, 260, 300);
  await page.keyboard.press('2'); // the eraser spares the other class when protecting: erase transformed
  await page.keyboard.press('e');
  await drag(page, 160, 260, 220, 260);
  // Every stroke has reached IndexedDB: the stored transformed area shrank, the actionable one grew.
  const area = async () => (await readRows<LayerRow & { actArea: number; trfArea: number }>(page, 'layers')).find((l) => l.clipId === id && l.source === 'gt' && l.frameIndex === 1)!;
  const handedInArea = { act: handedIn.data.filter((v) => v === 1).length, trf: handedIn.data.filter((v) => v === 2).length };
  await expect.poll(async () => (await area()).trfArea).toBeLessThan(handedInArea.trf);
  await expect.poll(async () => (await area()).actArea).toBeGreaterThan(handedInArea.act + 50);
  await waitSaved(page);
  await expect(page.getByTestId('annotator-of-frame')).toHaveText('handed in by ann; corrected by rev');

  // Expected diff: the stored layer now against the layer the annotator handed in.
  const now = await gtMap(page, id, 1);
  const expected = { actAdded: 0, actRemoved: 0, trfAdded: 0, trfRemoved: 0 };
  for (let i = 0; i < now.data.length; i++) {
    const was = handedIn.data[i];
    const is = now.data[i];
    if (was === is) continue;
    if (is === 1) expected.actAdded++;
    if (was === 1) expected.actRemoved++;
    if (is === 2) expected.trfAdded++;
    if (was === 2) expected.trfRemoved++;
  }
  expect(expected.actAdded).toBeGreaterThan(0);
  expect(expected.trfRemoved).toBeGreaterThan(0);
  // Every changed pixel lies in a box of a revision by the reviewer, and replaying those revisions'
  // before pixels over the stored layer gives back the annotator's layer.
  const revs = (await readRows<Revision>(page, 'revisions')).filter((r) => r.clipId === id && r.source === 'gt' && r.frameIndex === 1).sort((a, b) => a.seq - b.seq);
  const byRev = revs.filter((r) => r.author === 'rev');
  expect(byRev.length).toBeGreaterThanOrEqual(3);
  const undone = { width: W, height: H, data: now.data.slice() };
  for (const r of byRev.slice().reverse()) {
    const p = revisionToPatch(r);
    for (let y = 0; y < p.box.h; y++) undone.data.set(p.before.subarray(y * p.box.w, (y + 1) * p.box.w), (p.box.y + y) * W + p.box.x);
  }
  expect(Buffer.from(undone.data).equals(Buffer.from(handedIn.data))).toBe(true);
  const legend = page.getByTestId('diff-legend');
  await expect(legend).toHaveAttribute('data-frame', '1');
  for (const [k, n] of Object.entries(expected)) await expect(page.getByTestId(`diff-${k}`)).toHaveText(String(n));
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-reviewer-overlay', 'diff');
  // A legend entry hides its class from the frame (and shows it again); the counts stay.
  const trfRemoved = legend.getByRole('button', { name: /transformed removed/ });
  await trfRemoved.click();
  await expect(trfRemoved).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('diff-trfRemoved')).toHaveText(String(expected.trfRemoved));
  await trfRemoved.click();
  await expect(trfRemoved).toHaveAttribute('aria-pressed', 'true');

  // The annotator's version, read-only: V shows it; painting does nothing; V goes back.
  await page.keyboard.press('v');
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-reviewer-overlay', 'annotator');
  // Read-only by the session's own rule (no overlay catching the pointer), and said on screen.
  await expect(page.getByTestId('annotator-version-readonly')).toBeVisible();
  const revCount = (await readRows<Revision>(page, 'revisions')).length;
  await page.keyboard.press('1');
  await drag(page, 300, 150, 400, 150);
  await page.keyboard.press('Shift+Delete');
  await waitSaved(page);
  expect((await readRows<Revision>(page, 'revisions')).length).toBe(revCount);
  expect(Buffer.from((await gtMap(page, id, 1)).data).equals(Buffer.from(now.data))).toBe(true);
  await page.keyboard.press('v');
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-reviewer-overlay', 'diff');
  await expect(page.getByTestId('annotator-version-readonly')).toHaveCount(0);

  // Accepting the corrected frame lets the clip be approved later; now the worst-IoU list.
  await page.keyboard.press('a');
  await expect(page.getByTestId('verdict-cell').nth(1)).toHaveAttribute('data-verdict', 'accept');

  const rect = (map: LabelMap, label: number, x0: number, y0: number, w: number, h: number) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) map.data[y * W + x] = label;
  };
  const preds = [createLabelMap(W, H), createLabelMap(W, H), createLabelMap(W, H)];
  rect(preds[0], 1, 140, 190, 220, 20); // close to frame 1's stroke
  rect(preds[1], 1, 150, 200, 150, 40); // partly frame 2's strokes
  rect(preds[1], 2, 220, 250, 100, 20);
  rect(preds[2], 2, 190, 230, 30, 20); // a sliver of frame 3's stroke
  const frames = (await readRows<{ clipId: string; index: number; name?: string }>(page, 'frames')).filter((f) => f.clipId === id);
  const nameOf = (i: number) => frames.find((f) => f.index === i)!.name ?? `frame${String(i).padStart(4, '0')}`;
  const paths = [0, 1, 2].map((i) => testInfo.outputPath(`${nameOf(i)}.png`));
  paths.forEach((p, i) => fs.writeFileSync(p, encodeIndexedPng(preds[i])));
  await page.getByLabel('Prediction name').fill('unet');
  await page.getByTestId('prediction-files').setInputFiles(paths);
  await expect(page.getByLabel('Prediction source')).toHaveValue('pred:unet');
  await expect(page.getByTestId('worst-iou-list')).toHaveAttribute('data-source', 'pred:unet');

  // Expected: per-state IoU over the stored gt and the masks written above (no app code), mean of
  // the states present on either side; frames with neither state anywhere rank last.
  const expectedIou: { frame: number; mean: number }[] = [];
  for (let k = 0; k < 20; k++) {
    const gt = await gtMap(page, id, k);
    const pred = preds[k] ?? createLabelMap(W, H);
    const ious: number[] = [];
    for (const s of [1, 2]) {
      let inter = 0;
      let union = 0;
      for (let i = 0; i < gt.data.length; i++) {
        const g = gt.data[i] === s;
        const p = pred.data[i] === s;
        if (g && p) inter++;
        if (g || p) union++;
      }
      if (union > 0) ious.push(inter / union);
    }
    expectedIou.push({ frame: k, mean: ious.length ? ious.reduce((a, b) => a + b, 0) / ious.length : NaN });
  }
  const scored = expectedIou.filter((e) => !Number.isNaN(e.mean)).sort((a, b) => a.mean - b.mean || a.frame - b.frame);
  expect(scored.length).toBe(3);
  const rows = page.getByTestId('worst-iou-row');
  await expect(rows).toHaveCount(20);
  for (let r = 0; r < scored.length; r++) {
    await expect(rows.nth(r)).toHaveAttribute('data-frame', String(scored[r].frame));
    expect(Number(await rows.nth(r).getAttribute('data-iou'))).toBeCloseTo(scored[r].mean, 9);
  }
  await expect(rows.nth(3)).toHaveAttribute('data-iou', '');
  // A click on a row jumps to its frame; W goes on to the next worst (wrapping to the worst after
  // the last scored frame), Shift+W back.
  await rows.nth(2).click();
  await frameIs(page, scored[2].frame);
  await page.keyboard.press('w');
  await frameIs(page, scored[0].frame);
  await page.keyboard.press('w');
  await frameIs(page, scored[1].frame);
  await page.keyboard.press('Shift+W');
  await frameIs(page, scored[0].frame);

  // No frame is rejected, but 18 have no verdict and rev painted a correction: refused.
  const approve = () => page.getByTestId('review-bar').getByRole('button', { name: 'Approve', exact: true }).click();
  await approve();
  await expect(page.getByRole('alert').filter({ hasText: 'Cannot approve: 18 of 20 frames have no verdict (frames 3–20); rev painted this clip' })).toBeVisible();
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-status', 'in_review');
  // rev accepts the rest, one A per frame (each steps to the next frame without a verdict).
  await page.getByTestId('verdict-cell').nth(2).click();
  await frameIs(page, 2);
  for (let k = 2; k < 20; k++) {
    await page.keyboard.press('a');
    await expect(page.getByTestId('verdict-tally')).toHaveText(`${k + 1} accepted · 0 rejected · ${19 - k} open`);
    if (k < 19) await frameIs(page, k + 1);
  }
  // Every frame judged, but rev approving rev's own correction still needs an override.
  await approve();
  await expect(page.getByRole('alert').filter({ hasText: 'Cannot approve: rev painted this clip and cannot approve their own work.' })).toBeVisible();
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-status', 'in_review');
  // Another reviewer, who painted nothing, approves plainly.
  await page.getByTestId('verdict-cell').nth(0).click();
  await frameIs(page, 0);
  await becomeUser(page, 'chief');
  await approve();
  await expect(page.getByTestId('clip-status')).toHaveAttribute('data-status', 'approved');
  const last = (await readRows<{ seq: number; clipId: string; action: string; by: string }>(page, 'clipEvents')).filter((e) => e.clipId === id).sort((a, b) => a.seq - b.seq).at(-1);
  expect(last).toMatchObject({ action: 'approve', by: 'chief' });
});
