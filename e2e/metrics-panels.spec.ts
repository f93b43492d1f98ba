/**
 * The metric panels on the demo project, with the real mouse.
 *
 * (a) The editor's progress and compare panels follow a stroke while it is being painted, and agree
 *     with the stored layer once it is saved.
 * (b) The project panel's SPOC table equals `spoc-studio eval` on the same data: the test exports the
 *     stored gt and `pred:generator` layers to WhereToChange-layout PNGs (with the frames' phases and
 *     ignored flags in the metadata files), runs the CLI in-process with --json, and compares every
 *     cell (3 decimals in the panel, 1e-3) and the CSV download (6 decimals, 1e-6).
 */
import { test, expect, type Page } from '@playwright/test';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readRows } from './helpers/store';
import { drag, imageToScreen, openEditor, waitSaved } from './helpers/editor';
import { runCli, tempDir } from '../cli/testing';
import { encodeIndexedPng } from '../src/io/indexedPng';
import { createLabelMap, type LabelMap } from '../src/masks/labelMap';
import { decodeLayer, parseLayer } from '../src/masks/layers';

interface ClipRow { id: string; name: string; width: number; height: number; frameCount: number; osc: { verb: string; noun: string } }
interface FrameRow { clipId: string; index: number; name?: string; phase?: string; ignored?: { reason: string } }
interface LayerRow { clipId: string; frameIndex: number; source: string; act: unknown; trf: unknown; actArea: number; trfArea: number }

const CLIP = 'peeling potato (demo 2)';

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
});

async function clipRow(page: Page, name: string): Promise<ClipRow> {
  return (await readRows<ClipRow>(page, 'clips')).find((c) => c.name === name)!;
}

async function storedLayer(page: Page, clipId: string, source: string, frame: number): Promise<LayerRow | undefined> {
  return (await readRows<LayerRow>(page, 'layers')).find((l) => l.clipId === clipId && l.source === source && l.frameIndex === frame);
}

function decode(row: LayerRow, clip: ClipRow): LabelMap {
  return decodeLayer(parseLayer(row), { width: clip.width, height: clip.height });
}

/**
 * Horizontal extent and mean row of the generator's `labels` (pred:generator) on a frame: where to
 * paint so that strokes overlap it.
 */
async function objectBox(page: Page, clip: ClipRow, frame: number, labels: readonly number[] = [1, 2]): Promise<{ x0: number; x1: number; cy: number }> {
  const map = decode((await storedLayer(page, clip.id, 'pred:generator', frame))!, clip);
  let x0 = Infinity;
  let x1 = -Infinity;
  let sy = 0;
  let n = 0;
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      if (!labels.includes(map.data[y * map.width + x])) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      sy += y;
      n++;
    }
  }
  expect(n, `the generator draws label(s) ${labels} on frame ${frame}`).toBeGreaterThan(0);
  return { x0, x1, cy: Math.round(sy / n) };
}

