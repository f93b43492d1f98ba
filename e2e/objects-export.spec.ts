/**
 * "Export annotations as…" in an objects project (docs/formats.md "Objects"), in real Chromium
 * with the real IndexedDB: two objects painted with the real mouse (a left hand and a pan) export
 * as VISOR entities and as COCO annotations with a category per class and a track per object; the
 * files' masks decode to exactly the stored objects' pixels under the stored ids.
 */
import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { writeFrames } from './fixtures/files';
import { drag, openEditor, waitSaved } from './helpers/editor';
import { readRows } from './helpers/store';
import { parseCocoRle } from '../src/masks/rle';
import { rleArea } from '../src/masks/rleOps';
import { importVisor } from '../src/io/formats/visor';

interface Rle { size: [number, number]; counts: string }
interface LayerRow { frameIndex: number; source: string; objects?: { id: string; rle: Rle; area: number }[] }
interface ObjectRow { id: string; number: number; name: string; classId?: string }

test('an objects project exports its objects as VISOR entities and COCO tracks', async ({ page }, info) => {
  await page.goto('/');
  await page.getByLabel('New project name').fill('Export objects');
  await page.getByLabel('New project kind').selectOption('objects');
  await page.getByRole('button', { name: 'New project' }).click();
  const dir = info.outputPath('kitchen');
  await writeFrames(dir, [[320, 180], [320, 180]]);
  await page.getByTestId('import-folder').setInputFiles(dir);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 60_000 });
  await openEditor(page, 'kitchen');
  await page.getByLabel('Class of the new object').selectOption({ label: 'left hand' });
  await page.getByRole('button', { name: 'Add object' }).click();
  await drag(page, 20, 40, 120, 40);
  await waitSaved(page);
  await page.getByLabel('Class of the new object').selectOption('');
  await page.getByRole('button', { name: 'Add object' }).click();
  await page.keyboard.press('x');
  await drag(page, 70, 20, 70, 60);
  await waitSaved(page);
  const objects = await readRows<ObjectRow>(page, 'objects');
  const layer = (await readRows<LayerRow>(page, 'layers')).find((l) => l.frameIndex === 0 && l.source === 'gt')!;
  expect(layer.objects).toHaveLength(2);

  await page.getByRole('link', { name: '← clips' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(1);
  await page.getByLabel('Export format').selectOption('visor');
  await page.getByLabel('Export source').selectOption('gt');
  let download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  // One clip: one VISOR JSON file (several would come zipped).
  const visorFile = info.outputPath('visor.json');
  await (await download).saveAs(visorFile);
  const visor = importVisor(await readFile(visorFile, 'utf8'), 'visor.json');
  const a = visor.clips[0].annotations;
  expect(a.objects!.map((o) => [o.id, o.number, o.classId])).toEqual(objects.sort((x, y) => x.number - y.number).map((o) => [o.id, o.number, o.classId]));
  const frame0 = a.objectMasks!.get('gt')!.get(0)!;
  expect(frame0.objects.map((o) => [o.id, o.rle.counts])).toEqual(layer.objects!.map((o) => [o.id, o.rle.counts]));

  await page.getByLabel('Export format').selectOption('coco');
  download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const cocoFile = info.outputPath('coco.json');
  await (await download).saveAs(cocoFile);
  const coco = JSON.parse(await readFile(cocoFile, 'utf8')) as {
    categories: { id: number; name: string }[];
    annotations: { image_id: number; category_id: number; track_id: number; spoc_object_id: string; area: number; segmentation: Rle }[];
  };
  expect(coco.categories.find((c) => c.id === 300)?.name).toBe('left hand');
  const onFrame0 = coco.annotations.filter((x) => x.image_id === 1);
  expect(onFrame0.map((x) => [x.spoc_object_id, x.segmentation.counts, x.area])).toEqual(layer.objects!.map((o) => [o.id, o.rle.counts, o.area]));
  expect(onFrame0.every((x) => x.area === rleArea(parseCocoRle(x.segmentation)))).toBe(true);
  expect(new Set(onFrame0.map((x) => x.track_id)).size).toBe(2);
});
