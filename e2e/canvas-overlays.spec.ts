/**
 * The canvas overlays are drawn in their declared z order (docs/architecture.md, "Canvas overlays"):
 * the overlay layer holds one Konva group per overlay, bottom to top, and on screen the tool preview
 * (z 90) is drawn over a comment pin (z 70), which it would otherwise hide under.
 */
import { test, expect, type Page } from '@playwright/test';
import { clickAt, imageToScreen, openEditor } from './helpers/editor';

const CLIP = 'peeling potato (demo 2)';
const ORDER = ['review-image', 'reviewer-image', 'label-preview', 'proposal-outlines', 'sam-preview', 'instance-labels', 'relations', 'comment-pins', 'flag-focus', 'tool-preview'];

type Rgb = [number, number, number];
const rgbOf = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const near = (p: Rgb, q: Rgb, tolerance: number) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) < tolerance;

/** The overlay layer's pixels inside a disc of `radius` screen pixels around an image point. */
async function overlayDisc(page: Page, x: number, y: number, radius: number): Promise<Rgb[]> {
  const c = await imageToScreen(page, x, y);
  const box = (await page.getByTestId('editor-canvas').boundingBox())!;
  return page.evaluate(
    ({ cx, cy, radius }) => {
      const canvases = document.querySelectorAll<HTMLCanvasElement>('[data-testid="editor-canvas"] canvas');
      const data = canvases[2].getContext('2d')!.getImageData(cx - radius, cy - radius, 2 * radius + 1, 2 * radius + 1).data;
      const out: [number, number, number][] = [];
      for (let dy = -radius; dy <= radius; dy++) {
        for (let dx = -radius; dx <= radius; dx++) {
          if (dx * dx + dy * dy > radius * radius) continue;
          const o = ((dy + radius) * (2 * radius + 1) + dx + radius) * 4;
          out.push([data[o], data[o + 1], data[o + 2]]);
        }
      }
      return out;
    },
    { cx: Math.round(c.x - box.x), cy: Math.round(c.y - box.y), radius },
  );
}

test('overlays are drawn bottom to top by their declared z: the polygon preview over a comment pin', async ({ page }) => {
  const konvaWarnings: string[] = [];
  page.on('console', (m) => m.text().includes('Konva') && konvaWarnings.push(m.text()));
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  await openEditor(page, CLIP);
  const canvas = page.getByTestId('editor-canvas');

  // The resolved order, as published and as Konva holds the groups in the overlay layer.
  await expect(canvas).toHaveAttribute('data-overlays', ORDER.join(' '));
  const groups = await page.evaluate(() => {
    const konva = (window as unknown as { Konva: { stages: { container(): HTMLElement; getLayers(): { getChildren(): { name(): string }[] }[] }[] } }).Konva;
    const stage = konva.stages.find((s) => s.container().dataset.testid === 'editor-canvas')!;
    return stage.getLayers()[2].getChildren().map((g) => g.name());
  });
  expect(groups).toEqual(ORDER);

  // A comment pin at (300, 180).
  await page.getByTestId('review-panel-open').click();
  await page.getByRole('button', { name: 'Add comment' }).click();
  await clickAt(page, 300, 180);
  await page.getByLabel(/Comment on frame 1 at \(300, 180\)/).fill('the peel');
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(canvas).toHaveAttribute('data-pins', '300,180');

  const preview = rgbOf((await canvas.getAttribute('data-state-colours'))!.split(' ')[0]);
  const pinColours = [rgbOf('#38bdf8'), rgbOf('#facc15')];
  const pinCentre = { x: 300.5, y: 180.5 };
  const count = (pixels: Rgb[], colours: Rgb[]) => pixels.filter((p) => colours.some((c) => near(p, c, 60))).length;

  // An open polygon from (250, 180): its segment to the pointer first runs down, away from the pin.
  await page.keyboard.press('1');
  await page.keyboard.press('p');
  await clickAt(page, 250, 180);
  let p = await imageToScreen(page, 250, 300);
  await page.mouse.move(p.x, p.y);
  await expect.poll(async () => count(await overlayDisc(page, pinCentre.x, pinCentre.y, 4), pinColours)).toBeGreaterThan(20);
  expect(count(await overlayDisc(page, pinCentre.x, pinCentre.y, 4), [preview])).toBe(0);

  // Then across the pin: the segment shows over the pin's disc (under it, none of its pixels would).
  p = await imageToScreen(page, 350, 180);
  await page.mouse.move(p.x, p.y);
  await expect.poll(async () => count(await overlayDisc(page, pinCentre.x, pinCentre.y, 4), [preview])).toBeGreaterThan(2);
  expect(count(await overlayDisc(page, pinCentre.x, pinCentre.y, 4), pinColours)).toBeGreaterThan(10);
  expect(konvaWarnings).toEqual([]);
});
