/**
 * "Export annotations as…" from the project page: the downloaded files carry exactly the stored
 * masks (COCO RLE decoded in Node; WhereToChange PNGs decoded in Node), for gt and a prediction source.
 */
import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { readRows } from './helpers/store';
import { decodeIndexedPng } from '../src/io/indexedPng';
import { parseCocoRle } from '../src/masks/rle';
import { rleArea } from '../src/masks/rleOps';
import { labelArea } from '../src/masks/geometry';

interface LayerRow { clipId: string; frameIndex: number; source: string; actArea: number; trfArea: number }
interface ClipRow { id: string; name: string }

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
});

test('COCO export of gt carries every stored mask, pycocotools-style', async ({ page }, info) => {
  await page.getByLabel('Export format').selectOption('coco');
  await page.getByLabel('Export source').selectOption('gt');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const file = info.outputPath('gt.json');
  await (await download).saveAs(file);
  const coco = JSON.parse(await readFile(file, 'utf8')) as {
    images: { id: number; file_name: string }[];
    categories: { id: number; name: string }[];
    annotations: { image_id: number; category_id: number; area: number; segmentation: unknown }[];
  };
  expect(coco.categories.map((c) => c.name)).toEqual(['actionable', 'transformed']);
  const layers = (await readRows<LayerRow>(page, 'layers')).filter((l) => l.source === 'gt');
  const storedTotal = layers.reduce((n, l) => n + l.actArea + l.trfArea, 0);
  const exportedTotal = coco.annotations.reduce((n, a) => n + rleArea(parseCocoRle(a.segmentation)), 0);
  expect(exportedTotal).toBe(storedTotal);
  expect(coco.annotations.every((a) => a.area === rleArea(parseCocoRle(a.segmentation)))).toBe(true);
});

test('WhereToChange zip of a prediction source has frames and exact indexed masks', async ({ page }, info) => {
  await page.getByLabel('Export format').selectOption('wtc');
  await page.getByLabel('Export source').selectOption('pred:generator');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const file = info.outputPath('pred.zip');
  await (await download).saveAs(file);
  const entries = unzipSync(new Uint8Array(await readFile(file)));
  const names = Object.keys(entries);
  expect(names.some((n) => /JPEGImages_1fps\/.+\.jpg$/.test(n))).toBe(true);

  const clips = await readRows<ClipRow>(page, 'clips');
  const peeling = clips.find((c) => c.name.startsWith('peeling'))!;
  const layer = (await readRows<LayerRow>(page, 'layers')).find((l) => l.clipId === peeling.id && l.source === 'pred:generator' && l.frameIndex === 10)!;
  // A prediction goes to the layout's prediction place, never where ground truth goes.
  expect(names.filter((n) => n.includes('/gt/'))).toEqual([]);
  const maskName = names.find((n) => n.includes('/pred/masks/') && n.includes(peeling.name) && /frame0*10\.png$/.test(n));
  expect(maskName, names.filter((n) => n.includes('masks')).slice(0, 3).join(', ')).toBeDefined();
  const map = decodeIndexedPng(entries[maskName!], { fileName: maskName! });
  expect([labelArea(map, 1), labelArea(map, 2)]).toEqual([layer.actArea, layer.trfArea]);
});
