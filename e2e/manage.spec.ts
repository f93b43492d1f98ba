/**
 * A project could reach a state no export could leave — the same
 * video imported twice (two clips of one name) with "other…" and an empty verb name — and nothing in
 * the UI could fix it. Here, in real Chromium with the real IndexedDB:
 * - the dead end cannot be reached any more (empty verb and "/" refused, names made unique) and
 *   every format exports;
 * - a project already in it (rows as the old import stored them) exports with a note per rewritten
 *   name, and is fixed from the clip cards;
 * - several videos import at once; clips and projects go to a trash and come back exactly; "delete
 *   for good" removes every row of the clip; one clip or the filtered clips export alone;
 * - a clip open in another tab's editor cannot be deleted, and the editor refuses a trashed clip.
 */
import { test, expect, type Page } from '@playwright/test';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { createProject, expectError } from './helpers/app';
import { readRows } from './helpers/store';

const NAME = 'demo-grating-seed7';
/** Under the name the app downloads it with, which becomes the clip name. */
const VIDEO = join(tmpdir(), `spoc-manage-spec-${process.pid}`, `${NAME}.webm`);
const FORMATS = ['wtc', 'davis', 'coco', 'visor'] as const;

interface ClipRow {
  id: string;
  projectId: string;
  name: string;
  osc: { verb: string; noun: string; actionable: string; transformed: string };
  deletedAt?: number;
}
interface ProjectRow {
  id: string;
  name: string;
  deletedAt?: number;
}
type Keyed = { clipId: string };

/** The demo video the app generates (20 s, 10 fps, VP9), made once for the whole file. */
test.beforeAll(async ({ browser }, info) => {
  const page = await browser.newPage({ baseURL: info.project.use.baseURL });
  await createProject(page, 'Video maker'); // the button sits in a project's import panel
  const download = page.waitForEvent('download', { timeout: 90_000 });
  await page.getByRole('button', { name: /Download a generated demo video/ }).click();
  await mkdir(dirname(VIDEO), { recursive: true });
  await (await download).saveAs(VIDEO);
  await page.close();
});

async function importVideos(page: Page, files: string[], expectedCards: number): Promise<void> {
  await page.getByTestId('import-video').setInputFiles(files);
  await expect(page.getByTestId('clip-card')).toHaveCount(expectedCards, { timeout: 60_000 });
  await expect(page.getByTestId('import-progress')).toHaveCount(0);
}

async function setForm(page: Page, verb: string, noun: string): Promise<void> {
  await page.locator('#imp-verb').selectOption('__other');
  await page.locator('#imp-verb-free').fill(verb);
  await page.locator('#imp-noun').fill(noun);
}

/**
 * Exports with the project page's controls; returns the downloaded file's entries (a JSON file
 * counts as one). An export the app refuses fails the test with the app's own message.
 */
async function exportAs(page: Page, format: (typeof FORMATS)[number], outDir: string): Promise<{ fileName: string; paths: string[]; entries: Record<string, Uint8Array> }> {
  await page.getByLabel('Export format').selectOption(format);
  const refusal = page.getByRole('alert').filter({ hasText: 'Export failed' });
  await refusal.getByRole('button', { name: 'Dismiss' }).click({ timeout: 1000 }).catch(() => undefined);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const d = await Promise.race([
    download,
    refusal.waitFor().then(async () => {
      throw new Error(`the ${format} export was refused: ${await refusal.locator('p').innerText()}`);
    }),
  ]);
  const file = join(outDir, d.suggestedFilename());
  await d.saveAs(file);
  const bytes = new Uint8Array(await readFile(file));
  const entries = file.endsWith('.zip') ? unzipSync(bytes) : { [d.suggestedFilename()]: bytes };
  await expect(page.getByTestId('export-summary')).toContainText(`to ${d.suggestedFilename()}.`);
  return { fileName: d.suggestedFilename(), paths: Object.keys(entries), entries };
}

const card = (page: Page, name: string) => page.getByTestId('clip-card').filter({ has: page.getByTestId('clip-name').getByText(name, { exact: true }) });

