/**
 * Every kind of bad input gets a message naming the file and the problem, and leaves the store
 * exactly as it was (same rows, same keys in every object store).
 */
import { test, expect, type Page } from '@playwright/test';
import { join } from 'node:path';
import { createProject, expectError } from './helpers/app';
import { storeSnapshot } from './helpers/store';
import { hugePngHeader, writeBytes, writeFrames, writeWtcVideo, writeZip } from './fixtures/files';
import { encodeIndexedPng } from '../src/io/indexedPng';
import { createLabelMap } from '../src/masks/labelMap';

async function expectRefused(page: Page, act: () => Promise<void>, message: string | RegExp) {
  const before = await storeSnapshot(page);
  await act();
  await expectError(page, message);
  await expect(page.getByTestId('import-progress')).toHaveCount(0);
  expect(await storeSnapshot(page)).toEqual(before);
}

test.describe('bad input is refused by name and leaves the store unchanged', () => {
  test.beforeEach(async ({ page, baseURL }, info) => {
    if (info.title.includes('disk fills up')) {
      // A small disk: Chromium enforces a quota override on an origin whose storage it has not opened yet.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(baseURL!).origin, quotaSize: 400_000 });
    }
    await createProject(page, 'Bad inputs');
  });

  test('a file that is not a video', async ({ page }, info) => {
    const file = info.outputPath('broken.mp4');
    await writeBytes(file, new Uint8Array(50_000).map((_, i) => (i * 7919) % 251));
    await expectRefused(page, () => page.getByTestId('import-video').setInputFiles(file), 'broken.mp4: not a video this app can read');
  });

  test('a truncated video', async ({ page }, info) => {
    // The first bytes of a real WebM header, then nothing.
    const file = info.outputPath('cut.webm');
    await writeBytes(file, new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81]));
    await expectRefused(page, () => page.getByTestId('import-video').setInputFiles(file), /cut\.webm: /);
  });

  test('a zip with no images', async ({ page }, info) => {
    const file = info.outputPath('notes.zip');
    await writeZip(file, { 'readme.txt': 'hello', 'data/labels.csv': '1,2,3' });
    await expectRefused(page, () => page.getByTestId('import-zip').setInputFiles(file), 'notes.zip: contains no images');
  });

  test('a truncated zip', async ({ page }, info) => {
    const whole = info.outputPath('whole.zip');
    await writeZip(whole, { 'f/frame1.jpg': new Uint8Array(4000).fill(3) });
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(whole);
    const file = info.outputPath('cut.zip');
    await writeBytes(file, bytes.subarray(0, bytes.length - 40));
    await expectRefused(page, () => page.getByTestId('import-zip').setInputFiles(file), 'cut.zip: is not a readable zip archive');
  });

  test('frames of mixed sizes', async ({ page }, info) => {
    const dir = info.outputPath('mixed');
    await writeFrames(dir, [[320, 180], [320, 180], [160, 90]]);
    await expectRefused(
      page,
      () => page.getByTestId('import-folder').setInputFiles(dir),
      'mixed/frame3.jpg: is 160x90 but the first frame (frame1.jpg) is 320x180',
    );
  });

  test('an image declaring a size beyond sane limits', async ({ page }, info) => {
    const dir = info.outputPath('huge');
    await writeBytes(join(dir, 'frame1.png'), hugePngHeader());
    await expectRefused(page, () => page.getByTestId('import-folder').setInputFiles(dir), 'huge/frame1.png: declares a size of 100000x100000');
  });

  test('an image whose body is corrupt', async ({ page }, info) => {
    const dir = info.outputPath('corrupt');
    await writeFrames(dir, [[320, 180]]);
    // A valid JPEG header with the rest cut away.
    const { readFile } = await import('node:fs/promises');
    const good = await readFile(join(dir, 'frame1.jpg'));
    await writeBytes(join(dir, 'frame2.jpg'), good.subarray(0, 700));
    await expectRefused(page, () => page.getByTestId('import-folder').setInputFiles(dir), 'corrupt/frame2.jpg: is not a readable image');
  });

  test('a WhereToChange mask of the wrong size', async ({ page }, info) => {
    const root = info.outputPath('wtc-size');
    await writeWtcVideo(root, { osc: 'chopping_onion', video: 'v1', seed: 3, kind: 'slicing', width: 320, height: 180, seconds: 3, masked: [] });
    await writeBytes(join(root, 'chopping_onion/gt/masks/v1/frame0002.png'), encodeIndexedPng(createLabelMap(100, 50)));
    await expectRefused(page, () => page.getByTestId('import-folder').setInputFiles(root), /chopping_onion\/gt\/masks\/v1\/frame0002\.png: .*100x50.*320x180/);
  });

  test('a WhereToChange mask with no matching frame', async ({ page }, info) => {
    const root = info.outputPath('wtc-orphan');
    await writeWtcVideo(root, { osc: 'chopping_onion', video: 'v1', seed: 3, kind: 'slicing', width: 320, height: 180, seconds: 3, masked: [0] });
    await writeBytes(join(root, 'chopping_onion/gt/masks/v1/frame0099.png'), encodeIndexedPng(createLabelMap(320, 180)));
    await expectRefused(
      page,
      () => page.getByTestId('import-folder').setInputFiles(root),
      'chopping_onion/gt/masks/v1/frame0099.png: has no matching frame frame0099.* in chopping_onion/JPEGImages_1fps/v1/',
    );
  });

  test('a WhereToChange mask with a label outside the palette', async ({ page }, info) => {
    const root = info.outputPath('wtc-label');
    await writeWtcVideo(root, { osc: 'chopping_onion', video: 'v1', seed: 3, kind: 'slicing', width: 320, height: 180, seconds: 2, masked: [] });
    const bad = createLabelMap(320, 180);
    bad.data[5 * 320 + 7] = 9;
    await writeBytes(join(root, 'chopping_onion/gt/masks/v1/frame0001.png'), encodeIndexedPng(bad));
    await expectRefused(page, () => page.getByTestId('import-folder').setInputFiles(root), /frame0001\.png: .*9.*\(x=7, y=5\)/);
  });

  test('the disk fills up in the middle of an import', async ({ page }, info) => {
    const root = info.outputPath('wtc-quota');
    await writeWtcVideo(root, { osc: 'grating_cheese', video: 'big', seed: 8, kind: 'grating', width: 640, height: 360, seconds: 12, masked: [0, 1, 2] });
    await expectRefused(page, () => page.getByTestId('import-folder').setInputFiles(root), /Storage is full: could not save clip "big"/);
  });
});