test('the progress and compare panels follow a stroke while it is painted', async ({ page }) => {
  await openEditor(page, CLIP);
  const clip = await clipRow(page, CLIP);
  const act = page.getByTestId('progress-act');
  const ratio = page.getByTestId('progress-r');
  await expect(page.getByTestId('progress-frame')).toHaveText('1');
  await expect(act).toHaveText('0');
  await expect(ratio).toHaveText('—'); // no object painted: R_t undefined
  // gt is empty, the generator has the potato: every state present scores 0.
  await expect(page.getByTestId('compare-source')).toHaveValue('pred:generator');
  await expect(page.getByTestId('compare-panel')).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('compare-obj')).toHaveText('0.000');

  // An actionable stroke through the object; the panel moves before the button is released.
  const box = await objectBox(page, clip, 0);
  await page.keyboard.press('1');
  const a = await imageToScreen(page, box.x0 + 4, box.cy);
  const b = await imageToScreen(page, box.x1 - 4, box.cy);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, a.y, { steps: 10 });
  await expect(act).not.toHaveText('0');
  const halfway = Number(await act.textContent());
  await expect(ratio).toHaveText('1.000');
  await page.mouse.move(b.x, b.y, { steps: 10 });
  await expect.poll(async () => Number(await act.textContent())).toBeGreaterThan(halfway);
  await page.mouse.up();
  await waitSaved(page);

  // Once saved, the live number is the area the store computed from the saved RLE.
  const stored = (await storedLayer(page, clip.id, 'gt', 0))!;
  await expect(act).toHaveText(String(stored.actArea));
  const actIoU = Number(await page.getByTestId('compare-act').textContent());
  expect(actIoU).toBeGreaterThan(0);
  expect(actIoU).toBeLessThan(1);

  // A transformed stroke: R_t = A_act / (A_act + A_trf), read back from the store.
  await page.keyboard.press('2');
  await drag(page, box.x0 + 4, box.cy + 20, box.x1 - 4, box.cy + 20);
  await waitSaved(page);
  const after = (await storedLayer(page, clip.id, 'gt', 0))!;
  expect(after.trfArea).toBeGreaterThan(0);
  await expect(page.getByTestId('progress-trf')).toHaveText(String(after.trfArea));
  await expect(ratio).toHaveText((after.actArea / (after.actArea + after.trfArea)).toFixed(3));

  // Undo is an edit too: the transformed area goes back to 0.
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('progress-trf')).toHaveText('0');
  await expect(ratio).toHaveText('1.000');

  // Clicking a point of the compare chart goes to that frame (x runs over frames 1..20, half a frame of margin).
  const over = (await page.getByTestId('compare-chart').locator('.u-over').boundingBox())!;
  const frame = 7;
  await page.mouse.click(over.x + ((frame - 0.5) / clip.frameCount) * over.width, over.y + over.height / 2);
  await expect(page.getByTestId('frame-indicator')).toHaveText(`frame ${frame} / ${clip.frameCount}`);
  await expect(page.getByTestId('progress-frame')).toHaveText(String(frame));
});

// ---- (b) project panel == CLI ---------------------------------------------------------------------

const COLUMNS = ['mIoU', 'mIoU_act', 'mIoU_trf', 'wo_osc', 'seen', 'novel', 'transition'] as const;
type Column = (typeof COLUMNS)[number];
interface JsonRow { row: 'mean_over_verbs' | 'mean_over_clips' | 'verb'; verb: string | null; clips: number; [k: string]: unknown }

async function panelTable(page: Page): Promise<Map<string, Record<string, string>>> {
  const rows = await page.getByTestId('spoc-table').locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [
      tr.getAttribute('data-row')!,
      Object.fromEntries(Array.from(tr.querySelectorAll('td[data-col]')).map((td) => [td.getAttribute('data-col')!, td.textContent ?? ''])),
    ]),
  );
  return new Map(rows as [string, Record<string, string>][]);
}

const rowId = (r: JsonRow) => (r.row === 'verb' ? `verb:${r.verb}` : r.row);
const frameName = (f: FrameRow) => f.name ?? `frame${String(f.index).padStart(4, '0')}`;

/**
 * Writes what the store holds as the CLI reads it: <gt>/<verb>_<noun>/gt/masks/<video>/<frame>.png for
 * every frame (an unpainted frame is an all-background mask), <gt>/<osc>/meta/<video>.json with the
 * phases and ignored frames, and <pred>/<osc>/pred/masks/<video>/<frame>.png for each frame that
 * has a layer of `source` (no file = a missing prediction, scored as empty by both).
 */
