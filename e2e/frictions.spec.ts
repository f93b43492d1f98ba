/**
 * Small frictions a new user meets, each checked the way they met it, in Chromium with the real
 * IndexedDB: notices that followed them across pages and users, a form that forgot their choices,
 * buttons Tab never reached, an ignore reason with nowhere to say why.
 */
import { test, expect, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { createProject } from './helpers/app';
import { hasFfmpeg } from './helpers/ffmpeg';
import { readRows, storedFramePixels } from './helpers/store';
import { readBarcode, barcodeRect } from '../src/demo/barcode';

async function failAnImport(page: Page): Promise<void> {
  await page.getByTestId('import-video').setInputFiles({ name: 'broken.mp4', mimeType: 'video/mp4', buffer: Buffer.from('not a video at all') });
  await expect(page.getByRole('alert').filter({ hasText: 'broken.mp4' })).toBeVisible();
}

test('a notice stays in the view and with the user it was raised for', async ({ page }) => {
  await createProject(page, 'Notices');
  await failAnImport(page);
  // Leaving the project: its import error does not follow to the project list.
  await page.getByRole('link', { name: 'SPOC Studio' }).click();
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // Becoming someone else clears what was raised for the previous user.
  await page.goBack();
  await failAnImport(page);
  const field = page.getByLabel('Your name');
  await field.fill('someone else');
  await field.press('Tab');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('ignoring a frame for "other" asks why, and stores the words', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  await page.getByTestId('clip-card').filter({ hasText: 'peeling potato (demo 2)' }).click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
  await page.keyboard.press('i');
  await page.getByLabel(/Why is frame 1 ignored/).selectOption('other');
  const note = page.getByLabel('Why (required)');
  await expect(note).toBeVisible();
  await page.getByRole('button', { name: 'Ignore frame', exact: true }).click();
  await expect(page.getByText('"Other" needs a few words')).toBeVisible();
  await expect(page.getByTestId('ignored-banner')).toHaveCount(0);

  await note.fill('a hand covers the pot');
  await page.getByRole('button', { name: 'Ignore frame', exact: true }).click();
  await expect(page.getByTestId('ignored-banner')).toContainText('Other — a hand covers the pot');
  const clip = (await readRows<{ id: string; name: string }>(page, 'clips')).find((c) => c.name === 'peeling potato (demo 2)')!;
  const frame = (await readRows<{ clipId: string; index: number; ignored?: { reason: string; note?: string } }>(page, 'frames')).find((f) => f.clipId === clip.id && f.index === 0)!;
  expect(frame.ignored).toMatchObject({ reason: 'other', note: 'a hand covers the pot' });
});

test('the page has a favicon that loads', async ({ page }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toBeTruthy();
  const icon = await page.request.get(new URL(href!, page.url()).href);
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
  expect(await icon.text()).toContain('<svg');
});

test('disabled AI actions say which model they need, and the Models dialog says where weights come from', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  await page.getByTestId('clip-card').filter({ hasText: 'peeling potato (demo 2)' }).click();
  await expect(page.getByTestId('proposals-button')).toBeDisabled();
  await expect(page.getByTestId('prelabel-button')).toBeDisabled();
  const need = page.getByTestId('ai-needs');
  await expect(need).toContainText('needs SAM + CLIP');
  await expect(page.getByTestId('proposals-button')).toHaveAccessibleDescription(/Proposals need a SAM model, and none is loaded/);
  await expect(page.getByTestId('prelabel-button')).toHaveAccessibleDescription(/needs a SAM model and a CLIP model/);

  await need.click();
  const dialog = page.getByRole('dialog', { name: 'AI assist models' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('public-model')).toHaveCount(3);
  await expect(dialog.getByTestId('public-model').filter({ hasText: 'SlimSAM-77' })).toContainText('40 MB');
  await expect(dialog.getByTestId('public-model').filter({ hasText: 'SlimSAM-77' })).toContainText('Apache-2.0');
  await expect(dialog.getByTestId('public-model').filter({ hasText: 'CLIP ViT-B/32' })).toContainText('MIT');
  await expect(dialog).toContainText('npm run models:fetch');
});

test('the demo project is one click, with its progress counted in frames', async ({ page }) => {
  await page.goto('/');
  const button = page.getByRole('button', { name: 'Open demo project' });
  const t0 = Date.now();
  await button.click();
  await expect(page.getByRole('button', { name: /^Generating demo… \d+\/60 frames$/ })).toBeVisible();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  test.info().annotations.push({ type: 'demo-ms', description: String(Date.now() - t0) });
});

test('"with frame images" is offered only for the folder formats that store images', async ({ page }) => {
  await createProject(page, 'Export');
  const checkbox = page.getByLabel('with frame images');
  for (const [format, offered] of [['wtc', true], ['davis', true], ['coco', false], ['visor', false]] as const) {
    await page.getByLabel('Export format').selectOption(format);
    await expect(checkbox).toHaveCount(offered ? 1 : 0);
  }
});

test('the import form remembers its choices per project', async ({ page }) => {
  await createProject(page, 'Dogs');
  const dogs = page.url();
  await expect(page.getByLabel('Object')).toHaveValue('');
  await page.getByLabel('Verb', { exact: true }).selectOption('peeling');
  await page.getByLabel('Object').fill('dog');
  await page.getByLabel('Video sampling').fill('2');
  await page.getByRole('link', { name: 'SPOC Studio' }).click();
  await page.goto(dogs);
  await expect(page.getByLabel('Verb', { exact: true })).toHaveValue('peeling');
  await expect(page.getByLabel('Object')).toHaveValue('dog');
  await expect(page.getByLabel('Video sampling')).toHaveValue('2');
  await page.reload();
  await expect(page.getByLabel('Object')).toHaveValue('dog');

  // Another project starts from its own (empty) form, not from a carrot nobody chose.
  await createProject(page, 'Cats');
  await expect(page.getByLabel('Object')).toHaveValue('');
  await expect(page.getByLabel('Verb', { exact: true })).toHaveValue('grating');
});

test('Tab reaches the import buttons and Enter opens the file picker', async ({ page }) => {
  await createProject(page, 'Keyboard');
  await page.getByLabel('Video sampling').focus();
  // After the rate field (and the demo video link) come the three import buttons, in order.
  const reached: string[] = [];
  for (let i = 0; i < 6 && reached.length < 3; i++) {
    await page.keyboard.press('Tab');
    const text = (await page.locator(':focus').textContent()) ?? '';
    if (/…$/.test(text)) reached.push(text);
  }
  expect(reached.map((t) => t.replace(/^Video files?/, 'Video'))).toEqual(['Video…', 'Folder of frames / WhereToChange…', 'Zip of frames / WhereToChange…']);
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(page.locator(':focus')).toHaveText(/^Video files?…$/);
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await chooser;
});

test('sampling above the video\'s own rate takes every frame once, at its rate, and says so', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await createProject(page, 'Rates');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /Download a generated demo video/ }).click();
  const file = testInfo.outputPath('demo-10fps.webm');
  await (await download).saveAs(file);

  // The demo video runs at 10 fps for 20 s, its frame number drawn in each frame.
  await page.getByLabel('Video sampling').fill('25');
  await page.getByTestId('import-video').setInputFiles(file);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 120_000 });
  await expect(page.getByRole('status').filter({ hasText: "sampled at 10 fps, the video's own frame rate, instead of the 25 fps asked for" })).toBeVisible();
  const [clip] = await readRows<{ id: string; frameCount: number; sampleFps: number; width: number; height: number }>(page, 'clips');
  expect(clip).toMatchObject({ frameCount: 200, sampleFps: 10 });
  const frames = (await readRows<{ clipId: string; index: number; timestampSec: number }>(page, 'frames')).sort((a, b) => a.index - b.index);
  expect(frames.map((f) => f.timestampSec)).toEqual(Array.from({ length: 200 }, (_, k) => k / 10));
  const rect = barcodeRect(clip.width, clip.height);
  for (const k of [0, 1, 2, 99, 199]) {
    const px = await storedFramePixels(page, clip.id, k, rect);
    const data = new Uint8ClampedArray(clip.width * clip.height * 4);
    for (let y = 0; y < px.height; y++) data.set(Uint8ClampedArray.from(px.data).subarray(y * px.width * 4, (y + 1) * px.width * 4), ((rect.y + y) * clip.width + rect.x) * 4);
    expect(readBarcode({ width: clip.width, height: clip.height, data }), `frame ${k}`).toBe(k);
  }
});

