/**
 * Keyframes and interpolation in an objects project (docs/objects.md "Keyframes and
 * interpolation"), in real Chromium with the real IndexedDB and the OpenCV worker: one object is
 * painted with the real mouse on frames 1 and 5, each marked a keyframe with Y; "Interpolate…"
 * fills frames 2–4 with the weight-free tracker. Stored: frames 2–4 hold the object's pixels with
 * provenance `interpolated` and a confidence; the two keyframes' rows are as they were.
 */
import { test, expect, type Page } from '@playwright/test';
import { writeFrames } from './fixtures/files';
import { drag, openEditor, waitSaved } from './helpers/editor';
import { readRows } from './helpers/store';

interface Provenance { kind: string; by: string; from?: string; confidence?: number }
interface LayerObject { id: string; area: number; keyframe?: true; provenance?: Provenance }
interface LayerRow { clipId: string; frameIndex: number; source: string; objects?: LayerObject[]; updatedAt: number }
interface ObjectRow { id: string; name: string }

async function gtLayers(page: Page): Promise<Map<number, LayerRow>> {
  return new Map((await readRows<LayerRow>(page, 'layers')).filter((l) => l.source === 'gt').map((l) => [l.frameIndex, l]));
}

async function paintKeyframe(page: Page, frame: number, x: number) {
  await page.getByTestId('timeline-frame').nth(frame).click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', String(frame));
  // A filled 60x40 block: strokes side by side with the 16 px brush.
  for (let y = 60; y <= 100; y += 8) await drag(page, x, y, x + 60, y);
  await waitSaved(page);
  await page.keyboard.press('y');
  await expect(page.getByTestId('keyframe-toggle')).toHaveAttribute('data-keyframe', 'true');
  await waitSaved(page);
}

test('an object painted on two keyframes is interpolated on the frames between, keyframes untouched', async ({ page }, info) => {
  test.setTimeout(180_000);
  await page.goto('/');
  await page.getByLabel('New project name').fill('Interpolation');
  await page.getByLabel('New project kind').selectOption('objects');
  await page.getByRole('button', { name: 'New project' }).click();
  await expect(page.getByTestId('project-kind')).toHaveText('Objects');
  const dir = info.outputPath('kitchen');
  await writeFrames(dir, Array.from({ length: 5 }, () => [320, 180] as [number, number]));
  await page.getByTestId('import-folder').setInputFiles(dir);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 60_000 });
  await openEditor(page, 'kitchen');

  await page.getByRole('button', { name: 'Add object' }).click();
  await expect(page.getByTestId('object-row').first()).toHaveAttribute('data-active', 'true');
  await paintKeyframe(page, 0, 100);
  await paintKeyframe(page, 4, 140);
  const [cup] = await readRows<ObjectRow>(page, 'objects');
  const before = await gtLayers(page);
  expect(before.get(0)!.objects).toEqual([expect.objectContaining({ id: cup.id, keyframe: true })]);
  expect(before.get(4)!.objects).toEqual([expect.objectContaining({ id: cup.id, keyframe: true })]);
  expect(before.get(0)!.objects![0].area).toBeGreaterThan(2000);
  // The timeline shows the object's keyframes.
  await expect(page.locator('[data-testid="timeline-frame"][data-keyframes]')).toHaveCount(2);

  await page.getByTestId('interpolate-open').click();
  await expect(page.getByTestId('interpolate-panel')).toBeVisible();
  await page.getByTestId('interpolate-start').click();
  await expect(page.getByTestId('interpolate-message')).toHaveText('3 frames interpolated', { timeout: 120_000 });
  await expect(page.getByTestId('interpolate-span')).toHaveAttribute('data-status', 'written');
  await expect(page.getByTestId('interpolate-span')).toHaveAttribute('data-frames', '3');
  await waitSaved(page);
  // Written without moving the view.
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '4');

  const after = await gtLayers(page);
  for (const k of [1, 2, 3]) {
    const o = after.get(k)?.objects?.find((x) => x.id === cup.id);
    expect(o, `frame ${k}`).toBeDefined();
    expect(o!.area, `frame ${k}`).toBeGreaterThan(500);
    expect(o!.keyframe).toBeUndefined();
    expect(o!.provenance).toMatchObject({ kind: 'interpolated', from: 'keyframes 1–5' });
    // A confidence in 0..1 (0 where the two directions do not overlap at the middle: docs/objects.md).
    expect(typeof o!.provenance!.confidence).toBe('number');
    expect(o!.provenance!.confidence).toBeGreaterThanOrEqual(0);
    expect(o!.provenance!.confidence).toBeLessThanOrEqual(1);
  }
  // The keyframes' rows are exactly as they were.
  expect(after.get(0)).toEqual(before.get(0));
  expect(after.get(4)).toEqual(before.get(4));
  // Presence bands on the timeline: the object is on all five frames now.
  await expect(page.locator('[data-testid="timeline-frame"][data-objects-present="1"]')).toHaveCount(5);
});
