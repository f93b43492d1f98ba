/**
 * `spoc-studio eval --report`: the HTML file opened in Chromium shows the tables of the --json
 * output (every value as the report formats it: three decimals, "–" for undefined), the charts and
 * the worst frames' error maps, and loads nothing but itself.
 */
import { test, expect, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { encodeIndexedPng } from '../src/io/indexedPng';
import { vosFixtureSequence } from '../src/testing/vosFixtures';

const BIN = path.resolve('cli/spoc-studio.mjs');
const FULL_PALETTE: [number, number, number][] = Array.from({ length: 256 }, (_, i) => [i, i, i]);

function cli(args: string[], cwd: string): void {
  // The sources, not a dist-cli/ build that may predate them.
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, SPOC_CLI_SOURCES: '1' } });
  expect(r.status, r.stderr).toBe(0);
}

const fmt = (x: number | null): string => (x === null ? '–' : x.toFixed(3));

async function tableCells(page: Page, id: string): Promise<string[][]> {
  return page.locator(`#${id} tbody tr`).evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

/** Opens the report, recording every request it makes. */
async function open(page: Page, file: string): Promise<string[]> {
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(file).href);
  return requests;
}

let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'spoc-report-'));
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('SPOC report: tables equal the JSON, bars, curves and error maps, self-contained', async ({ page }) => {
  cli(['demo', '--out', 'set', '--clips', '3', '--frames', '6', '--size', '160x90', '--seed', '4', '--pred-out', 'set', '--pred-noise', '0.7'], dir);
  cli(['eval', '--gt', 'set', '--pred', 'set', '--boundary', '--json', 'out.json', '--report', 'out/report.html'], dir);
  const doc = JSON.parse(await readFile(path.join(dir, 'out.json'), 'utf8'));
  const requests = await open(page, path.join(dir, 'out/report.html'));

  const label = (r: { row: string; verb: string | null }): string => (r.row === 'mean_over_verbs' ? 'Mean (verbs)' : r.row === 'mean_over_clips' ? 'Mean (clips)' : r.verb!);
  const keys = ['mIoU', 'mIoU_act', 'mIoU_trf', 'wo_osc', 'seen', 'novel', 'transition'];
  const table = doc.summary.table as Record<string, number | string | null>[];
  expect(table.length).toBeGreaterThan(2);
  expect(await tableCells(page, 'spoc-table')).toEqual(
    table.map((r) => [label(r as never), String(r.clips), ...keys.map((k) => fmt(r[k] as number | null))]),
  );
  expect(await tableCells(page, 'progress-table')).toEqual(
    (doc.summary.progress.rows as Record<string, number | string | null>[]).map((r) => [
      label(r as never),
      String(r.clips),
      ...['tau', 'tau_gt', 'end_sigma', 'end_l2', 'end_rms'].map((k) => fmt(r[k] as number | null)),
    ]),
  );
  expect(await tableCells(page, 'davis-table')).toEqual(
    (doc.summary.davis as Record<string, number | string | null>[]).map((r) => [
      String(r.state),
      String(r.clips),
      ...['JF', 'J_mean', 'J_recall', 'J_decay', 'F_mean', 'F_recall', 'F_decay'].map((k) => fmt(r[k] as number | null)),
    ]),
  );
  const clips = doc.clips as { id: string; verb: string; IoU_act: number | null; IoU_trf: number | null; mIoU: number | null; IoU_obj: number | null; progress: { tau: number | null; tau_gt: number | null } }[];
  expect(clips.length).toBe(3);
  expect(await tableCells(page, 'clip-table')).toEqual(
    clips.map((c) => [c.id, c.verb, fmt(c.IoU_act), fmt(c.IoU_trf), fmt(c.mIoU), fmt(c.IoU_obj), fmt(c.progress.tau), fmt(c.progress.tau_gt)]),
  );

  // One bar per verb row, each clip's two curves, an error map per clip with an evaluated frame.
  const verbs = table.filter((r) => r.row === 'verb').length;
  await expect(page.locator('#verb-bars rect.bar')).toHaveCount(verbs);
  await expect(page.locator('figure.curve')).toHaveCount(3);
  for (const d of await page.locator('figure.curve path.line').evaluateAll((ps) => ps.map((p) => p.getAttribute('d') ?? ''))) expect(d).toMatch(/^M/);
  const thumbs = page.locator('figure.worst img');
  await expect(thumbs).toHaveCount(3);
  for (const img of await thumbs.all()) {
    expect(await img.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  }
  expect(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'))).toEqual([]);
});

test('VOS report: the global and per-sequence tables equal the JSON, self-contained', async ({ page }) => {
  const root = path.join(dir, 'vos');
  for (const [name, seed] of [['cats', 3], ['walk', 9]] as const) {
    const s = vosFixtureSequence({ name, seed, width: 64, height: 40, frames: 6, objects: 2 });
    for (let t = 0; t < s.ids.length; t++) {
      for (const [folder, map] of [['gt', s.gt[t]], ['res', s.semi.get(s.ids[t])!]] as const) {
        await mkdir(path.join(root, folder, name), { recursive: true });
        await writeFile(path.join(root, folder, name, `${s.ids[t]}.png`), encodeIndexedPng(map, FULL_PALETTE));
      }
    }
  }
  cli(['eval', '--task', 'vos', '--gt', 'gt', '--pred', 'res', '--json', 'out.json', '--report', 'report.html'], root);
  const doc = JSON.parse(await readFile(path.join(root, 'out.json'), 'utf8'));
  const requests = await open(page, path.join(root, 'report.html'));
  expect(await tableCells(page, 'vos-global-table')).toEqual([Object.values(doc.global as Record<string, number | null>).map(fmt)]);
  const perSequence = doc.per_sequence as { Sequence: string; 'J-Mean': number | null; 'F-Mean': number | null }[];
  expect(perSequence.length).toBe(4);
  expect(await tableCells(page, 'vos-sequence-table')).toEqual(perSequence.map((r) => [r.Sequence, fmt(r['J-Mean']), fmt(r['F-Mean'])]));
  await expect(page.locator('#sequence-bars rect.bar')).toHaveCount(4);
  await expect(page.locator('figure.curve')).toHaveCount(4);
  expect(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'))).toEqual([]);
});