test('a real 29.97 fps H.264 clip asked at 60 fps gives each of its 293 frames once (ffmpeg-made)', async ({ page }, testInfo) => {
  test.skip(!hasFfmpeg(), 'needs ffmpeg on PATH to make the H.264 clip (apt-get install ffmpeg)');
  test.setTimeout(180_000);
  const file = testInfo.outputPath('ntsc.mp4');
  // 9.75 s at 30000/1001 fps: 293 frames; sampling at 60 fps used to give 585.
  execFileSync('ffmpeg', ['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=30000/1001:duration=9.75', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-profile:v', 'high', file]);
  await createProject(page, 'NTSC');
  await page.getByLabel('Video sampling').fill('60');
  await page.getByTestId('import-video').setInputFiles(file);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 120_000 });
  await expect(page.getByRole('status').filter({ hasText: 'sampled at 29.97 fps' })).toBeVisible();
  const [clip] = await readRows<{ frameCount: number; sampleFps: number }>(page, 'clips');
  expect(clip.frameCount).toBe(293);
  expect(clip.sampleFps).toBeCloseTo(30000 / 1001, 9);
  const times = (await readRows<{ index: number; timestampSec: number }>(page, 'frames')).sort((a, b) => a.index - b.index).map((f) => f.timestampSec);
  for (let k = 1; k < times.length; k++) expect(times[k] - times[k - 1]).toBeCloseTo(1001 / 30000, 4);
});
