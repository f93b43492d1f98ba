/**
 * Propagation end to end in Chromium with the tiny test models picked from disk: a region painted
 * on frame 1 is prompted on frame 2 through the real inference worker and written as frame 2's gt.
 *
 * Expected geometry, computed here without the decoder: the prompt for a region is its box plus
 * interior points (src/inference/propagate/prompts.ts, unit-tested on its own); with more than one
 * prompt point the official selection rule keeps mask 0, which the tiny decoder draws as a disc of
 * radius 48 (1024 frame) = 30 px on this 640x360 clip around the mean of the points and the box
 * corners. We rasterise that disc and compare with what was stored (IndexedDB, read raw).
 */
import { test, expect, type Page } from '@playwright/test';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTinyModels } from '../scripts/make-tiny-models';
import { createLabelMap, type LabelMap } from '../src/masks/labelMap';
import { decodeLayer, parseLayer } from '../src/masks/layers';
import { shapeAgreement } from '../src/inference/propagate/confidence';
import { regionPrompt } from '../src/inference/propagate/prompts';
import { stateRegions } from '../src/inference/propagate/regions';
import { readRows } from './helpers/store';
import { drag, openEditor, waitSaved } from './helpers/editor';

interface LayerRow { clipId: string; frameIndex: number; source: string; act: unknown; trf: unknown; actArea: number; trfArea: number }
interface ClipRow { id: string; name: string }
interface RevisionRow { clipId: string; frameIndex: number; source: string; action: string }

const CLIP = 'peeling potato (demo 2)';
const W = 640;
const H = 360;
const R = 48 / 1.6;

async function clipId(page: Page): Promise<string> {
  return (await readRows<ClipRow>(page, 'clips')).find((c) => c.name === CLIP)!.id;
}

async function storedMap(page: Page, frame: number): Promise<LabelMap> {
  const id = await clipId(page);
  const row = (await readRows<LayerRow>(page, 'layers')).find((l) => l.clipId === id && l.source === 'gt' && l.frameIndex === frame);
  return row ? decodeLayer(parseLayer({ act: row.act, trf: row.trf }), { width: W, height: H }) : createLabelMap(W, H);
}

const count = (m: LabelMap, label: number) => m.data.reduce((n, v) => n + (v === label ? 1 : 0), 0);

/** The tiny decoder's answer for each region of `prev`, rasterised (pixel centres inside the disc). */
function expectedNext(prev: LabelMap): LabelMap {
  const out = createLabelMap(W, H);
  for (const region of stateRegions(prev)) {
    const p = regionPrompt(region.mask);
    const xs = [...p.points.map((q) => q.x), p.box!.x0, p.box!.x1];
    const ys = [...p.points.map((q) => q.y), p.box!.y0, p.box!.y1];
    const cx = xs.reduce((a, b) => a + b) / xs.length;
    const cy = ys.reduce((a, b) => a + b) / ys.length;
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 < R * R) out.data[y * W + x] = region.label;
  }
  return out;
}

function differing(a: LabelMap, b: LabelMap): number {
  let n = 0;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) n++;
  return n;
}

