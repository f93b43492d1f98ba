/**
 * Frictions met in the annotator, each checked the way it was met, with the real mouse and keyboard
 * in Chromium and the real IndexedDB: an eraser that did nothing on the other state, Shift+1 / Shift+2
 * dead on a US keyboard, a flood fill that poured through a gap over the whole frame, an outline one
 * image pixel wide in a colour lost on orange objects, phases set one frame at a time, a suggestion
 * previewed half, rejections invisible outside reviewer mode, and settings lost on reload.
 *
 * The demo clip "peeling potato (demo 2)" is 640x360, 20 frames, with an empty gt.
 */
import { test, expect, type Page } from '@playwright/test';
import { readRows } from './helpers/store';
import { becomeUser, clickAt, drag, imageToScreen, openEditor, waitSaved } from './helpers/editor';

const CLIP = 'peeling potato (demo 2)';

interface LayerRow { clipId: string; frameIndex: number; source: string; actArea: number; trfArea: number }
interface FrameRow { clipId: string; index: number; phase?: string }

async function clipId(page: Page, name = CLIP): Promise<string> {
  return (await readRows<{ id: string; name: string }>(page, 'clips')).find((c) => c.name === name)!.id;
}

async function areas(page: Page, frame: number): Promise<{ act: number; trf: number }> {
  const id = await clipId(page);
  const row = (await readRows<LayerRow>(page, 'layers')).find((l) => l.clipId === id && l.source === 'gt' && l.frameIndex === frame);
  return { act: row?.actArea ?? 0, trf: row?.trfArea ?? 0 };
}

/** Stored phases of the clip as a string: i initial, t transitioning, e end, - none. */
async function phases(page: Page): Promise<string> {
  const id = await clipId(page);
  const frames = (await readRows<FrameRow>(page, 'frames')).filter((f) => f.clipId === id).sort((a, b) => a.index - b.index);
  return frames.map((f) => (f.phase ? f.phase[0] : '-')).join('');
}

/**
 * RGBA of a row of screen pixels (page coordinates) from one of the canvas view's Konva layers:
 * 0 the frame, 1 the masks, 2 tool and assist previews.
 */
async function layerRow(page: Page, layer: number, x0: number, y: number, w: number): Promise<number[]> {
  const box = (await page.getByTestId('editor-canvas').boundingBox())!;
  return page.evaluate(
    ({ layer, x, y, w }) => {
      const canvases = document.querySelectorAll<HTMLCanvasElement>('[data-testid="editor-canvas"] canvas');
      const ctx = canvases[layer].getContext('2d')!;
      return Array.from(ctx.getImageData(x, y, w, 1).data);
    },
    { layer, x: Math.round(x0 - box.x), y: Math.round(y - box.y), w },
  );
}

/** Width in screen pixels of the drawn band (alpha > 40) in a row of RGBA pixels. */
function bandWidth(rgba: number[]): number {
  let n = 0;
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] > 40) n++;
  return n;
}

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
});