test('the dead end cannot be reached: an empty verb and "/" are refused, a second import is renamed, every format exports', async ({ page }, info) => {
  await createProject(page, 'Dead end');

  // "other…" with the verb name left empty: refused at import, and said as it is typed.
  await setForm(page, '', 'potato');
  await page.getByTestId('import-video').setInputFiles(VIDEO);
  await expectError(page, 'Nothing was imported. The verb is empty; type one word, e.g. "mashing".');
  await expect(page.getByTestId('import-osc-problem')).toContainText('The verb is empty; type one word, e.g. "mashing".');
  await setForm(page, 'mash up', 'potato');
  await page.getByTestId('import-video').setInputFiles(VIDEO);
  await expectError(page, 'The verb "mash up" must be one word (no spaces or underscores)');
  await setForm(page, 'mashing', 'salt/pepper');
  await page.getByTestId('import-video').setInputFiles(VIDEO);
  await expectError(page, 'The object "salt/pepper" contains a character not allowed in file names');
  expect(await readRows<ClipRow>(page, 'clips')).toEqual([]);

  // The same video twice: the second is named apart, and the person is told why.
  await setForm(page, 'mashing', 'potato');
  await expect(page.getByTestId('import-osc-problem')).toHaveCount(0);
  await importVideos(page, [VIDEO], 1);
  await importVideos(page, [VIDEO], 2);
  await expect(page.getByRole('status').filter({ hasText: `A clip named "${NAME}" is already in this project, so the clip from "${NAME}.webm" is named "${NAME}-2".` })).toBeVisible();
  const clips = await readRows<ClipRow>(page, 'clips');
  expect(clips.map((c) => [c.name, c.osc.verb, c.osc.noun]).sort()).toEqual([
    [NAME, 'mashing', 'potato'],
    [`${NAME}-2`, 'mashing', 'potato'],
  ]);

  for (const format of FORMATS) {
    const { paths } = await exportAs(page, format, info.outputDir);
    await expect(page.getByTestId('export-summary')).toContainText('Exported 2 clips');
    await expect(page.getByTestId('export-summary').getByRole('listitem')).toHaveCount(0); // nothing had to be rewritten
    if (format === 'wtc') expect(paths.filter((p) => p.includes('/meta/')).sort()).toEqual([`mashing_potato/meta/${NAME}-2.json`, `mashing_potato/meta/${NAME}.json`]);
  }
  await expect(page.getByRole('alert').filter({ hasText: 'Export failed' })).toHaveCount(0);
});

test('a project already in the dead end exports with notes, and is fixed from the clip cards', async ({ page }, info) => {
  await createProject(page, 'Old project');
  await setForm(page, 'mashing', 'potato');
  await importVideos(page, [VIDEO], 1);
  await importVideos(page, [VIDEO], 2);
  // The rows as the old import form stored them: one name twice, verb "" ("other…" left empty),
  // and an object with "/". Written with the raw IndexedDB API, as that code left them.
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('spoc-studio');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const store = db.transaction('clips', 'readwrite').objectStore('clips');
    const rows = await new Promise<ClipRow[]>((resolve) => {
      const req = store.getAll();
      req.onsuccess = () => resolve(req.result as ClipRow[]);
    });
    for (const [k, row] of rows.entries()) {
      store.put({ ...row, name: 'demo-grating-seed7', osc: { ...row.osc, verb: '', noun: k === 0 ? 'potato' : 'salt/pepper' } });
    }
    await new Promise((resolve) => (store.transaction.oncomplete = resolve));
    db.close();
  });
  await page.reload();
  await expect(page.getByTestId('clip-card')).toHaveCount(2);

  // Every format exports anyway, saying what it rewrote. (Before: all four refused the project.)
  const refusals: string[] = [];
  for (const format of FORMATS) {
    const exported = await exportAs(page, format, info.outputDir).catch((err: Error) => err.message);
    if (typeof exported === 'string') {
      refusals.push(exported);
      continue;
    }
    const { paths } = exported;
    const summary = page.getByTestId('export-summary');
    await expect(summary).toContainText('Exported 2 clips');
    await expect(summary).toContainText(`Clip "${NAME}": the verb "" is not one word; exported as "unknown" (fix it with Edit on its card).`);
    await expect(summary).toContainText(`Clip "${NAME}": the object "salt/pepper" cannot be part of a folder name; exported as "salt-pepper"`);
    if (format !== 'wtc') await expect(summary).toContainText(`exported as "${NAME}-2"`);
    expect(new Set(paths).size).toBe(paths.length);
    if (format === 'wtc') expect(paths.some((p) => p.startsWith('unknown_salt-pepper/JPEGImages_1fps/'))).toBe(true);
  }
  expect(refusals).toEqual([]);

  // The cards say what is wrong; edits that would bring the dead end back are refused...
  await expect(page.getByTestId('clip-name-problem')).toHaveCount(2);
  await expect(page.getByTestId('clip-name-problem').first()).toContainText('The verb is empty');
  const [first, second] = (await readRows<ClipRow>(page, 'clips')).sort((a, b) => a.osc.noun.localeCompare(b.osc.noun));
  const secondCard = page.locator(`[data-testid="clip-card"][data-clip-id="${second.id}"]`);
  await secondCard.getByRole('button', { name: `Edit ${NAME}` }).click();
  const form = secondCard.getByRole('form');
  await form.getByLabel('Verb').fill('mash up');
  await expect(form.getByTestId('clip-edit-problem')).toContainText('must be one word');
  await form.getByRole('button', { name: 'Save' }).click();
  await expectError(page, 'The verb "mash up" must be one word');
  // ...and the fix is a few fields away.
  await form.getByLabel('Name').fill('second take');
  await form.getByLabel('Verb').fill('mashing');
  await form.getByLabel('Object').fill('sweet potato');
  await form.getByLabel('Subset').selectOption('novel');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(secondCard.getByTestId('clip-name')).toHaveText('second take');
  const firstCard = page.locator(`[data-testid="clip-card"][data-clip-id="${first.id}"]`);
  await firstCard.getByRole('button', { name: `Edit ${NAME}` }).click();
  await firstCard.getByRole('form').getByLabel('Name').fill('second take');
  await firstCard.getByRole('form').getByRole('button', { name: 'Save' }).click();
  await expectError(page, 'Another clip of this project is already named "second take"; pick another name. Nothing was changed.');
  await firstCard.getByRole('form').getByLabel('Name').fill(NAME);
  await firstCard.getByRole('form').getByLabel('Verb').fill('mashing');
  await firstCard.getByRole('form').getByLabel('Actionable').fill('whole boiled potato');
  await firstCard.getByRole('form').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('clip-name-problem')).toHaveCount(0);

  const fixed = (await readRows<ClipRow>(page, 'clips')).sort((a, b) => a.name.localeCompare(b.name));
  expect(fixed.map((c) => [c.name, c.osc.verb, c.osc.noun, c.osc.actionable])).toEqual([
    [NAME, 'mashing', 'potato', 'whole boiled potato'],
    ['second take', 'mashing', 'sweet potato', second.osc.actionable],
  ]);
  const { paths } = await exportAs(page, 'wtc', info.outputDir);
  await expect(page.getByTestId('export-summary').getByRole('listitem')).toHaveCount(0);
  expect(paths.filter((p) => p.includes('/meta/')).sort()).toEqual(['mashing_potato/meta/demo-grating-seed7.json', 'mashing_sweet_potato/meta/second take.json']);
});

