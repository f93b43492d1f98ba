/**
 * Drives the app like a user in a page we control (no Playwright test fixtures, so the soak runner
 * can use it too): create the demo project, open a frame of a clip, paint a brush stroke. Only ids,
 * labels and attributes the app shows (the same ones e2e/helpers use) are relied on.
 */
import type { Page } from '@playwright/test';
import { STROKE_HALF_LENGTH, type FrameSize, type StrokeSpot } from './strokePlan';
import { readClips } from './storedStrokes';

/** 640x360, 20 frames, empty ground truth: nothing on it but our strokes. */
export const DEMO_CLIP = 'peeling potato (demo 2)';

export interface ClipInfo extends FrameSize {
  id: string;
}

/** Creates the demo project on a fresh profile and returns the clip the strokes go on. */
export async function createDemo(page: Page, baseURL: string): Promise<ClipInfo> {
  await page.goto(`${baseURL}/`);
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await page.getByTestId('clip-card').nth(2).waitFor({ timeout: 120_000 });
  const clip = (await readClips(page)).find((c) => c.name === DEMO_CLIP);
  if (!clip) throw new Error(`appDriver: the demo project has no clip named "${DEMO_CLIP}"`);
  return { id: clip.id, width: clip.width, height: clip.height, frameCount: clip.frameCount };
}

export function clipUrl(baseURL: string, clipId: string, frameIndex: number): string {
  return `${baseURL}/#/c/${encodeURIComponent(clipId)}/${frameIndex}`;
}

/** Opens the editor on a frame, ready to paint (see readyToPaint). */
export async function openFrame(page: Page, baseURL: string, clipId: string, frameIndex: number, timeoutMs = 60_000): Promise<void> {
  await page.goto(clipUrl(baseURL, clipId, frameIndex));
  await readyToPaint(page, frameIndex, timeoutMs);
}

/**
 * Waits for the editor on `frameIndex`, editable, at 1:1, with the actionable class. A tab that
 * closed a moment ago may still hold the clip's lock, which opens the clip read-only: then reload
 * until it is editable.
 */
export async function readyToPaint(page: Page, frameIndex: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await waitEditorOn(page, frameIndex, Math.max(1000, deadline - Date.now()));
    if ((await page.getByTestId('read-only').count()) === 0) break;
    if (Date.now() > deadline) throw new Error(`appDriver: the clip stayed read-only (another tab holds it) for ${timeoutMs} ms`);
    await page.waitForTimeout(200);
    await page.reload();
  }
  await page.getByRole('button', { name: 'Actual pixels (1:1)' }).click();
  await page.waitForSelector('[data-testid="editor-canvas"][data-view^="1 "]', { timeout: 15_000 });
  await page.keyboard.press('1');
}

/** The editor shows `frameIndex` (after a reload the app reopens the frame in the URL). */
export async function waitEditorOn(page: Page, frameIndex: number, timeoutMs = 60_000): Promise<void> {
  try {
    await page.waitForSelector(`[data-testid="editor-canvas"][data-frame="${frameIndex}"]`, { timeout: timeoutMs });
  } catch (err) {
    // Say what the user would see instead of a bare timeout: an error notice, "Opening the clip…", a lost clip.
    const shown = await page
      .evaluate(() => document.body?.innerText ?? '')
      .catch((e: unknown) => `(page unreadable: ${e instanceof Error ? e.message : String(e)})`);
    throw new Error(`appDriver: the editor did not show frame ${frameIndex + 1} of ${page.url()} within ${timeoutMs} ms; the page shows:\n${shown.slice(0, 1500)}`, { cause: err });
  }
}

/** The save indicator says everything is stored (or `timeoutMs` passed: returns false). */
export function waitSaved(page: Page, timeoutMs = 15_000): Promise<boolean> {
  return waitSaveStatus(page, 'state', 'idle', timeoutMs);
}

/**
 * Waits for one of the save indicator's data attributes (state, stalled, kept) to read `value`;
 * false once `timeoutMs` passed.
 */
export async function waitSaveStatus(page: Page, attribute: 'state' | 'stalled' | 'kept', value: string, timeoutMs: number): Promise<boolean> {
  try {
    await page.waitForSelector(`[data-testid="save-status"][data-${attribute}="${value}"]`, { timeout: timeoutMs });
    return true;
  } catch {
    return false;
  }
}

export async function saveState(page: Page): Promise<string | null> {
  return page.getByTestId('save-status').getAttribute('data-state');
}

/**
 * One brush gesture centred on the spot; resolves once the browser has handled pointer-up, which
 * is the instant the harness measures from. The editor must already show the spot's frame at 1:1.
 */
export async function paintStroke(page: Page, spot: StrokeSpot): Promise<void> {
  const canvas = page.getByTestId('editor-canvas');
  const [box, view] = await Promise.all([canvas.boundingBox(), canvas.getAttribute('data-view')]);
  if (!box || !view) throw new Error('appDriver: the editor canvas is not on screen');
  const [scale, tx, ty] = view.split(' ').map(Number);
  const at = (x: number, y: number) => ({ x: box.x + tx + x * scale, y: box.y + ty + y * scale });
  const a = at(spot.x - STROKE_HALF_LENGTH, spot.y);
  const b = at(spot.x + STROKE_HALF_LENGTH, spot.y);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}