async function exportProject(page: Page, source: string, gtRoot: string, predRoot: string): Promise<void> {
  const clips = await readRows<ClipRow>(page, 'clips');
  const frames = await readRows<FrameRow>(page, 'frames');
  const layers = await readRows<LayerRow>(page, 'layers');
  for (const [i, clip] of clips.entries()) {
    const osc = `${clip.osc.verb}_${clip.osc.noun.trim().replace(/\s+/g, '_')}`;
    const video = `clip${i + 1}`;
    const fs = frames.filter((f) => f.clipId === clip.id).sort((x, y) => x.index - y.index);
    expect(fs).toHaveLength(clip.frameCount);
    for (const f of fs) {
      const gt = layers.find((l) => l.clipId === clip.id && l.source === 'gt' && l.frameIndex === f.index);
      const pred = layers.find((l) => l.clipId === clip.id && l.source === source && l.frameIndex === f.index);
      const gtMap = gt ? decode(gt, clip) : createLabelMap(clip.width, clip.height);
      await write(path.join(gtRoot, osc, 'gt', 'masks', video, `${frameName(f)}.png`), encodeIndexedPng(gtMap));
      if (pred) await write(path.join(predRoot, osc, 'pred', 'masks', video, `${frameName(f)}.png`), encodeIndexedPng(decode(pred, clip)));
    }
    const meta = { frames: fs.map(frameName), phases: fs.map((f) => f.phase ?? null), ignored: fs.filter((f) => f.ignored).map(frameName) };
    await write(path.join(gtRoot, osc, 'meta', `${video}.json`), JSON.stringify(meta));
  }
}

async function write(file: string, data: Uint8Array | string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, data);
}

function expectSameTable(panel: Map<string, Record<string, string>>, json: JsonRow[], tolerance: number, label: string): void {
  expect([...panel.keys()].sort(), label).toEqual(json.map(rowId).sort());
  for (const r of json) {
    const cells = panel.get(rowId(r))!;
    for (const col of COLUMNS) {
      const want = r[col] as number | null;
      const got = cells[col];
      const where = `${label}: ${rowId(r)} ${col}: panel "${got}" vs CLI ${want}`;
      if (want === null) expect(got, where).toBe('');
      else expect(Math.abs(Number(got) - want), where).toBeLessThanOrEqual(tolerance);
    }
  }
}

