/**
 * A project's label schema (docs/objects.md), in real Chromium with the real IndexedDB: an objects
 * project starts with VISOR's four hands; an EPIC-KITCHENS-style noun list imports with its
 * categories as macro-classes; classes are added, recoloured, keyed and renamed; a clash is
 * refused with a message and changes nothing; the classes download as CSV that reads back the same;
 * everything survives a reload. A SPOC project made the usual way keeps no schema row at all.
 */
import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { createProject, expectError } from './helpers/app';
import { readRows } from './helpers/store';

interface ProjectRow {
  id: string;
  labels?: { kind: string; classes: { id: string; name: string; colour: string; hotkey?: string; parentId?: string }[] };
}

const NOUNS = `id,key,instances,category
0,tap,"['tap', 'tap:water']",appliances
1,spoon,"['spoon', 'spoon:wooden']",cutlery
3,knife,"['knife']",cutlery
`;

test('an objects project: hands, an imported ontology, edits, a refused clash, CSV out, all kept over a reload', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('New project name').fill('Kitchen objects');
  await page.getByLabel('New project kind').selectOption('objects');
  await page.getByRole('button', { name: 'New project' }).click();
  await expect(page.getByTestId('project-name')).toHaveText('Kitchen objects');
  await expect(page.getByTestId('project-kind')).toHaveText('Objects');
  await expect(page.getByTestId('class-row')).toHaveCount(4);
  await expect(page.getByLabel('Name of left hand')).toBeVisible();

  await page.getByLabel('Import classes').setInputFiles({ name: 'EPIC_100_noun_classes.csv', mimeType: 'text/csv', buffer: Buffer.from(NOUNS) });
  await expect(page.getByText('EPIC_100_noun_classes.csv: 5 classes added, 0 updated.')).toBeVisible();
  await expect(page.getByTestId('class-count')).toHaveText('9 classes');
  await expect(page.getByLabel('Macro-class of knife')).toHaveValue('macro:cutlery');

  await page.getByLabel('New class name').fill('chopping board');
  await page.getByRole('button', { name: 'Add class' }).click();
  await expect(page.getByTestId('class-count')).toHaveText('10 classes');
  await page.getByLabel('Key of chopping board').fill('b');
  await page.getByLabel('Name of spoon').fill('wooden spoon');
  await page.getByLabel('Name of spoon').press('Enter');
  await expect(page.getByLabel('Name of wooden spoon')).toBeVisible();

  // A second class on key b is refused, naming the holder; nothing changes.
  await page.getByLabel('Key of knife').fill('b');
  await expectError(page, 'The key "b" is already the key of "chopping board"');
  await expect(page.getByLabel('Key of knife')).toHaveValue('');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download classes (CSV)' }).click();
  const csv = await readFile((await (await download).path())!, 'utf8');
  expect(csv.split(/\r?\n/)[0]).toBe('id,name,parent,colour,hotkey');
  expect(csv).toContain('c:chopping-board,chopping board,,');
  expect(csv).toMatch(/\n1,wooden spoon,macro:cutlery,#[0-9a-f]{6},\r?\n/);

  await page.reload();
  await expect(page.getByTestId('class-count')).toHaveText('10 classes');
  const [row] = (await readRows<ProjectRow>(page, 'projects')).filter((p) => p.labels);
  expect(row.labels!.kind).toBe('objects');
  const byName = new Map(row.labels!.classes.map((c) => [c.name, c]));
  expect(byName.get('chopping board')?.hotkey).toBe('b');
  expect(byName.get('knife')?.hotkey).toBeUndefined();
  expect(byName.get('wooden spoon')).toMatchObject({ id: '1', parentId: 'macro:cutlery' });
  expect(byName.get('right glove')).toBeDefined();
});

test('a SPOC project made as before has no schema row, and says what it is', async ({ page }) => {
  const id = await createProject(page, 'States as before');
  await expect(page.getByTestId('project-kind')).toHaveText('SPOC');
  await expect(page.getByTestId('class-count')).toHaveText('0 classes');
  const row = (await readRows<ProjectRow>(page, 'projects')).find((p) => p.id === id)!;
  expect(row.labels).toBeUndefined();
  // A bad ontology file is named and leaves the project as it was.
  await page.getByLabel('Import classes').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"classes": 3}') });
  await expectError(page, 'broken.json: expected a list of classes');
  expect((await readRows<ProjectRow>(page, 'projects')).find((p) => p.id === id)!.labels).toBeUndefined();
});
