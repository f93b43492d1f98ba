/**
 * Cancel through the one worker RPC (docs/workers.md), in real Chromium with the real workers:
 * an import cancelled mid-decode saves nothing and the next import works; the frames reader of a
 * kept source video ends its loop on break, ends it with an AbortError on abort, and the same
 * decode worker then answers the next request in full. (That a cancel stops the work inside the
 * worker is proved where it can be observed, in src/rpc/rpc.test.ts: this spec would also pass if
 * the worker carried on and its answers were dropped.)
 */
import { test, expect } from '@playwright/test';
import { createProject } from './helpers/app';
import { readRows } from './helpers/store';

interface ClipRow {
  id: string;
  width: number;
  height: number;
  frameCount: number;
}

test('an import cancelled mid-decode saves nothing; the next import and the frames reader work, and the reader stops on break and abort', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await page.addInitScript(() => {
    (window as unknown as { __spocTestHooks: object }).__spocTestHooks = {};
  });
  await createProject(page, 'Cancel');
  // The demo worker encodes the video (a 20 s, 10 fps WebM with its frame number drawn on each frame).
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /Download a generated demo video/ }).click();
  const file = testInfo.outputPath('demo.webm');
  await (await download).saveAs(file);

  // At 10 fps the import decodes 200 frames: cancel once some have arrived.
  await page.getByLabel('Video sampling').fill('10');
  await page.getByTestId('import-video').setInputFiles(file);
  const progress = page.getByTestId('import-progress');
  await expect(progress).toContainText(/Decoding demo\.webm[1-9]\d*\/200/, { timeout: 60_000 });
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(progress).toHaveCount(0);
  expect(await readRows(page, 'clips')).toEqual([]);
  expect(await readRows(page, 'frames')).toEqual([]);
  await expect(page.getByTestId('clip-card')).toHaveCount(0);

  await page.getByLabel('Video sampling').fill('1');
  await page.getByTestId('import-video').setInputFiles(file);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 60_000 });
  const [clip] = await readRows<ClipRow>(page, 'clips');
  expect(clip.frameCount).toBe(20);

  const got = await page.evaluate(async (clip) => {
    type Reader = {
      framesBetween(a: number, b: number, o?: { max?: number; signal?: AbortSignal }): AsyncIterable<{ timeSec: number }>;
      close(): void;
    };
    const hooks = (window as unknown as { __spocTestHooks: { openSourceFrames(c: unknown): Promise<Reader | null> } }).__spocTestHooks;
    const src = (await hooks.openSourceFrames(clip))!;
    const times = async (from: number, to: number) => {
      const out: number[] = [];
      for await (const f of src.framesBetween(from, to)) out.push(Math.round(f.timeSec * 10));
      return out;
    };
    // Break after the first frame: the request is cancelled in the worker.
    const broken: number[] = [];
    for await (const f of src.framesBetween(1, 2)) {
      broken.push(Math.round(f.timeSec * 10));
      break;
    }
    // Abort after the second frame: the loop ends with the signal's AbortError.
    const ac = new AbortController();
    const aborted: number[] = [];
    let abortError = '';
    try {
      for await (const f of src.framesBetween(3, 4, { signal: ac.signal })) {
        aborted.push(Math.round(f.timeSec * 10));
        if (aborted.length === 2) ac.abort();
      }
    } catch (e) {
      abortError = (e as Error).name;
    }
    // The same worker answers the next request in full.
    const after = await times(5, 6);
    src.close();
    return { broken, aborted, abortError, after };
  }, clip);
  expect(got.broken).toEqual([11]);
  expect(got.aborted).toEqual([31, 32]);
  expect(got.abortError).toBe('AbortError');
  expect(got.after).toEqual([51, 52, 53, 54, 55, 56, 57, 58, 59]);
});