test('propagate a painted region to the next frame with the tiny SAM: stored disc, same state, confidence shown, one undo', async ({ page }) => {
  test.setTimeout(240_000);
  const modelDir = test.info().outputPath('tiny-models');
  await makeTinyModels(modelDir);
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  await openEditor(page, CLIP);
  // Without a SAM model the panel says it would fall back to optical flow.
  await expect(page.getByTestId('propagate')).toHaveAttribute('data-method', 'flow');
  await expect(page.getByTestId('propagate-fallback')).toBeVisible();

  await page.getByTestId('models-button').click();
  await page.getByTestId('pick-models').setInputFiles((await readdir(modelDir)).map((f) => join(modelDir, f)));
  await expect(page.locator('[data-testid="model-row"][data-model="tiny-sam"]')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('propagate')).toHaveAttribute('data-method', 'sam');
  await expect(page.getByTestId('propagate-fallback')).toHaveCount(0);

  // Paint a transformed stroke on frame 1 (brush, 16 px).
  await page.keyboard.press('b');
  await page.keyboard.press('2');
  await drag(page, 200, 150, 300, 190);
  await waitSaved(page);
  const frame1 = await storedMap(page, 0);
  expect(count(frame1, 2)).toBeGreaterThan(1000);
  expect(count(await storedMap(page, 1), 0), 'frame 2 starts empty').toBe(W * H);

  await page.getByTestId('propagate-next').click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '1');
  const conf = page.getByTestId('propagate-confidence');
  await expect(conf).toBeVisible({ timeout: 30_000 });
  await expect.poll(async () => count(await storedMap(page, 1), 2), { timeout: 10_000 }).toBeGreaterThan(0);
  await waitSaved(page);

  const frame2 = await storedMap(page, 1);
  const expected = expectedNext(frame1);
  const disc = Math.PI * R * R;
  expect(count(frame2, 1), 'the state is kept: nothing actionable').toBe(0);
  expect(Math.abs(count(frame2, 2) - disc)).toBeLessThan(disc * 0.02);
  expect(differing(frame2, expected)).toBeLessThan(disc * 0.02);

  // Confidence = (SAM IoU + shape agreement) / 2; the tiny decoder's IoU for mask 0 is 0.99 +- 0.01.
  const shown = Number(await conf.getAttribute('data-confidence'));
  const s = shapeAgreement(stateRegions(frame1)[0].mask, stateRegions(expected)[0].mask);
  expect(Math.abs(shown - (0.99 + s) / 2)).toBeLessThan(0.02);
  await expect(conf).toContainText(`confidence ${shown.toFixed(2)}`);
  await expect(conf).toHaveAttribute('data-method', 'sam');
  const id = await clipId(page);
  const revisions = (await readRows<RevisionRow>(page, 'revisions')).filter((r) => r.clipId === id && r.frameIndex === 1);
  expect(revisions.map((r) => r.action)).toEqual(['propagate-sam']);

  // One undo restores frame 2 (empty).
  await page.keyboard.press('Control+z');
  await expect.poll(async () => count(await storedMap(page, 1), 0), { timeout: 10_000 }).toBe(W * H);
  await waitSaved(page);

  // Frame 2 now holds its own actionable stroke: propagating asks first; "Fill empty" keeps it.
  await page.keyboard.press('1');
  await drag(page, 450, 80, 520, 80);
  await waitSaved(page);
  const own = count(await storedMap(page, 1), 1);
  expect(own).toBeGreaterThan(500);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
  await page.getByTestId('propagate-next').click();
  await expect(page.getByTestId('propagate-choice')).toBeVisible();
  expect(count(await storedMap(page, 1), 2)).toBe(0); // nothing written before the choice
  await page.getByTestId('propagate-fill').click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '1');
  await expect(page.getByTestId('propagate-confidence')).toBeVisible({ timeout: 30_000 });
  await expect.poll(async () => count(await storedMap(page, 1), 2), { timeout: 10_000 }).toBeGreaterThan(0);
  await waitSaved(page);
  const filled = await storedMap(page, 1);
  expect(count(filled, 1)).toBe(own);
  expect(differing(filled, expectedNext(frame1)) - own).toBeLessThan(disc * 0.02);

  // Forward through two frames: progress, then each frame its own revision.
  await page.getByTestId('propagate-forward-open').click();
  await page.getByTestId('propagate-count').fill('2');
  await page.getByTestId('propagate-threshold').fill('0');
  await page.getByTestId('propagate-start').click();
  await expect(page.getByTestId('propagate-message')).toContainText('2 frames propagated', { timeout: 60_000 });
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '3');
  await expect.poll(async () => count(await storedMap(page, 3), 0), { timeout: 10_000 }).toBeLessThan(W * H);
  await waitSaved(page);
  for (const k of [2, 3]) {
    const m = await storedMap(page, k);
    expect(count(m, 1) + count(m, 2)).toBeGreaterThan(disc * 0.9);
  }
  const forward = (await readRows<RevisionRow>(page, 'revisions')).filter((r) => r.clipId === id && r.frameIndex >= 2 && r.frameIndex <= 3);
  expect(forward.map((r) => [r.frameIndex, r.action])).toEqual([[2, 'propagate-sam'], [3, 'propagate-sam']]);

  // A longer run shows its progress and stops on Cancel; what was written before stays, one revision per frame.
  const frameCount = (await readRows<ClipRow & { frameCount: number }>(page, 'clips')).find((c) => c.id === id)!.frameCount;
  const room = frameCount - 1 - 3;
  expect(room).toBeGreaterThan(3);
  await page.getByTestId('propagate-forward-open').click();
  await page.getByTestId('propagate-count').fill(String(room));
  await page.getByTestId('propagate-threshold').fill('0');
  await page.getByTestId('propagate-start').click();
  const progress = page.getByTestId('propagate-progress');
  await expect(progress).toHaveAttribute('data-total', String(room));
  await expect(progress).toHaveAttribute('data-done', /^[1-9]/, { timeout: 60_000 });
  await page.getByTestId('propagate-cancel').click();
  await expect(page.getByTestId('propagate-message')).toContainText('cancelled');
  await expect(progress).toHaveCount(0);
  const done = Number(/^(\d+) frames? propagated/.exec((await page.getByTestId('propagate-message').textContent()) ?? '')?.[1]);
  expect(done).toBeGreaterThanOrEqual(1);
  expect(done).toBeLessThan(room);
  await waitSaved(page);
  const later = (await readRows<RevisionRow>(page, 'revisions')).filter((r) => r.clipId === id && r.frameIndex > 3);
  expect(later.map((r) => [r.frameIndex, r.action])).toEqual(Array.from({ length: done }, (_, k) => [4 + k, 'propagate-sam']));
});

