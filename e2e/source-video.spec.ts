/**
 * The clip's source video, kept: a real H.264 MP4 (ffmpeg-made from the demo video, whose frames
 * carry their number as a barcode, src/demo/barcode.ts) imported at 1 fps out of 10 fps. The file is
 * kept in OPFS under its SHA-256; watch mode plays and scrubs it at the native rate; the frames
 * reader decodes exactly the native frames between two sampled ones; a missing file is relinked
 * only with the right bytes; deleting the clip for good removes the file; brightness and contrast
 * touch the frame layer only.
 */
import { test, expect, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createProject } from './helpers/app';
import { readRows } from './helpers/store';
import { readBarcode, barcodeRect } from '../src/demo/barcode';

interface ClipRow {
  id: string;
  name: string;
  width: number;
  height: number;
  frameCount: number;
  sampleFps: number;
  source: { kind: string; fileName: string; video?: { sha256: string; size: number; nativeFps: number | null; durationSec: number; startSec: number } };
}

function hasFfmpeg(): boolean {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Size and SHA-256 of the kept file in OPFS (videos/<sha>), or null when it is not there. */
async function keptFile(page: Page, sha: string): Promise<{ size: number; sha256: string } | null> {
  return page.evaluate(async (sha) => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('videos', { create: true });
    try {
      const file = await (await dir.getFileHandle(sha)).getFile();
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await file.arrayBuffer()));
      return { size: file.size, sha256: [...digest].map((b) => b.toString(16).padStart(2, '0')).join('') };
    } catch {
      return null;
    }
  }, sha);
}

/** The native frames between two clip times, decoded in the page by the frames reader, as their barcode numbers and times. */
async function framesBetween(page: Page, clipId: string, fromSec: number, toSec: number, max?: number): Promise<{ timeSec: number; barcode: number | null }[]> {
  const clip = (await readRows<ClipRow>(page, 'clips')).find((c) => c.id === clipId)!;
  const rect = barcodeRect(clip.width, clip.height);
  const got = await page.evaluate(
    async ({ clip, fromSec, toSec, max, rect }) => {
      const hooks = (window as unknown as { __spocTestHooks: { openSourceFrames: (c: unknown) => Promise<{ framesBetween: (a: number, b: number, o: { max?: number }) => AsyncIterable<{ timeSec: number; image: { width: number; height: number; data: Uint8ClampedArray } }>; close(): void } | null> } }).__spocTestHooks;
      const src = await hooks.openSourceFrames(clip);
      if (!src) return null;
      const out: { timeSec: number; width: number; height: number; rows: number[] }[] = [];
      for await (const f of src.framesBetween(fromSec, toSec, { max })) {
        // Only the barcode's rows cross back to Node.
        out.push({ timeSec: f.timeSec, width: f.image.width, height: f.image.height, rows: Array.from(f.image.data.subarray(0, (rect.y + rect.h) * f.image.width * 4)) });
      }
      src.close();
      return out;
    },
    { clip, fromSec, toSec, max, rect },
  );
  expect(got, 'the clip has its source video').not.toBeNull();
  return got!.map((f) => {
    expect([f.width, f.height]).toEqual([clip.width, clip.height]);
    const data = new Uint8ClampedArray(f.width * f.height * 4);
    data.set(f.rows);
    return { timeSec: f.timeSec, barcode: readBarcode({ width: f.width, height: f.height, data }) };
  });
}