test('the eraser erases the other state while "protect other" is on', async ({ page }) => {
  await openEditor(page, CLIP);
  await expect(page.getByRole('button', { name: 'Protect other class' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('2');
  await drag(page, 100, 150, 300, 150);
  await waitSaved(page);
  expect((await areas(page, 0)).trf).toBeGreaterThan(3000);
  // Actionable is the active class, protect is on: the eraser still removes the transformed stroke.
  await page.keyboard.press('1');
  await page.keyboard.press('e');
  await drag(page, 80, 150, 320, 150);
  await waitSaved(page);
  expect(await areas(page, 0)).toEqual({ act: 0, trf: 0 });
});

test('Shift+1 fits and Shift+2 shows 1:1 on a US keyboard, without changing the class', async ({ page }) => {
  await openEditor(page, CLIP); // 1:1
  const canvas = page.getByTestId('editor-canvas');
  await page.keyboard.press('2');
  await page.keyboard.press('Shift+Digit1'); // types "!" on a US layout
  await expect(canvas).not.toHaveAttribute('data-view', /^1 /);
  await page.keyboard.press('Shift+Digit2'); // types "@"
  await expect(canvas).toHaveAttribute('data-view', /^1 /);
  await expect(page.getByRole('button', { name: 'Paint transformed' })).toHaveAttribute('aria-pressed', 'true');
});

test('a flood fill that leaks through a gap asks first, with the fill on show; Escape cancels, yes is one undo step', async ({ page }) => {
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  // Three sides of a square, the fourth left open: the gap a fill pours through.
  await drag(page, 200, 100, 400, 100);
  await drag(page, 400, 100, 400, 250);
  await drag(page, 400, 250, 200, 250);
  await waitSaved(page);
  const ring = await areas(page, 0);
  await page.keyboard.press('2');
  await page.keyboard.press('f');
  await clickAt(page, 300, 175);
  const ask = page.getByTestId('fill-confirm');
  await expect(ask).toContainText(/This fill covers \d+ % of the frame and reaches its border — fill anyway\?/);
  // The fill is on show while asked, and nothing is stored yet.
  await expect.poll(async () => bandWidth(await layerRow(page, 1, (await imageToScreen(page, 600, 300)).x, (await imageToScreen(page, 600, 300)).y, 1))).toBe(1);
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect.poll(async () => bandWidth(await layerRow(page, 1, (await imageToScreen(page, 600, 300)).x, (await imageToScreen(page, 600, 300)).y, 1))).toBe(0);
  await waitSaved(page);
  expect(await areas(page, 0)).toEqual(ring);

  // Asked again, this time yes: one patch, one Ctrl+Z takes it all back.
  await clickAt(page, 300, 175);
  await page.getByRole('button', { name: 'Fill anyway (Enter)' }).click();
  await expect(ask).toHaveCount(0);
  await waitSaved(page);
  expect((await areas(page, 0)).trf).toBe(640 * 360 - ring.act);
  await page.keyboard.press('Control+z');
  await waitSaved(page);
  expect(await areas(page, 0)).toEqual(ring);

  // Closed, the inside fills at once, without a question.
  await page.keyboard.press('1');
  await page.keyboard.press('b');
  await drag(page, 200, 100, 200, 250);
  await page.keyboard.press('2');
  await page.keyboard.press('f');
  await clickAt(page, 300, 175);
  await waitSaved(page);
  await expect(ask).toHaveCount(0);
  const inside = await areas(page, 0);
  expect(inside.trf).toBeGreaterThan(150 * 100);
  expect(inside.trf).toBeLessThan(200 * 150);
});

test('outlines are the same width on screen at 1:1 and at 4x, in per-class colours kept across a reload', async ({ page }) => {
  await openEditor(page, CLIP);
  await page.keyboard.press('1');
  await page.keyboard.press('p');
  for (const [x, y] of [[200, 100], [300, 100], [300, 200], [200, 200], [200, 100]]) await clickAt(page, x, y);
  await waitSaved(page);
  await page.keyboard.press('Shift+O'); // outlines only
  const canvas = page.getByTestId('editor-canvas');

  /** The band across the square's left edge (image x = 200) on row y = 150, in screen pixels. */
  const edgeBand = async () => {
    const p = await imageToScreen(page, 200, 150);
    return layerRow(page, 1, p.x - 12, p.y, 25);
  };
  await expect.poll(async () => bandWidth(await edgeBand())).toBeGreaterThan(0);
  const at1 = bandWidth(await edgeBand());

  const p = await imageToScreen(page, 200, 150);
  await page.mouse.move(p.x, p.y);
  await page.mouse.wheel(0, -924); // exp(924 * 0.0015) = 4x
  await expect(canvas).toHaveAttribute('data-view', /^(3\.[5-9]|4)/);
  await expect.poll(async () => bandWidth(await edgeBand())).toBeGreaterThan(0);
  const at4 = bandWidth(await edgeBand());
  console.log(`[outline] band ${at1} px at 1:1, ${at4} px at 4x`);
  expect(at1).toBeGreaterThanOrEqual(3);
  expect(at1).toBeLessThanOrEqual(6);
  expect(Math.abs(at4 - at1)).toBeLessThanOrEqual(1);

  // Actionable in blue: the line in the middle of the band turns blue.
  /** Pixels of the band drawn in pure blue (anti-aliased edges aside). */
  const bluePixels = async () => {
    const row = await edgeBand();
    let n = 0;
    for (let i = 0; i < row.length; i += 4) if (row[i + 3] > 200 && row[i + 2] > 200 && row[i] < 60 && row[i + 1] < 60) n++;
    return n;
  };
  expect(await bluePixels()).toBe(0);
  await page.getByLabel('Actionable colour').fill('#0000ff');
  await expect(canvas).toHaveAttribute('data-state-colours', '#0000ff #22c55e');
  await expect.poll(bluePixels).toBeGreaterThanOrEqual(1);
  await page.reload();
  await expect(canvas).toHaveAttribute('data-frame', '0');
  await expect(page.getByLabel('Actionable colour')).toHaveValue('#0000ff');
  await expect(canvas).toHaveAttribute('data-state-colours', '#0000ff #22c55e');
});

test('phases over a timeline range in one go, and "change starts / ends here" set the phases around them', async ({ page }) => {
  await openEditor(page, CLIP);
  const cells = page.getByTestId('timeline-frame');
  // Drag from frame 3 to frame 8.
  const a = (await cells.nth(2).boundingBox())!;
  const b = (await cells.nth(7).boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect(page.locator('[data-testid="timeline-frame"][data-selected="true"]')).toHaveCount(6);
  await expect(page.getByTestId('timeline-selection')).toContainText('Frames 3–8 selected (6)');
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 1 / 20'); // selecting does not move
  await page.getByRole('button', { name: 'transitioning' }).click();
  await expect.poll(() => phases(page)).toBe('--tttttt------------');

  // Click frame 10, shift-click frame 12: "end" for the three.
  await cells.nth(9).click();
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 10 / 20');
  await cells.nth(11).click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('timeline-selection')).toContainText('Frames 10–12 selected (3)');
  await page.getByRole('button', { name: 'end', exact: true }).click();
  await expect.poll(() => phases(page)).toBe('--tttttt-eee--------');

  // Markers: the change starts on frame 5 and ends on frame 15.
  await cells.nth(4).click();
  await expect(page.getByTestId('timeline-selection')).toHaveCount(0);
  await page.getByRole('button', { name: 'change starts here' }).click();
  await expect.poll(() => phases(page)).toBe('iiiittttteeeeeeeeeee');
  await cells.nth(14).click();
  await page.getByRole('button', { name: 'change ends here' }).click();
  await expect.poll(() => phases(page)).toBe('iiiitttttttttteeeeee');
  await expect(cells.nth(13)).toHaveAttribute('data-phase', 'transitioning');
  await expect(cells.nth(14)).toHaveAttribute('data-phase', 'end');
});

test('the annotator sees rejected frames with the note; brush size and reviewer mode survive a reload', async ({ page }) => {
  await becomeUser(page, 'rev');
  await openEditor(page, CLIP);
  const cells = page.getByTestId('timeline-frame');
  await page.getByRole('button', { name: 'Reviewer mode' }).click();
  await expect(page.getByTestId('reviewer-panel')).toBeVisible();
  await page.keyboard.press('r');
  await page.getByRole('dialog', { name: 'Reject frame' }).locator('textarea').fill('the peel edge is missing');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await readRows<{ frameIndex: number; verdict: string }>(page, 'frameVerdicts')).map((v) => `${v.frameIndex}:${v.verdict}`)).toEqual(['0:reject']);

  // Reviewer mode survives a reload.
  await page.reload();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', /\d/);
  await expect(page.getByTestId('reviewer-panel')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reviewer mode' })).toHaveAttribute('aria-pressed', 'true');

  // Out of reviewer mode, the timeline still marks the rejected frame, with the note on hover.
  await page.getByRole('button', { name: 'Reviewer mode' }).click();
  await expect(page.getByTestId('reviewer-panel')).toHaveCount(0);
  await expect(cells.nth(0)).toHaveAttribute('data-rejected', 'true');
  await expect(cells.nth(0)).toHaveAttribute('title', /rejected by rev: the peel edge is missing/);
  await expect(page.locator('[data-testid="timeline-frame"][data-rejected="true"]')).toHaveCount(1);

  // Brush size survives a reload.
  await expect(page.getByTestId('brush-size')).toHaveText('16 px');
  await page.keyboard.press(']');
  await page.keyboard.press(']');
  await expect(page.getByTestId('brush-size')).toHaveText('24 px');
  await page.reload();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', /\d/);
  await expect(page.getByTestId('brush-size')).toHaveText('24 px');
  await expect(page.getByTestId('reviewer-panel')).toHaveCount(0); // turned off, it stays off
});

test('"Suggest states" previews both states before Accept', async ({ page }) => {
  const GRATING = 'grating carrot (demo 1)';
  await openEditor(page, GRATING);
  const canvas = page.getByTestId('editor-canvas');
  for (let k = 1; k <= 10; k++) {
    await page.keyboard.press('ArrowRight');
    await expect(canvas).toHaveAttribute('data-frame', String(k));
  }
  await page.keyboard.press('Shift+Delete');
  await waitSaved(page);
  await page.getByTestId('suggest-states').click();
  await expect(page.getByTestId('suggest-result')).toBeVisible({ timeout: 60_000 });
  const [act, trf] = (await canvas.getAttribute('data-label-preview'))!.split(' ').map(Number);
  expect(act).toBeGreaterThan(100);
  expect(trf).toBeGreaterThan(100);

  // On screen (the preview layer), pixels in both state colours.
  const box = (await canvas.boundingBox())!;
  const counts = await page.evaluate(({ w, h }) => {
    const canvases = document.querySelectorAll<HTMLCanvasElement>('[data-testid="editor-canvas"] canvas');
    const d = canvases[2].getContext('2d')!.getImageData(0, 0, w, h).data;
    let red = 0;
    let green = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] < 100) continue;
      if (d[i] > 180 && d[i + 1] < 120 && d[i + 2] < 120) red++;
      else if (d[i + 1] > 150 && d[i] < 100 && d[i + 2] < 150) green++;
    }
    return { red, green };
  }, { w: Math.floor(box.width), h: Math.floor(box.height) });
  console.log(`[suggest preview] ${act} act / ${trf} trf px; on screen ${counts.red} red, ${counts.green} green`);
  expect(counts.red).toBeGreaterThan(100);
  expect(counts.green).toBeGreaterThan(100);
  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(canvas).not.toHaveAttribute('data-label-preview', /.*/);
});
