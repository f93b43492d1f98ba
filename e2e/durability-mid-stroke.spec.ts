/**
 * A stroke the browser cut off (docs/durability.md, "Strokes in progress"): the brush is down and
 * dragged when the whole browser is SIGKILLed, so no pointer-up ever came and no commit was made.
 * The input written as it was drawn lets the next start save the stroke as far as it got, as one
 * revision by its painter, and the app says so. Before the drafts the stroke was gone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { launchChromium, sleep, type RunningChromium } from './durability/chromiumProcess';
import { createDemo, openFrame } from './durability/appDriver';
import { countRevisions, storedSpots } from './durability/storedStrokes';
import { STROKE_HALF_LENGTH, strokeSpot } from './durability/strokePlan';

test('a stroke still being drawn when the browser is killed is saved at the next start, and the app says so', async ({ baseURL }) => {
  test.setTimeout(180_000);
  const profile = mkdtempSync(join(tmpdir(), 'spoc-mid-stroke-'));
  let browser: RunningChromium | null = null;
  try {
    browser = await launchChromium(profile);
    let page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const clip = await createDemo(page, baseURL!);
    const spot = strokeSpot(0, clip);
    await openFrame(page, baseURL!, clip.id, spot.frameIndex);
    const revisionsBefore = await countRevisions(page, clip.id);

    const canvas = page.getByTestId('editor-canvas');
    const [box, view] = await Promise.all([canvas.boundingBox(), canvas.getAttribute('data-view')]);
    const [scale, tx, ty] = view!.split(' ').map(Number);
    const at = (x: number) => ({ x: box!.x + tx + x * scale, y: box!.y + ty + spot.y * scale });
    await page.mouse.move(at(spot.x - STROKE_HALF_LENGTH).x, at(0).y);
    await page.mouse.down();
    await page.mouse.move(at(spot.x + STROKE_HALF_LENGTH).x, at(0).y, { steps: 4 });
    await sleep(300); // the stroke is drawn and the brush still down
    await browser.kill();
    browser = null;

    browser = await launchChromium(profile);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await openFrame(page, baseURL!, clip.id, spot.frameIndex);
    await expect(page.getByText(/Saved 1 stroke the browser cut off/)).toBeVisible();
    expect([...(await storedSpots(page, clip.id, [spot]))]).toEqual([spot.n]);
    expect(await countRevisions(page, clip.id)).toBe(revisionsBefore + 1);

    // The editor holds it as one undo step.
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await storedSpots(page, clip.id, [spot])).size).toBe(0);
  } finally {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
