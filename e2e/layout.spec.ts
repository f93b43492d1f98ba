/**
 * The editor on the windows people really have (1400 and 1600 px wide, and a 1280x720 laptop for
 * the Models dialog), on the demo clip "peeling potato (demo 2)" with its pred:generator source:
 * the canvas keeps most of the width with the default panels, every control of the review panel
 * (incl. "Side by side") can be brought into the window, the Models dialog fits the window, the
 * canvas stage and the side-by-side panes re-fit when panels collapse or open, collapsed panels
 * stay collapsed across a reload, and another clip opens without the side-by-side view.
 */
import { test, expect, type Locator, type Page } from '@playwright/test';
import { openEditor } from './helpers/editor';

const CLIP = 'peeling potato (demo 2)';
const OTHER = 'grating carrot (demo 1)';
const W = 640;
const H = 360;

async function inViewport(page: Page, el: Locator, what: string) {
  const vp = page.viewportSize()!;
  await el.scrollIntoViewIfNeeded();
  const b = (await el.boundingBox())!;
  expect(b, what).not.toBeNull();
  expect(b.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(b.y, `${what}: top edge`).toBeGreaterThanOrEqual(0);
  expect(b.x + b.width, `${what}: right edge`).toBeLessThanOrEqual(vp.width + 0.5);
  expect(b.y + b.height, `${what}: bottom edge`).toBeLessThanOrEqual(vp.height + 0.5);
  return b;
}

/**
 * Every visible control of the review panel, scrolled to as a user would (inside the panel), lies
 * inside the window and inside the panel: never cut off. Measured in one pass in the page.
 */
async function reviewButtonsReachable(page: Page) {
  const vp = page.viewportSize()!;
  const boxes = await page.getByTestId('review-panel').evaluate((panel) => {
    const p = panel.getBoundingClientRect();
    return Array.from(panel.querySelectorAll<HTMLElement>('button, select, label:has(input[type=file])'))
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => {
        el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
        const b = el.getBoundingClientRect();
        return { text: (el.textContent ?? '').trim().slice(0, 30), x: b.x, y: b.y, right: b.right, bottom: b.bottom, panelX: p.x, panelRight: p.right };
      });
  });
  expect(boxes.length).toBeGreaterThan(10);
  expect(boxes.map((b) => b.text)).toContain('Side by side');
  for (const b of boxes) {
    const what = `review panel control "${b.text}"`;
    expect(b.x, `${what}: left edge`).toBeGreaterThanOrEqual(Math.max(0, b.panelX - 0.5));
    expect(b.right, `${what}: right edge`).toBeLessThanOrEqual(Math.min(vp.width, b.panelRight) + 0.5);
    expect(b.y, `${what}: top edge`).toBeGreaterThanOrEqual(0);
    expect(b.bottom, `${what}: bottom edge`).toBeLessThanOrEqual(vp.height + 0.5);
  }
}

/** The Konva stage is exactly its container, and the frame is fitted into it. */
async function stageFitsContainer(page: Page) {
  const canvas = page.getByTestId('editor-canvas');
  await expect
    .poll(async () => {
      const [sw, sh] = ((await canvas.getAttribute('data-stage')) ?? '0 0').split(' ').map(Number);
      const size = await canvas.evaluate((el) => [el.clientWidth, el.clientHeight]);
      return sw === size[0] && sh === size[1] && sw > 0;
    })
    .toBe(true);
}

/** Both side-by-side panes show the frame fitted (16 px margin, centred) to their present size. */
async function panesFitted(page: Page) {
  const left = page.getByTestId('side-by-side-left');
  await expect
    .poll(async () => {
      const b = (await left.boundingBox())!;
      const [scale, x, y] = ((await left.getAttribute('data-view')) ?? '0 0 0').split(' ').map(Number);
      const want = Math.min((b.width - 32) / W, (b.height - 32) / H);
      return Math.abs(scale - want) < 1e-3 && Math.abs(x - (b.width - W * scale) / 2) < 0.5 && Math.abs(y - (b.height - H * scale) / 2) < 0.5;
    })
    .toBe(true);
  expect(await page.getByTestId('side-by-side-right').getAttribute('data-view')).toBe(await left.getAttribute('data-view'));
}