test('a video import keeps its H.264 source: watch it at 10 fps, decode the frames between samples, relink, delete for good (ffmpeg-made)', async ({ page }, testInfo) => {
  test.skip(!hasFfmpeg(), 'needs ffmpeg on PATH to make the H.264 clip (apt-get install ffmpeg)');
  test.setTimeout(240_000);
  await page.addInitScript(() => {
    (window as unknown as { __spocTestHooks: object }).__spocTestHooks = {};
  });
  await createProject(page, 'Watch');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /Download a generated demo video/ }).click();
  const webm = testInfo.outputPath('demo-10fps.webm');
  await (await download).saveAs(webm);
  // The demo video (20 s at 10 fps, its frame number as a barcode) as a real H.264 MP4.
  const mp4 = testInfo.outputPath('kitchen.mp4');
  execFileSync('ffmpeg', ['-y', '-loglevel', 'error', '-i', webm, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-profile:v', 'high', '-r', '10', '-crf', '18', mp4]);
  const bytes = readFileSync(mp4);
  const sha = createHash('sha256').update(bytes).digest('hex');

  await page.getByLabel('Video sampling').fill('1');
  await page.getByTestId('import-video').setInputFiles(mp4);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 120_000 });
  const [clip] = await readRows<ClipRow>(page, 'clips');
  expect(clip).toMatchObject({ frameCount: 20, sampleFps: 1 });
  expect(clip.source.video).toMatchObject({ sha256: sha, size: bytes.length, fileName: 'kitchen.mp4', nativeFps: 10 });
  expect(await keptFile(page, sha)).toEqual({ size: bytes.length, sha256: sha });

  // After a reload: open the clip and watch.
  await page.reload();
  await page.getByTestId('clip-card').filter({ hasText: 'kitchen' }).click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
  await page.keyboard.press('Shift+K');
  await expect(page.getByTestId('watch-video')).toBeVisible();
  await expect(page.getByTestId('watch-nearest')).toHaveAttribute('data-frame', '0');
  await page.keyboard.press('k'); // play
  await expect(page.getByTestId('watch-play')).toHaveAttribute('aria-label', 'Pause');
  await expect.poll(async () => Number(await page.getByTestId('watch-time').getAttribute('data-time')), { timeout: 20_000 }).toBeGreaterThan(1.6);
  await page.keyboard.press('k'); // pause
  await expect(page.getByTestId('watch-play')).toHaveAttribute('aria-label', 'Play');
  await expect.poll(async () => Number(await page.getByTestId('watch-nearest').getAttribute('data-frame'))).toBeGreaterThanOrEqual(1);

  // Scrub with the mouse to about three quarters: the time and the nearest sampled frame follow.
  const bar = (await page.getByTestId('watch-scrub').boundingBox())!;
  await page.mouse.click(bar.x + bar.width * 0.75, bar.y + bar.height / 2);
  await expect.poll(async () => Number(await page.getByTestId('watch-time').getAttribute('data-time'))).toBeGreaterThan(13);
  const t = Number(await page.getByTestId('watch-time').getAttribute('data-time'));
  // Sampled at 1 fps: frame k at k s; a tie goes to the earlier frame.
  const nearestAt = (sec: number) => (sec - Math.floor(sec) <= 0.5 + 1e-9 ? Math.floor(sec) : Math.ceil(sec));
  await expect(page.getByTestId('watch-nearest')).toHaveAttribute('data-frame', String(nearestAt(t)));
  // One native frame on: 0.1 s.
  await page.getByRole('button', { name: 'Next native frame' }).click();
  await expect.poll(async () => Number(await page.getByTestId('watch-time').getAttribute('data-time'))).toBeCloseTo(t + 0.1, 2);
  await page.getByTestId('watch-go').click();
  await expect(page.getByTestId('watch-panel')).toHaveCount(0);
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', String(nearestAt(t + 0.1)));
  // Watching added no annotation targets.
  expect((await readRows<{ clipId: string }>(page, 'frames')).length).toBe(20);

  // The frames reader: exactly the 9 native frames between sampled frames 1 and 2 (1 s and 2 s), in order, at the clip's size.
  const between = await framesBetween(page, clip.id, 1, 2);
  expect(between.map((f) => f.barcode)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19]);
  between.forEach((f, i) => expect(f.timeSec).toBeCloseTo(1.1 + i * 0.1, 3));
  expect((await framesBetween(page, clip.id, 5, 6, 3)).map((f) => f.barcode)).toEqual([52, 55, 58]);

  // OPFS cleared: the editor offers to link the file, and refuses any other.
  await page.evaluate(async (sha) => (await (await navigator.storage.getDirectory()).getDirectoryHandle('videos')).removeEntry(sha), sha);
  await page.keyboard.press('Shift+K');
  await expect(page.getByTestId('watch-missing')).toContainText('"kitchen.mp4" is not in this browser');
  await page.getByTestId('watch-link').setInputFiles(webm);
  await expect(page.getByTestId('watch-link-problem')).toContainText("demo-10fps.webm is not this clip's video: it has");
  const forged = Buffer.from(bytes);
  forged[forged.length >> 1] ^= 0xff;
  const forgedPath = testInfo.outputPath('kitchen-copy.mp4');
  writeFileSync(forgedPath, forged);
  await page.getByTestId('watch-link').setInputFiles(forgedPath);
  await expect(page.getByTestId('watch-link-problem')).toContainText("kitchen-copy.mp4 is not this clip's video: it has the same size as \"kitchen.mp4\" but different contents");
  expect(await keptFile(page, sha)).toBeNull();
  await page.getByTestId('watch-link').setInputFiles(mp4);
  await expect(page.getByTestId('watch-video')).toBeVisible();
  expect(await keptFile(page, sha)).toEqual({ size: bytes.length, sha256: sha });
  await page.getByRole('button', { name: 'Close watch mode' }).click();

  // Brightness: a filter on the frame layer's canvas only; kept across a reload; reset.
  const layers = page.getByTestId('editor-canvas').locator('canvas');
  const maskBefore = await layers.nth(1).evaluate((c: HTMLCanvasElement) => c.toDataURL());
  await page.getByLabel('Frame brightness').focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await expect(layers.nth(0)).toHaveCSS('filter', 'brightness(1.25)');
  await expect(layers.nth(1)).toHaveCSS('filter', 'none');
  expect(await layers.nth(1).evaluate((c: HTMLCanvasElement) => c.toDataURL())).toBe(maskBefore);
  await page.reload();
  await expect(page.getByTestId('editor-canvas').locator('canvas').nth(0)).toHaveCSS('filter', 'brightness(1.25)');
  await page.getByRole('button', { name: 'Reset brightness and contrast' }).click();
  await expect(page.getByTestId('editor-canvas').locator('canvas').nth(0)).toHaveCSS('filter', 'none');

  // Propagation (no SAM model: the weight-free tracker) steps through the kept video's native
  // frames between two samples: 9 at 10 fps sampled at 1 fps.
  await page.keyboard.press('1');
  const canvasBox = (await page.getByTestId('editor-canvas').boundingBox())!;
  await page.mouse.move(canvasBox.x + canvasBox.width / 2 - 20, canvasBox.y + canvasBox.height / 2);
  await page.mouse.down();
  await page.mouse.move(canvasBox.x + canvasBox.width / 2 + 20, canvasBox.y + canvasBox.height / 2, { steps: 4 });
  await page.mouse.up();
  await page.getByRole('button', { name: 'Propagate →' }).click();
  await expect(page.getByTestId('propagate-confidence')).toHaveAttribute('title', /tracked through 9 native frames/, { timeout: 120_000 });

  // Delete for good: the kept file goes with the last clip that used it.
  await page.getByRole('link', { name: '← clips' }).click();
  await page.getByTestId('clip-card').filter({ hasText: 'kitchen' }).getByRole('button', { name: 'Move kitchen to the trash' }).click();
  expect(await keptFile(page, sha)).not.toBeNull(); // the trash keeps it: the clip may come back
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Delete kitchen for good' }).click();
  await expect(page.getByTestId('clip-trash')).toHaveCount(0);
  await expect.poll(() => keptFile(page, sha)).toBeNull();
});

