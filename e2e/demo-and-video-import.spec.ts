import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { createProject } from './helpers/app';
import { readRows, storedFramePixels } from './helpers/store';
import { readBarcode, barcodeRect } from '../src/demo/barcode';

interface ClipRow { id: string; name: string; frameCount: number; width: number; height: number; sampleFps: number; source: { kind: string } }
interface FrameRow { clipId: string; index: number; timestampSec: number; phase?: string }
interface LayerRow { clipId: string; frameIndex: number; source: string; actArea: number; trfArea: number }

test('first launch offers the demo project, which opens with three generated clips', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('welcome')).toBeVisible();
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('project-name')).toHaveText('Demo: object state changes', { timeout: 60_000 });
  await expect(page.getByTestId('clip-card')).toHaveCount(3);
  await expect(page.getByTestId('clip-frames').first()).toContainText('20 frames · 640×360');

  const clips = await readRows<ClipRow>(page, 'clips');
  expect(clips.map((c) => c.frameCount)).toEqual([20, 20, 20]);
  const layers = await readRows<LayerRow>(page, 'layers');
  // The annotated example has ground truth on every frame; the others carry the generator's truth as a prediction.
  expect(layers.filter((l) => l.source === 'gt')).toHaveLength(20);
  expect(layers.filter((l) => l.source === 'pred:generator')).toHaveLength(40);
  const frames = await readRows<FrameRow>(page, 'frames');
  expect(new Set(frames.filter((f) => f.phase).map((f) => f.phase))).toEqual(new Set(['initial', 'transitioning', 'end']));

  // Each stored frame k carries its own index in the barcode the generator drew.
  const clip = clips[0];
  for (const k of [0, 7, 19]) {
    const rect = barcodeRect(clip.width, clip.height);
    const px = await storedFramePixels(page, clip.id, k, rect);
    const img = { width: px.width, height: px.height, data: Uint8ClampedArray.from(px.data) };
    expect(readBarcode(padToFrame(img, rect, clip.width, clip.height))).toBe(k);
  }

  await page.reload();
  await expect(page.getByTestId('clip-card')).toHaveCount(3);
  await expect(page.getByTestId('project-stats')).toContainText('60 frames · 20 annotated · 0 ignored · 40 remaining');
});

test('a generated video imports frame-accurately at 1 fps and survives a reload', async ({ page }, testInfo) => {
  await createProject(page, 'Video import');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /Download a generated demo video/ }).click();
  const file = testInfo.outputPath('demo.webm');
  await (await download).saveAs(file);
  expect((await readFile(file)).length).toBeGreaterThan(10_000);

  await page.getByTestId('import-video').setInputFiles(file);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByTestId('clip-frames')).toContainText('20 frames · 640×360');

  const [clip] = await readRows<ClipRow>(page, 'clips');
  expect(clip).toMatchObject({ frameCount: 20, width: 640, height: 360, sampleFps: 1, source: { kind: 'video' } });
  const frames = (await readRows<FrameRow>(page, 'frames')).sort((a, b) => a.index - b.index);
  expect(frames.map((f) => f.timestampSec)).toEqual(Array.from({ length: 20 }, (_, k) => k));

  // The video runs at 10 fps with its frame number drawn on each frame: sampled frame k at 1 fps must be video frame 10k.
  const rect = barcodeRect(clip.width, clip.height);
  for (const k of [0, 1, 9, 19]) {
    const px = await storedFramePixels(page, clip.id, k, rect);
    const img = { width: px.width, height: px.height, data: Uint8ClampedArray.from(px.data) };
    expect(readBarcode(padToFrame(img, rect, clip.width, clip.height)), `frame ${k}`).toBe(10 * k);
  }

  await page.reload();
  await expect(page.getByTestId('clip-card')).toHaveCount(1);
  await page.getByTestId('clip-card').click();
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 1 / 20');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 2 / 20');
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '1');
});

/** readBarcode looks at the top-left corner of a whole frame; place the crop back where it came from. */
function padToFrame(crop: { width: number; height: number; data: Uint8ClampedArray }, rect: { x: number; y: number }, width: number, height: number) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < crop.height; y++) {
    data.set(crop.data.subarray(y * crop.width * 4, (y + 1) * crop.width * 4), ((rect.y + y) * width + rect.x) * 4);
  }
  return { width, height, data };
}