test('without a SAM model, propagation falls back to optical flow and says so', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  await openEditor(page, CLIP);
  await expect(page.getByTestId('propagate')).toHaveAttribute('data-method', 'flow');
  await expect(page.getByTestId('propagate-fallback')).toHaveText('flow fallback');

  await page.keyboard.press('b');
  await page.keyboard.press('1');
  await drag(page, 260, 140, 340, 200);
  await waitSaved(page);
  const frame1 = await storedMap(page, 0);
  const painted = count(frame1, 1);

  await page.getByTestId('propagate-next').click();
  // OpenCV (11 MB) loads in the classical worker on first use.
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '1', { timeout: 120_000 });
  const conf = page.getByTestId('propagate-confidence');
  await expect(conf).toBeVisible();
  await expect(conf).toHaveAttribute('data-method', 'flow');
  await expect(conf).toContainText('(flow');
  const shown = Number(await conf.getAttribute('data-confidence'));
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThanOrEqual(1);
  await waitSaved(page);

  // The region moved with the flow between two nearby frames: same state, similar size, overlapping.
  const frame2 = await storedMap(page, 1);
  expect(count(frame2, 2)).toBe(0);
  const carried = count(frame2, 1);
  expect(carried).toBeGreaterThan(painted * 0.6);
  expect(carried).toBeLessThan(painted * 1.4);
  let overlap = 0;
  for (let i = 0; i < frame1.data.length; i++) if (frame1.data[i] === 1 && frame2.data[i] === 1) overlap++;
  expect(overlap).toBeGreaterThan(painted * 0.3);
  const id = await clipId(page);
  const revisions = (await readRows<RevisionRow>(page, 'revisions')).filter((r) => r.clipId === id && r.frameIndex === 1);
  expect(revisions.map((r) => r.action)).toEqual(['propagate-flow']);
});