test('a clip imported before videos were kept is linked by duration: a video of another length is refused by name, the right one accepted and recorded (ffmpeg-made)', async ({ page }, testInfo) => {
  test.skip(!hasFfmpeg(), 'needs ffmpeg on PATH to make the H.264 clips (apt-get install ffmpeg)');
  test.setTimeout(180_000);
  const make = (name: string, seconds: number) => {
    const file = testInfo.outputPath(name);
    execFileSync('ffmpeg', ['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc=size=160x90:rate=10:duration=${seconds}`, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-profile:v', 'high', file]);
    return file;
  };
  const right = make('old-clip.mp4', 6);
  const longer = make('longer.mp4', 8);
  await createProject(page, 'Legacy');
  await page.getByLabel('Video sampling').fill('1');
  await page.getByTestId('import-video').setInputFiles(right);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 120_000 });
  // As a clip imported before videos were kept: no reference on the row, no file.
  const [clip] = await readRows<ClipRow>(page, 'clips');
  const sha = clip.source.video!.sha256;
  await page.evaluate(
    async ({ id, sha }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open('spoc-studio');
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const store = db.transaction('clips', 'readwrite').objectStore('clips');
      const row = await new Promise<{ source: { video?: unknown } }>((resolve) => {
        const req = store.get(id);
        req.onsuccess = () => resolve(req.result);
      });
      delete row.source.video;
      await new Promise((resolve) => (store.put(row).onsuccess = resolve));
      db.close();
      await (await (await navigator.storage.getDirectory()).getDirectoryHandle('videos')).removeEntry(sha);
    },
    { id: clip.id, sha },
  );
  await page.reload();
  await page.getByTestId('clip-card').filter({ hasText: 'old-clip' }).click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
  await page.keyboard.press('Shift+K');
  await expect(page.getByTestId('watch-missing')).toContainText('has no kept source video');
  await page.getByTestId('watch-link').setInputFiles(longer);
  await expect(page.getByTestId('watch-link-problem')).toContainText("longer.mp4 is not this clip's video: it lasts 8.00 s, the clip 6.00 s");
  await page.getByTestId('watch-link').setInputFiles(right);
  await expect(page.getByTestId('watch-video')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'checked by its duration only' })).toBeVisible();
  const [linked] = await readRows<ClipRow>(page, 'clips');
  expect(linked.source.video).toMatchObject({ sha256: sha, fileName: 'old-clip.mp4', nativeFps: 10 });
  expect(await keptFile(page, sha)).toMatchObject({ sha256: sha });
});
