/**
 * Comparing sources on the demo clip "peeling potato (demo 2)" (640x360, empty gt): a prediction
 * imported from PNGs shows beside gt in the side-by-side view with linked zoom and pan and synced
 * frame stepping; the combined progress plot has one series per source; a second annotation
 * imported as ann:bob gets per-frame IoUs equal to an independent count in this file; "take B"
 * writes B into gt (checked in IndexedDB) and Ctrl+Z restores it.
 */
import { test, expect, type Locator, type Page } from '@playwright/test';
import fs from 'node:fs';
import { readRows } from './helpers/store';
import { drag, openEditor, waitSaved } from './helpers/editor';
import { encodeIndexedPng } from '../src/io/indexedPng';
import { createLabelMap, type LabelMap } from '../src/masks/labelMap';
import { decodeLayer, parseLayer } from '../src/masks/layers';
import type { CocoRle } from '../src/masks/rle';

const CLIP = 'peeling potato (demo 2)';
const W = 640;
const H = 360;

interface LayerRow { clipId: string; source: string; frameIndex: number; act: CocoRle; trf: CocoRle }

const rect = (map: LabelMap, label: number, x0: number, y0: number, w: number, h: number) => {
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) map.data[y * W + x] = label;
};

async function storedLayer(page: Page, clipId: string, source: string, k: number): Promise<LabelMap | null> {
  const row = (await readRows<LayerRow>(page, 'layers')).find((l) => l.clipId === clipId && l.source === source && l.frameIndex === k);
  return row ? decodeLayer(parseLayer({ act: row.act, trf: row.trf }), { width: W, height: H }) : null;
}

/** IoU per state and for the object, counted here pixel by pixel (not with the app's metric code). */
function independentIou(a: LabelMap, b: LabelMap) {
  let iA = 0, uA = 0, iT = 0, uT = 0, iO = 0, uO = 0, onlyA = 0, onlyB = 0, swap = 0;
  for (let i = 0; i < a.data.length; i++) {
    const x = a.data[i];
    const y = b.data[i];
    if (x === 1 && y === 1) iA++;
    if (x === 1 || y === 1) uA++;
    if (x === 2 && y === 2) iT++;
    if (x === 2 || y === 2) uT++;
    if (x !== 0 && y !== 0) iO++;
    if (x !== 0 || y !== 0) uO++;
    if (x !== 0 && y === 0) onlyA++;
    if (x === 0 && y !== 0) onlyB++;
    if (x !== 0 && y !== 0 && x !== y) swap++;
  }
  const r = (i: number, u: number) => (u > 0 ? i / u : NaN);
  return { act: r(iA, uA), trf: r(iT, uT), object: r(iO, uO), onlyA, onlyB, swap };
}

const states = (m: LabelMap) => ({ act: m.data.filter((v) => v === 1).length, trf: m.data.filter((v) => v === 2).length });

async function view(pane: Locator): Promise<[number, number, number]> {
  const v = (await pane.getAttribute('data-view')) ?? '';
  expect(v).not.toBe('');
  return v.split(' ').map(Number) as [number, number, number];
}

