import { test, expect } from '@playwright/test';
import { createProject } from './helpers/app';
import { readRows, storedFramePixels } from './helpers/store';
import { writeWtcVideo } from './fixtures/files';
import { labelArea } from '../src/masks/geometry';
import { readBarcode } from '../src/demo/barcode';

interface ClipRow { id: string; name: string; frameCount: number; width: number; height: number; subset: string; osc: { verb: string; noun: string; actionable: string; transformed: string } }
interface LayerRow { clipId: string; frameIndex: number; source: string; actArea: number; trfArea: number }

test('a WhereToChange folder imports one clip per video, with verb, noun, frames and ground truth', async ({ page }, testInfo) => {
  const root = testInfo.outputPath('wtc-root');
  const truth = await writeWtcVideo(root, { osc: 'grating_carrot', video: 'vid_a', seed: 11, kind: 'grating', width: 320, height: 180, seconds: 6, masked: [0, 2, 5] });
  await writeWtcVideo(root, { osc: 'peeling_kiwi', video: 'vid_b', seed: 12, kind: 'peeling', width: 320, height: 180, seconds: 4, masked: [] });

  await createProject(page, 'WTC import');
  await page.getByTestId('import-folder').setInputFiles(root);
  await expect(page.getByTestId('clip-card')).toHaveCount(2, { timeout: 60_000 });

  const clips = await readRows<ClipRow>(page, 'clips');
  const a = clips.find((c) => c.name === 'vid_a')!;
  const b = clips.find((c) => c.name === 'vid_b')!;
  expect(a).toMatchObject({ frameCount: 6, width: 320, height: 180, subset: 'seen', osc: { verb: 'grating', noun: 'carrot', actionable: 'whole carrot', transformed: 'grated carrot' } });
  expect(b).toMatchObject({ frameCount: 4, subset: 'novel', osc: { verb: 'peeling', noun: 'kiwi' } });

  // Masks land as gt layers on the frames with the same file name, pixel-exact (PNG is lossless).
  const layers = (await readRows<LayerRow>(page, 'layers')).filter((l) => l.clipId === a.id && l.source === 'gt');
  expect(layers.map((l) => l.frameIndex).sort()).toEqual([0, 2, 5]);
  for (const l of layers) {
    const gt = truth.get(l.frameIndex)!;
    expect([l.actArea, l.trfArea]).toEqual([labelArea(gt, 1), labelArea(gt, 2)]);
  }
  expect(layers.find((l) => l.frameIndex === 5)!.trfArea).toBeGreaterThan(0);

  // Frames are in file order: frame k shows barcode k.
  for (const k of [0, 3, 5]) {
    const px = await storedFramePixels(page, a.id, k, { x: 0, y: 0, w: 320, h: 180 });
    expect(readBarcode({ width: 320, height: 180, data: Uint8ClampedArray.from(px.data) }), `frame ${k}`).toBe(k);
    expect(px.imageWidth).toBe(320);
  }

  await page.reload();
  await expect(page.getByTestId('clip-card')).toHaveCount(2);
  await expect(page.getByTestId('project-stats')).toContainText('10 frames · 3 annotated · 0 ignored · 7 remaining');

  // Filters: by verb and by subset.
  await page.getByLabel('Filter by subset').selectOption('novel');
  await expect(page.getByTestId('clip-name')).toHaveText(['vid_b']);
  await page.getByLabel('Filter by subset').selectOption('all');
  await page.getByLabel('Search clips').fill('carrot');
  await expect(page.getByTestId('clip-name')).toHaveText(['vid_a']);
});