for (const width of [1400, 1600]) {
  test(`editor at ${width}x900: canvas share, reachable review controls, re-fits, remembered panels`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Open demo project' }).click();
    await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
    await openEditor(page, CLIP);

    // Default panels (metrics and frame panel open, review closed): the canvas keeps most of the window.
    const canvas = page.getByTestId('editor-canvas');
    const share = (await canvas.boundingBox())!.width / width;
    console.log(`canvas share at ${width} px, default panels: ${(share * 100).toFixed(1)} %`);
    expect(share).toBeGreaterThanOrEqual(0.6);
    await stageFitsContainer(page);

    // The review panel: every control inside the window, "Side by side" included.
    await page.getByRole('button', { name: 'Show review panel' }).click();
    const all = (await canvas.boundingBox())!.width / width;
    console.log(`canvas share at ${width} px, all three panels open: ${(all * 100).toFixed(1)} %`);
    expect(all).toBeGreaterThanOrEqual(0.5);
    await reviewButtonsReachable(page);
    await stageFitsContainer(page);
    await page.screenshot({ path: test.info().outputPath(`editor-${width}.png`) });
    const toggle = page.getByTestId('side-by-side-toggle');
    await inViewport(page, toggle, 'Side by side');
    await toggle.click();
    await expect(page.getByTestId('side-by-side')).toBeVisible();
    await panesFitted(page);

    // Collapsing panels gives their width to the canvas; the stage and both panes follow.
    const before = (await canvas.boundingBox())!.width;
    await page.getByRole('button', { name: 'Hide metric panels' }).click();
    await page.getByRole('button', { name: 'Hide frame panel' }).click();
    await expect.poll(async () => (await canvas.boundingBox())!.width).toBeGreaterThan(before + 300);
    await stageFitsContainer(page);
    await panesFitted(page);
    // Opening one again: the same.
    await page.getByRole('button', { name: 'Show frame panel' }).click();
    await expect(page.getByTestId('frame-panel')).toBeVisible();
    await stageFitsContainer(page);
    await panesFitted(page);

    // Collapsed and open panels are remembered across a reload.
    await page.getByRole('button', { name: 'Hide review panel' }).click();
    await page.reload();
    await expect(canvas).toHaveAttribute('data-frame', '0');
    await expect(page.getByTestId('metrics-dock-open')).toBeVisible();
    await expect(page.getByTestId('review-panel-open')).toBeVisible();
    await expect(page.getByTestId('frame-panel')).toBeVisible();
    await stageFitsContainer(page);
    await page.getByRole('button', { name: 'Show review panel' }).click();
    await page.getByRole('button', { name: 'Show metric panels' }).click();
    await reviewButtonsReachable(page);

    // Side by side is off in another clip (and when coming back).
    await page.getByTestId('side-by-side-toggle').click();
    await expect(page.getByTestId('side-by-side')).toBeVisible();
    await page.getByRole('link', { name: '← clips' }).click();
    await openEditor(page, OTHER);
    await expect(page.getByTestId('clip-title')).toHaveText(OTHER);
    await expect(page.getByTestId('side-by-side')).toHaveCount(0);
    await expect(page.getByTestId('side-by-side-toggle')).toHaveAttribute('aria-pressed', 'false');

    // The Models dialog fits the window, scrolling inside.
    await page.getByTestId('models-button').click();
    const dialog = page.getByRole('dialog', { name: 'AI assist models' });
    await inViewport(page, dialog, 'Models dialog');
    expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await inViewport(page, dialog.getByRole('button', { name: 'Close' }), 'Models dialog Close');
  });
}

test('the Models dialog fits a 1280x720 window and scrolls inside', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  await openEditor(page, CLIP);
  await page.getByTestId('models-button').click();
  const dialog = page.getByRole('dialog', { name: 'AI assist models' });
  await inViewport(page, dialog, 'Models dialog');
  expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  // Its last row can be scrolled to inside the dialog, and stays in the window.
  await inViewport(page, dialog.getByTestId('public-model').last(), 'last public model row');
  await inViewport(page, dialog.getByRole('button', { name: 'Close' }), 'Models dialog Close');
});
