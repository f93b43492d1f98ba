/**
 * Painting objects in an objects project (docs/objects.md "In the editor"), in real Chromium with
 * the real IndexedDB: two objects are added from the editor's object list, each painted with the
 * real mouse in its own colour; a stroke of the second over the first gives it those pixels; the
 * layer stores each object's pixels apart (no pixel twice) and every revision its owners; after a
 * reload the objects come back under the same ids and undo takes back the last stroke.
 */
import { test, expect, type Page } from '@playwright/test';
import { writeFrames } from './fixtures/files';
import { drag, openEditor, waitSaved } from './helpers/editor';
import { readRows } from './helpers/store';

interface Rle { size: [number, number]; counts: string }
interface LayerRow { clipId: string; frameIndex: number; source: string; actArea: number; trfArea: number; objects?: { id: string; rle: Rle; area: number }[] }
interface ObjectRow { id: string; clipId: string; number: number; name: string; classId?: string }
interface RevisionRow { frameIndex: number; action: string; objectsBefore?: { id: string }[]; objectsAfter?: { id: string }[] }

async function frame0(page: Page): Promise<LayerRow | undefined> {
  return (await readRows<LayerRow>(page, 'layers')).find((l) => l.frameIndex === 0 && l.source === 'gt');
}

test('two objects painted in their colours, one over the other, stored apart, reloaded and undone', async ({ page }, info) => {
  await page.goto('/');
  await page.getByLabel('New project name').fill('Hands and pans');
  await page.getByLabel('New project kind').selectOption('objects');
  await page.getByRole('button', { name: 'New project' }).click();
  await expect(page.getByTestId('project-kind')).toHaveText('Objects');
  const dir = info.outputPath('kitchen');
  await writeFrames(dir, [[320, 180], [320, 180]]);
  await page.getByTestId('import-folder').setInputFiles(dir);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 60_000 });
  await openEditor(page, 'kitchen');

  // The two states give way to the object list.
  await expect(page.getByRole('button', { name: /actionable/ })).toHaveCount(0);
  await page.getByLabel('Class of the new object').selectOption({ label: 'left hand' });
  await page.getByRole('button', { name: 'Add object' }).click();
  await expect(page.getByTestId('object-row')).toHaveCount(1);
  await expect(page.getByTestId('object-row').first()).toHaveAttribute('data-active', 'true');
  await drag(page, 20, 40, 120, 40);
  await waitSaved(page);
  const handOnly = (await frame0(page))!.actArea;
  expect(handOnly).toBeGreaterThan(500);

  await page.getByLabel('Class of the new object').selectOption('');
  await page.getByRole('button', { name: 'Add object' }).click();
  await expect(page.getByTestId('object-row')).toHaveCount(2);
  await expect(page.getByTestId('object-row').nth(1)).toHaveAttribute('data-active', 'true');
  await page.getByLabel('Name of object 2').fill('pan');
  await page.getByLabel('Name of object 2').press('Enter');
  // Over the hand's stroke, "protect" off: the pan takes the pixels it covers.
  await page.keyboard.press('x');
  await drag(page, 70, 20, 70, 60);
  await waitSaved(page);

  const objects = await readRows<ObjectRow>(page, 'objects');
  const hand = objects.find((o) => o.classId === 'hand:left')!;
  const pan = objects.find((o) => o.name === 'pan')!;
  expect(hand).toMatchObject({ number: 1, name: 'left hand 1' });
  expect(pan.number).toBe(2);
  const layer = (await frame0(page))!;
  const areas = new Map(layer.objects!.map((o) => [o.id, o.area]));
  expect(areas.get(hand.id)).toBeGreaterThan(500);
  expect(areas.get(pan.id)).toBeGreaterThan(300);
  // One owner per pixel: the objects' areas add up to the annotated area.
  expect(areas.get(hand.id)! + areas.get(pan.id)!).toBe(layer.actArea);
  expect(layer.trfArea).toBe(0);
  const revisions = (await readRows<RevisionRow>(page, 'revisions')).filter((r) => r.frameIndex === 0);
  expect(revisions.map((r) => [r.objectsBefore?.map((o) => o.id).sort(), r.objectsAfter?.map((o) => o.id).sort()])).toEqual([
    [[], [hand.id]],
    // The stroke's box holds only what changed: hand pixels that became the pan's (and background).
    [[hand.id], [pan.id]],
  ]);

  await page.reload();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
  await expect(page.getByTestId('object-row')).toHaveCount(2);
  await page.keyboard.press('Control+z');
  await waitSaved(page);
  const undone = (await frame0(page))!;
  expect(undone.objects!.map((o) => o.id)).toEqual([hand.id]);
  // The hand has its whole stroke back, pixels the pan took included.
  expect(undone.objects![0].area).toBe(handOnly);
  expect(undone.actArea).toBe(handOnly);
});

