/**
 * Hands and contact relations in the editor (docs/objects.md "Relations in the editor"), in real
 * Chromium with the real IndexedDB: a left hand and a pan are painted with the real mouse, the
 * hand's contact is set by clicking the hand and then the pan (Shift+C), the overlay and the object
 * list show it, the stored layer holds the relation, and after a reload undo takes it back.
 */
import { test, expect, type Page } from '@playwright/test';
import { writeFrames } from './fixtures/files';
import { clickAt, drag, openEditor, waitSaved } from './helpers/editor';
import { readRows } from './helpers/store';

interface Relation { type: string; subjectId: string; answer: string; objectId?: string }
interface LayerRow { frameIndex: number; source: string; objects?: { id: string; area: number }[]; relations?: Relation[] }
interface ObjectRow { id: string; name: string; classId?: string }
interface RevisionRow { frameIndex: number; action: string; relationsBefore?: Relation[]; relationsAfter?: Relation[] }

async function frame0(page: Page): Promise<LayerRow | undefined> {
  return (await readRows<LayerRow>(page, 'layers')).find((l) => l.frameIndex === 0 && l.source === 'gt');
}

test('a hand’s contact set by clicking the hand and the object, stored, drawn, reloaded and undone', async ({ page }, info) => {
  await page.goto('/');
  await page.getByLabel('New project name').fill('Contacts');
  await page.getByLabel('New project kind').selectOption('objects');
  await page.getByRole('button', { name: 'New project' }).click();
  await expect(page.getByTestId('project-kind')).toHaveText('Objects');
  const dir = info.outputPath('kitchen');
  await writeFrames(dir, [[320, 180], [320, 180]]);
  await page.getByTestId('import-folder').setInputFiles(dir);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 60_000 });
  await openEditor(page, 'kitchen');

  await page.getByLabel('Class of the new object').selectOption({ label: 'left hand' });
  await page.getByRole('button', { name: 'Add object' }).click();
  await expect(page.getByTestId('object-row')).toHaveCount(1);
  await drag(page, 20, 40, 120, 40);
  await page.getByLabel('Class of the new object').selectOption('');
  await page.getByRole('button', { name: 'Add object' }).click();
  await expect(page.getByTestId('object-row')).toHaveCount(2);
  await page.getByLabel('Name of object 2').fill('pan');
  await page.getByLabel('Name of object 2').press('Enter');
  await drag(page, 60, 100, 160, 100);
  await waitSaved(page);
  const objects = await readRows<ObjectRow>(page, 'objects');
  const hand = objects.find((o) => o.classId === 'hand:left')!;
  const pan = objects.find((o) => o.name === 'pan')!;
  const canvas = page.getByTestId('editor-canvas');
  const handAnswer = page.locator(`[data-object-id="${hand.id}"]`).getByTestId('contact-answer');
  await expect(handAnswer).toHaveText('no answer');
  // Only hands have a contact answer.
  await expect(page.locator(`[data-object-id="${pan.id}"]`).getByTestId('contact-answer')).toHaveCount(0);

  // Escape leaves the mode without answering.
  await page.keyboard.press('Shift+C');
  await clickAt(page, 70, 40);
  await expect(canvas).toHaveAttribute('data-contact-hand', hand.id);
  await page.keyboard.press('Escape');
  await expect(canvas).not.toHaveAttribute('data-contact-hand', /.+/);

  // Set contact: the hand, then the pan.
  await page.keyboard.press('Shift+C');
  await clickAt(page, 70, 40);
  await expect(canvas).toHaveAttribute('data-contact-hand', hand.id);
  await clickAt(page, 110, 100);
  await expect(canvas).toHaveAttribute('data-relations', `${hand.id}>contact>${pan.id}`);
  await expect(handAnswer).toHaveText('touches pan');
  await waitSaved(page);
  expect((await frame0(page))!.relations).toEqual([{ type: 'contact', subjectId: hand.id, answer: 'contact', objectId: pan.id }]);
  // The clicks painted nothing: both objects keep their pixels.
  expect((await frame0(page))!.objects!.map((o) => o.id).sort()).toEqual([hand.id, pan.id].sort());
  const revisions = (await readRows<RevisionRow>(page, 'revisions')).filter((r) => r.frameIndex === 0);
  expect(revisions[revisions.length - 1]).toMatchObject({ action: 'contact:contact', relationsBefore: [], relationsAfter: [{ subjectId: hand.id, objectId: pan.id }] });

  await page.reload();
  await expect(canvas).toHaveAttribute('data-frame', '0');
  await expect(canvas).toHaveAttribute('data-relations', `${hand.id}>contact>${pan.id}`);
  await expect(handAnswer).toHaveText('touches pan');
  await page.keyboard.press('Control+z');
  await waitSaved(page);
  await expect(canvas).toHaveAttribute('data-relations', '');
  await expect(handAnswer).toHaveText('no answer');
  const undone = (await frame0(page))!;
  expect(undone.relations).toBeUndefined();
  expect(undone.objects!.map((o) => o.id).sort()).toEqual([hand.id, pan.id].sort());

  // The row's menu answers without a click on the canvas; the exhaustive box marks the pan on this frame.
  await page.getByLabel('Contact of left hand 1').selectOption('inconclusive');
  await expect(handAnswer).toHaveText('inconclusive');
  await page.getByLabel('Exhaustive: pan').check();
  await waitSaved(page);
  const answered = (await frame0(page))!;
  expect(answered.relations).toEqual([{ type: 'contact', subjectId: hand.id, answer: 'inconclusive' }]);
  expect(answered.objects!.find((o) => o.id === pan.id)).toMatchObject({ exhaustive: true });
});
