/**
 * One prediction for the whole project, through the project page: the researcher exports the demo
 * project's `pred:generator` as WhereToChange (the app's own export, one folder per clip under
 * <verb>_<object>/pred/masks/), imports that zip back as `pred:again`, and every clip gets exactly
 * the stored masks; then a folder with a bad mask, a mask of no frame and a stray folder is refused
 * whole, with a report naming each file, and the store is exactly as it was.
 */
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { readRows, storeSnapshot } from './helpers/store';
import { decodeLayer, parseLayer } from '../src/masks/layers';
import { createLabelMap } from '../src/masks/labelMap';
import { encodeIndexedPng } from '../src/io/indexedPng';
import type { CocoRle } from '../src/masks/rle';

interface ClipRow { id: string; name: string; width: number; height: number }
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface LayerRow { clipId: string; source: string; frameIndex: number; act: CocoRle; trf: CocoRle }

test('a zip of predictions for the whole project is matched by clip name, reported, and stored exactly; a bad folder imports nothing', async ({ page }, info) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  const clips = (await readRows<ClipRow>(page, 'clips')).sort((a, b) => a.name.localeCompare(b.name));
  expect(clips).toHaveLength(3);

  // The app's own WhereToChange export of a prediction.
  await page.getByLabel('Export format').selectOption('wtc');
  await page.getByLabel('Export source').selectOption('pred:generator');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const zip = info.outputPath('pred-generator.zip');
  await (await download).saveAs(zip);

  const section = page.getByRole('region', { name: 'Predictions for the whole project' });
  await section.getByLabel('Project prediction name').fill('again');
  const chooser = page.waitForEvent('filechooser');
  await section.getByText('Import zip…').click();
  await (await chooser).setFiles(zip);
  // The demo's prediction covers some clips: those are matched, the others reported without one.
  const predicted = new Set((await readRows<LayerRow>(page, 'layers')).filter((l) => l.source === 'pred:generator').map((l) => l.clipId));
  const withPred = clips.filter((c) => predicted.has(c.id));
  expect(withPred.length).toBeGreaterThan(1);
  await expect(section.getByTestId('project-prediction-summary')).toHaveText(new RegExp(`^Imported pred:again into ${withPred.length} clips \\(\\d+ frames\\)\\.$`));
  const matched = section.getByRole('list', { name: 'Clips matched' }).getByRole('listitem');
  await expect(matched).toHaveCount(withPred.length);
  for (const [k, c] of withPred.entries()) await expect(matched.nth(k)).toHaveText(new RegExp(`^${esc(c.name)} ← [a-z]+_[a-z_-]+/pred/masks/${esc(c.name)} \\(\\d+ frames\\)$`));
  const without = clips.filter((c) => !predicted.has(c.id)).map((c) => c.name);
  if (without.length > 0) await expect(section.getByRole('list', { name: 'Clips without a prediction (scored as empty)' }).getByRole('listitem')).toHaveText(without);
  await expect(section.getByRole('list', { name: 'Errors' })).toHaveCount(0);

  // Stored: pred:again holds exactly pred:generator's masks, frame by frame, in every clip.
  const layers = await readRows<LayerRow>(page, 'layers');
  let frames = 0;
  for (const c of clips) {
    const of = (source: string) => new Map(layers.filter((l) => l.clipId === c.id && l.source === source).map((l) => [l.frameIndex, l]));
    const generator = of('pred:generator');
    const again = of('pred:again');
    expect([...again.keys()].sort((a, b) => a - b), c.name).toEqual([...generator.keys()].sort((a, b) => a - b));
    for (const [k, l] of generator) {
      const size = { width: c.width, height: c.height };
      const want = decodeLayer(parseLayer({ act: l.act, trf: l.trf }), size).data;
      const got = decodeLayer(parseLayer({ act: again.get(k)!.act, trf: again.get(k)!.trf }), size).data;
      expect(Buffer.from(got).equals(Buffer.from(want)), `${c.name} frame ${k + 1}`).toBe(true);
      frames++;
    }
  }
  expect(frames).toBeGreaterThan(0);
  await expect(section.getByTestId('project-prediction-summary')).toHaveText(`Imported pred:again into ${withPred.length} clips (${frames} frames).`);

  // A picked folder with a mask of the wrong size, a mask that names no frame and a stray folder.
  const bad = info.outputPath('bad');
  const write = (rel: string, w: number, h: number) => {
    const file = path.join(bad, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, encodeIndexedPng(createLabelMap(w, h)));
  };
  write(`${clips[0].name}/frame0000.png`, 3, 2);
  write(`${clips[1].name}/frame9999.png`, clips[1].width, clips[1].height);
  write('elsewhere/frame0000.png', clips[2].width, clips[2].height);
  const before = await storeSnapshot(page);
  await section.getByLabel('Project prediction name').fill('bad');
  const folderChooser = page.waitForEvent('filechooser');
  await section.getByText('Import folder…').click();
  await (await folderChooser).setFiles(bad);
  await expect(section.getByTestId('project-prediction-report')).toHaveAttribute('data-state', 'refused');
  await expect(section.getByTestId('project-prediction-summary')).toHaveText('Nothing was imported (2 errors).');
  const errors = section.getByRole('list', { name: 'Errors' }).getByRole('listitem');
  await expect(errors).toHaveCount(2);
  await expect(errors.filter({ hasText: `bad/${clips[0].name}/frame0000.png: ` })).toContainText('3x2');
  await expect(errors.filter({ hasText: `bad/${clips[1].name}/frame9999.png: matches no frame of clip "${clips[1].name}"` })).toHaveCount(1);
  await expect(section.getByRole('list', { name: 'Folders that matched no clip' })).toHaveText('bad/elsewhere');
  await expect(section.getByRole('list', { name: 'Clips without a prediction (scored as empty)' })).toHaveText(clips[2].name);
  expect(await storeSnapshot(page)).toEqual(before);
  expect((await readRows<LayerRow>(page, 'layers')).filter((l) => l.source === 'pred:bad')).toEqual([]);
});