test('a locked or hidden object keeps its pixels under another object\'s stroke; reclassing is stored', async ({ page }, info) => {
  await page.goto('/');
  await page.getByLabel('New project name').fill('Locks');
  await page.getByLabel('New project kind').selectOption('objects');
  await page.getByRole('button', { name: 'New project' }).click();
  const dir = info.outputPath('locks');
  await writeFrames(dir, [[320, 180]]);
  await page.getByTestId('import-folder').setInputFiles(dir);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 60_000 });
  await openEditor(page, 'locks');

  await page.getByLabel('Class of the new object').selectOption({ label: 'left hand' });
  await page.getByRole('button', { name: 'Add object' }).click();
  await drag(page, 20, 40, 120, 40);
  await waitSaved(page);
  const handArea = (await frame0(page))!.actArea;
  await page.getByLabel('Class of the new object').selectOption('');
  await page.getByRole('button', { name: 'Add object' }).click();
  await expect(page.getByTestId('object-row').nth(1)).toHaveAttribute('data-active', 'true');
  await page.keyboard.press('x'); // protect off: only the lock keeps the hand's pixels

  const handRow = page.getByTestId('object-row').first();
  await page.getByRole('button', { name: 'Lock left hand 1' }).click();
  await expect(handRow).toHaveAttribute('data-locked', 'true');
  await drag(page, 70, 20, 70, 60);
  await waitSaved(page);
  const objects = await readRows<ObjectRow>(page, 'objects');
  const hand = objects.find((o) => o.classId === 'hand:left')!;
  const other = objects.find((o) => o.id !== hand.id)!;
  let layer = (await frame0(page))!;
  expect(layer.objects!.find((o) => o.id === hand.id)!.area).toBe(handArea);
  const otherArea = layer.objects!.find((o) => o.id === other.id)!.area;
  expect(otherArea).toBeGreaterThan(100);

  // Hidden (and unlocked): still kept, since nobody should change pixels they cannot see.
  await page.getByRole('button', { name: 'Unlock left hand 1' }).click();
  await page.getByRole('button', { name: 'Hide left hand 1' }).click();
  await expect(handRow).toHaveAttribute('data-hidden', 'true');
  await expect(handRow).toHaveAttribute('data-locked', 'false');
  await drag(page, 40, 20, 40, 60);
  await waitSaved(page);
  layer = (await frame0(page))!;
  expect(layer.objects!.find((o) => o.id === hand.id)!.area).toBe(handArea);
  expect(layer.objects!.find((o) => o.id === other.id)!.area).toBeGreaterThan(otherArea);

  // Shown again, the next stroke takes the hand's pixels it covers.
  await page.getByRole('button', { name: 'Show left hand 1' }).click();
  await drag(page, 100, 20, 100, 60);
  await waitSaved(page);
  expect((await frame0(page))!.objects!.find((o) => o.id === hand.id)!.area).toBeLessThan(handArea);

  await page.getByLabel('Class of object 2').selectOption({ label: 'right glove' });
  await expect.poll(async () => (await readRows<ObjectRow>(page, 'objects')).find((o) => o.id === other.id)?.classId).toBe('glove:right');
  await page.getByLabel('Colour objects by').selectOption('class');
  await expect(page.getByLabel('Colour objects by')).toHaveValue('class');
});