test('the project panel shows the numbers spoc-studio eval computes for the same data', async ({ page }) => {
  // The demo as it comes is degenerate for this comparison: clip 1 has gt but no pred:generator, and
  // clips 2 and 3 have pred:generator but empty gt, so every IoU would be 0. So we annotate part of
  // clip 2 by hand, with strokes that only partly cover the generator's actionable and transformed
  // regions, set phases (two transitioning frames, two end frames) and ignore a painted frame. Then clip 2 has IoUs strictly
  // between 0 and 1, the transition column is defined, and the ignored frame would change the
  // numbers if either side failed to leave it out. Clips 1 and 3 stay as they are and keep both
  // missing-data conventions in the comparison (a clip without predictions; predictions on empty gt).
  await openEditor(page, CLIP);
  const clip = await clipRow(page, CLIP);
  // Frames where the generator shows both states, so each stroke can half-cover its state.
  const both = (await readRows<LayerRow>(page, 'layers'))
    .filter((l) => l.clipId === clip.id && l.source === 'pred:generator' && l.actArea > 1500 && l.trfArea > 1500)
    .map((l) => l.frameIndex)
    .sort((x, y) => x - y);
  expect(both.length, 'frames with both states in pred:generator').toBeGreaterThanOrEqual(4);
  const [t1, t2, e1, e2] = [both[0], both[1], both.at(-2)!, both.at(-1)!];
  const plan: { frame: number; strokes: (1 | 2)[]; phase: string; ignore?: boolean }[] = [
    { frame: 0, strokes: [1], phase: 'initial' },
    { frame: t1, strokes: [1, 2], phase: 'transitioning' },
    { frame: t2, strokes: [2], phase: 'transitioning' },
    { frame: e1, strokes: [1, 2], phase: 'end', ignore: true },
    { frame: e2, strokes: [2, 1], phase: 'end' },
  ];
  for (const step of plan) {
    await page.getByTestId('timeline-frame').nth(step.frame).click();
    await expect(page.getByTestId('frame-indicator')).toHaveText(`frame ${step.frame + 1} / ${clip.frameCount}`);
    for (const cls of step.strokes) {
      // From a little inside the state's left edge to just past its middle: a partial overlap.
      const box = await objectBox(page, clip, step.frame, [cls]);
      await page.keyboard.press(String(cls));
      await drag(page, box.x0 + 6, box.cy, Math.round((box.x0 + box.x1) / 2) + 10, box.cy);
    }
    await page.getByRole('button', { name: step.phase, exact: true }).click();
    if (step.ignore) {
      await page.keyboard.press('i');
      await page.getByRole('button', { name: 'Ignore frame', exact: true }).click();
      await expect(page.getByTestId('ignored-banner')).toBeVisible();
    }
  }
  await waitSaved(page);

  // The project panel.
  await page.getByRole('link', { name: '← clips' }).click();
  await page.getByRole('button', { name: /Evaluation: SPOC table/ }).click();
  const body = page.getByTestId('project-metrics-body');
  await expect(page.getByTestId('project-metrics-source')).toHaveValue('pred:generator');
  await expect(body).toHaveAttribute('data-state', 'done');
  const pooled = await panelTable(page);

  // The CLI on the exported data.
  const { dir, cleanup } = await tempDir('spoc-e2e-panel-');
  try {
    await exportProject(page, 'pred:generator', path.join(dir, 'gt'), path.join(dir, 'pred'));
    const run = await runCli(['eval', '--gt', 'gt', '--pred', 'pred', '--json', 'pooled.json'], dir);
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(await readFile(path.join(dir, 'pooled.json'), 'utf8')) as {
      summary: { table: JsonRow[]; coverage: { ignored_frames: number; missing_predictions: number } };
    };
    expect(json.summary.coverage.ignored_frames).toBe(1);
    expect(json.summary.coverage.missing_predictions).toBe(20); // clip 1 has no prediction
    const table = json.summary.table;

    // Non-trivial numbers: the painted clip's verb scores strictly between 0 and 1, with a transition value.
    const peeling = table.find((r) => r.verb === 'peeling')!;
    for (const col of ['mIoU', 'mIoU_act', 'mIoU_trf', 'wo_osc', 'transition'] satisfies Column[]) {
      expect(peeling[col] as number, `peeling ${col}`).toBeGreaterThan(0);
      expect(peeling[col] as number, `peeling ${col}`).toBeLessThan(1);
    }
    expect(table.find((r) => r.row === 'mean_over_verbs')!.mIoU as number).toBeGreaterThan(0);
    expectSameTable(pooled, table, 1e-3, 'clip-pooled');
    for (const r of table) expect(pooled.get(rowId(r))!.clips, rowId(r)).toBe(String(r.clips));

    // The CSV download carries 6 decimals: equal to the CLI to 1e-6.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const csvFile = path.join(dir, 'table.csv');
    await (await downloading).saveAs(csvFile);
    const [header, ...lines] = (await readFile(csvFile, 'utf8')).trimEnd().split('\n');
    expect(header).toBe('row,verb,clips,mIoU,mIoU_act,mIoU_trf,wo_osc,seen,novel,transition');
    const csv = new Map(
      lines.map((line) => {
        const [row, verb, , ...values] = line.split(',');
        return [row === 'verb' ? `verb:${verb}` : row, Object.fromEntries(COLUMNS.map((c, i) => [c, values[i]]))];
      }),
    );
    expectSameTable(csv, table, 1e-6, 'CSV');

    // Another convention: switch the panel, run the CLI with it.
    await page.getByTestId('project-metrics-convention').selectOption('per-frame');
    const perFrame = await panelTable(page);
    const run2 = await runCli(['eval', '--gt', 'gt', '--pred', 'pred', '--convention', 'per-frame', '--json', 'per-frame.json'], dir);
    expect(run2.code, run2.stderr).toBe(0);
    const json2 = JSON.parse(await readFile(path.join(dir, 'per-frame.json'), 'utf8')) as { summary: { table: JsonRow[] } };
    expectSameTable(perFrame, json2.summary.table, 1e-3, 'per-frame');
    expect(perFrame.get('verb:peeling')!.mIoU).not.toBe(pooled.get('verb:peeling')!.mIoU);
  } finally {
    await cleanup();
  }
});