test('several videos at once; trash and restore exactly; delete for good; export one clip or the filtered ones', async ({ page }, info) => {
  const a = info.outputPath('kitchen-a.webm');
  const b = info.outputPath('kitchen-b.webm');
  await copyFile(VIDEO, a);
  await copyFile(VIDEO, b);
  await createProject(page, 'Kitchen');
  await setForm(page, 'mashing', 'potato');
  await importVideos(page, [a, b], 2);
  await expect(page.getByTestId('project-stats')).toContainText('2 clips · 40 frames');
  const clipA = (await readRows<ClipRow>(page, 'clips')).find((c) => c.name === 'kitchen-a')!;

  // Trash: hidden from the cards, the stats and exports; every row kept.
  const rowsOfA = async () => {
    const out: Record<string, unknown[]> = {};
    for (const t of ['frames', 'frameImages', 'thumbnails', 'layers']) out[t] = (await readRows<Keyed>(page, t)).filter((r) => r.clipId === clipA.id);
    out.clips = (await readRows<ClipRow>(page, 'clips')).filter((c) => c.id === clipA.id);
    return out;
  };
  const before = await rowsOfA();
  expect(before.frames).toHaveLength(20);
  await card(page, 'kitchen-a').getByRole('button', { name: 'Move kitchen-a to the trash' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(1);
  await expect(page.getByTestId('project-stats')).toContainText('1 clips · 20 frames');
  await expect(page.getByTestId('trashed-clip')).toHaveCount(1);
  const trashed = await rowsOfA();
  expect((trashed.clips[0] as ClipRow).deletedAt).toEqual(expect.any(Number));
  expect({ ...trashed, clips: [] }).toEqual({ ...before, clips: [] });
  await exportAs(page, 'coco', info.outputDir);
  await expect(page.getByTestId('export-summary')).toContainText('Exported 1 clip to Kitchen-coco.json.');

  // Restore: every row exactly as before.
  await page.getByRole('button', { name: 'Restore kitchen-a' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(2);
  await expect(page.getByTestId('clip-trash')).toHaveCount(0);
  expect(await rowsOfA()).toEqual(before);

  // Export one clip from its card.
  await card(page, 'kitchen-b').getByRole('button', { name: 'Export kitchen-b' }).click();
  await expect(page.getByLabel('Export which clips')).toHaveValue('clip');
  const one = await exportAs(page, 'davis', info.outputDir);
  expect(one.fileName).toBe('Kitchen-kitchen-b-davis.zip');
  expect(new Set(one.paths.map((p) => p.split('/')[1]))).toEqual(new Set(['kitchen-b'])); // the dataset root is the archive's root

  // Re-label one clip, filter by verb, export what the filters show.
  await card(page, 'kitchen-b').getByRole('button', { name: 'Edit kitchen-b' }).click();
  await card(page, 'kitchen-b').getByRole('form').getByLabel('Verb').fill('grating');
  await card(page, 'kitchen-b').getByRole('form').getByLabel('Object').fill('carrot');
  await card(page, 'kitchen-b').getByRole('form').getByRole('button', { name: 'Save' }).click();
  await expect(card(page, 'kitchen-b')).toContainText('grating carrot');
  await page.getByLabel('Filter by verb').selectOption('grating');
  await expect(page.getByTestId('clip-card')).toHaveCount(1);
  await page.getByLabel('Export which clips').selectOption('shown');
  const shown = await exportAs(page, 'wtc', info.outputDir);
  expect(shown.fileName).toBe('Kitchen-kitchen-b-wtc.zip'); // one clip: named after it
  expect(new Set(shown.paths.map((p) => p.split('/')[0]))).toEqual(new Set(['grating_carrot']));
  await page.getByLabel('Filter by verb').selectOption('all');

  // Delete for good: every row keyed by the clip goes, the other clip's stay.
  await card(page, 'kitchen-a').getByRole('button', { name: 'Move kitchen-a to the trash' }).click();
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Delete kitchen-a for good' }).click();
  await expect(page.getByTestId('clip-trash')).toHaveCount(0);
  for (const t of ['frames', 'frameImages', 'thumbnails', 'layers', 'revisions']) {
    expect((await readRows<Keyed>(page, t)).filter((r) => r.clipId === clipA.id), t).toEqual([]);
  }
  expect((await readRows<ClipRow>(page, 'clips')).map((c) => c.name)).toEqual(['kitchen-b']);
  expect((await readRows<Keyed>(page, 'frames')).length).toBe(20);

  // The project itself: to the trash and back, with its clip.
  await page.getByRole('button', { name: 'Rename project' }).click();
  await page.getByLabel('Project name').fill('Kitchen 2');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByTestId('project-name')).toHaveText('Kitchen 2');
  await page.getByRole('button', { name: 'Move project to trash' }).click();
  await expect(page.getByTestId('project-row')).toHaveCount(0);
  await expect(page.getByTestId('trashed-project')).toContainText('Kitchen 2');
  expect((await readRows<ProjectRow>(page, 'projects'))[0].deletedAt).toEqual(expect.any(Number));
  await page.getByRole('button', { name: 'Restore Kitchen 2' }).click();
  await expect(page.getByTestId('project-row')).toHaveCount(1);
  await page.getByTestId('project-row').getByRole('link').click();
  await expect(page.getByTestId('clip-card')).toHaveCount(1);
  await expect(page.getByTestId('project-stats')).toContainText('1 clips · 20 frames');
});

test('a clip open in another tab\'s editor cannot be deleted; the editor refuses a clip in the trash', async ({ page, context }) => {
  await createProject(page, 'Two tabs');
  await setForm(page, 'mashing', 'potato');
  await importVideos(page, [VIDEO], 1);
  const projectUrl = page.url();
  const [clip] = await readRows<ClipRow>(page, 'clips');

  const editor = await context.newPage();
  await editor.goto(`${projectUrl.split('#')[0]}#/c/${clip.id}/0`);
  await expect(editor.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');

  await page.bringToFront();
  await card(page, NAME).getByRole('button', { name: `Move ${NAME} to the trash` }).click();
  await expectError(page, `Cannot move it to the trash: "${NAME}" is open for editing in another tab; close it there (or finish) and try again. Nothing was changed.`);
  await page.getByRole('button', { name: 'Move project to trash' }).click();
  await expectError(page, `Cannot move the project to the trash: "${NAME}" is open for editing in another tab`);
  expect((await readRows<ClipRow>(page, 'clips'))[0].deletedAt).toBeUndefined();
  expect((await readRows<ProjectRow>(page, 'projects'))[0].deletedAt).toBeUndefined();

  // Once the other tab leaves the clip, it goes to the trash; the editor then refuses it.
  await editor.goto(projectUrl);
  await card(page, NAME).getByRole('button', { name: `Move ${NAME} to the trash` }).click();
  await expect(page.getByTestId('trashed-clip')).toHaveCount(1);
  await editor.goto(`${projectUrl.split('#')[0]}#/c/${clip.id}/0`);
  await expect(editor.getByTestId('trashed-clip-notice')).toContainText(`"${NAME}" is in the trash, so it cannot be edited.`);
  await editor.getByRole('button', { name: 'Restore and open' }).click();
  await expect(editor.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
});