test('side-by-side with linked zoom and pan, progress curves of every source, agreement with take B and undo', async ({ page }, testInfo) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await drag(page, 150, 100, 300, 100);
  await page.keyboard.press('2');
  await drag(page, 150, 220, 300, 220);
  await waitSaved(page);

  const clipId = (await readRows<{ id: string; name: string }>(page, 'clips')).find((c) => c.name === CLIP)!.id;
  const frames = (await readRows<{ clipId: string; index: number; name?: string }>(page, 'frames')).filter((f) => f.clipId === clipId);
  const nameOf = (i: number) => frames.find((f) => f.index === i)!.name ?? `frame${String(i).padStart(4, '0')}`;
  const write = (dir: string, maps: LabelMap[]) => {
    fs.mkdirSync(testInfo.outputPath(dir), { recursive: true });
    return maps.map((m, i) => {
      const p = testInfo.outputPath(dir, `${nameOf(i)}.png`);
      fs.writeFileSync(p, encodeIndexedPng(m));
      return p;
    });
  };

  // A prediction for frames 1 and 2.
  const p0 = createLabelMap(W, H);
  rect(p0, 1, 100, 90, 100, 50);
  rect(p0, 2, 200, 205, 120, 30);
  const p1 = createLabelMap(W, H);
  rect(p1, 1, 10, 10, 30, 20);
  await page.getByRole('button', { name: 'Show review panel' }).click();
  await page.getByLabel('Prediction name').fill('unet');
  await page.getByTestId('prediction-files').setInputFiles(write('pred', [p0, p1]));
  await expect(page.getByLabel('Prediction source')).toHaveValue('pred:unet');

  // Side by side: gt left, the prediction right, the same frame, each side's own masks.
  const gt0 = (await storedLayer(page, clipId, 'gt', 0))!;
  await page.getByTestId('side-by-side-toggle').click();
  const left = page.getByTestId('side-by-side-left');
  const right = page.getByTestId('side-by-side-right');
  await expect(left).toHaveAttribute('data-source', 'gt');
  await expect(right).toHaveAttribute('data-source', 'pred:unet');
  await expect(left).toHaveAttribute('data-frame', '0');
  await expect(left).toHaveAttribute('data-act', String(states(gt0).act));
  await expect(left).toHaveAttribute('data-trf', String(states(gt0).trf));
  await expect(right).toHaveAttribute('data-act', String(states(p0).act));
  await expect(right).toHaveAttribute('data-trf', String(states(p0).trf));
  expect(states(gt0).act).toBeGreaterThan(0);

  // Wheel zoom on the left at the cursor: the right follows exactly, and the image point under the cursor stays put.
  const before = await view(left);
  const box = (await left.boundingBox())!;
  const cx = box.width * 0.3;
  const cy = box.height * 0.6;
  await page.mouse.move(box.x + cx, box.y + cy);
  await page.mouse.wheel(0, -400);
  await expect.poll(async () => (await view(left))[0]).toBeGreaterThan(before[0]);
  const zoomed = await view(left);
  expect(await view(right)).toEqual(zoomed);
  // Mouse events carry whole CSS pixels, so "put" means within one screen pixel.
  const onePx = 1 / before[0];
  expect(Math.abs((cx - zoomed[1]) / zoomed[0] - (cx - before[1]) / before[0])).toBeLessThanOrEqual(onePx);
  expect(Math.abs((cy - zoomed[2]) / zoomed[0] - (cy - before[2]) / before[0])).toBeLessThanOrEqual(onePx);

  // Drag on the right pans both by the same amount.
  const rbox = (await right.boundingBox())!;
  await page.mouse.move(rbox.x + 50, rbox.y + 50);
  await page.mouse.down();
  await page.mouse.move(rbox.x + 90, rbox.y + 20, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await view(right))[1]).toBeCloseTo(zoomed[1] + 40, 6);
  const panned = await view(right);
  expect(panned[2]).toBeCloseTo(zoomed[2] - 30, 6);
  expect(await view(left)).toEqual(panned);

  // The editor's arrow keys step both sides.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 2 / 20');
  await expect(left).toHaveAttribute('data-frame', '1');
  await expect(right).toHaveAttribute('data-act', String(states(p1).act));
  await expect(left).toHaveAttribute('data-act', '0');
  await page.keyboard.press('ArrowLeft');
  await expect(left).toHaveAttribute('data-frame', '0');

  // The combined progress plot: one series per source, in the legend too, R_t as the definition gives it.
  const compare = page.getByTestId('progress-compare');
  await expect(compare).toHaveAttribute('data-series', 'gt|pred:generator|pred:unet');
  const legend = page.getByTestId('progress-compare-chart').locator('.u-legend .u-series');
  await expect(legend).toHaveCount(4); // frame, gt, the demo's pred:generator, pred:unet
  await expect(legend.nth(1)).toContainText('gt');
  await expect(legend.nth(2)).toContainText('pred:generator');
  await expect(legend.nth(3)).toContainText('pred:unet');
  const r = (m: LabelMap) => (states(m).act / (states(m).act + states(m).trf)).toFixed(3);
  await expect(compare.locator('[data-source="gt"] [data-testid="progress-compare-r"]')).toHaveText(r(gt0));
  await expect(compare.locator('[data-source="pred:unet"] [data-testid="progress-compare-r"]')).toHaveText(r(p0));
  // A click on the plot jumps to the frame under the cursor.
  const over = page.getByTestId('progress-compare-chart').locator('.u-over');
  await over.scrollIntoViewIfNeeded();
  const ob = (await over.boundingBox())!;
  await page.mouse.move(ob.x + ob.width * (4.5 / 20), ob.y + ob.height / 2);
  await page.mouse.click(ob.x + ob.width * (4.5 / 20), ob.y + ob.height / 2);
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 5 / 20');
  await page.getByTestId('timeline-frame').nth(0).click();
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 1 / 20');

  // A second annotation, imported as ann:bob.
  const b0 = createLabelMap(W, H);
  rect(b0, 1, 140, 92, 150, 20);
  rect(b0, 2, 160, 212, 160, 20);
  rect(b0, 2, 140, 112, 40, 10);
  const b1 = createLabelMap(W, H);
  rect(b1, 2, 50, 50, 20, 20);
  await page.getByLabel('Annotator name').fill('bob');
  await page.getByTestId('annotation-files').setInputFiles(write('bob', [b0, b1]));
  await expect(page.getByLabel('Agreement B')).toHaveValue('ann:bob');
  await expect(right).toHaveAttribute('data-source', 'ann:bob');
  await expect(compare).toHaveAttribute('data-series', 'gt|ann:bob|pred:generator|pred:unet');

  // Per-frame IoU equals the count made here.
  const expected = independentIou(gt0, b0);
  const row0 = page.locator('[data-testid="agreement-row"][data-frame="0"]');
  await expect(row0).toHaveAttribute('data-act', /./);
  for (const key of ['act', 'trf', 'object'] as const) {
    expect(Number(await row0.getAttribute(`data-${key}`))).toBeCloseTo(expected[key], 12);
  }
  expect(Number(await row0.getAttribute('data-disputed'))).toBe(expected.onlyA + expected.onlyB + expected.swap);
  const row1 = page.locator('[data-testid="agreement-row"][data-frame="1"]');
  expect(Number(await row1.getAttribute('data-trf'))).toBe(0); // gt frame 2 is empty: nothing shared
  await expect(page.locator('[data-testid="agreement-row"][data-frame="2"]')).toHaveAttribute('data-skipped', 'missing');

  // The disputed pixels, by kind, on the side-by-side view.
  await page.getByRole('button', { name: 'Show disputed pixels' }).click();
  await expect(page.getByTestId('side-by-side-disputes')).toHaveAttribute('data-counts', `${expected.onlyA},${expected.onlyB},${expected.swap}`);

  // Take B on frame 1: gt becomes B in IndexedDB, as one revision; undo brings gt back.
  const gtRevs = async () => (await readRows<{ clipId: string; source: string; frameIndex: number; author: string; action: string }>(page, 'revisions')).filter((v) => v.clipId === clipId && v.source === 'gt' && v.frameIndex === 0);
  const strokesBy = (await gtRevs())[0].author;
  await page.getByRole('button', { name: 'take B' }).click();
  await waitSaved(page);
  await expect.poll(async () => Array.from((await storedLayer(page, clipId, 'gt', 0))!.data).join('') === Array.from(b0.data).join('')).toBe(true);
  await expect(row0).toHaveAttribute('data-disputed', '0');
  const afterPick = await gtRevs();
  expect(afterPick.at(-1)).toMatchObject({ author: strokesBy, action: 'agreement:take-b A=gt B=ann:bob' });

  await page.keyboard.press('Control+z');
  await waitSaved(page);
  await expect.poll(async () => Array.from((await storedLayer(page, clipId, 'gt', 0))!.data).join('') === Array.from(gt0.data).join('')).toBe(true);
  await expect(row0).toHaveAttribute('data-disputed', String(expected.onlyA + expected.onlyB + expected.swap));
  // ann:bob itself is untouched.
  expect(Array.from((await storedLayer(page, clipId, 'ann:bob', 0))!.data).join('')).toBe(Array.from(b0.data).join(''));
});
