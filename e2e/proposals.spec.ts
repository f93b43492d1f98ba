/**
 * Automatic proposals and the pre-label flow end to end in Chromium with the tiny models (real
 * worker, onnxruntime-web WASM), on a clip of solid-colour frames: red, red, green, blue, 320x180.
 *
 * What the tiny models do (src/inference/onnx/tiny): SAM draws discs of radius 48/24/64/128 in the
 * 1024 frame around each prompt point, i.e. 15/7.5/20/40 px here (scale 1024/320); CLIP embeds a
 * crop as its mean colour (axes 0..2) plus 0.1 on axes 3..7, and a text as the sum of its tokens'
 * rows of a fixed table ("red"/"green" on the colour axes). A masked crop of a solid frame is the
 * frame colour inside the disc and CLIP's mean colour outside it; the disc covers a fraction f of
 * what CLIP sees, at least ~pi/4 of its box (more after CLIP's centre crop), so we take f in
 * [0.5, 1] and require Eq. 1 to give ONE label over that whole range — computed here from the tiny
 * models' definitions, not by running the app's pipeline.
 */
import { test, expect, type Page } from '@playwright/test';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTinyModels } from '../scripts/make-tiny-models';
import { buildTinyClipTokenizer } from '../src/inference/onnx/tiny/clipTokenizer';
import { TINY_VISION_BIAS, tinyTextTable } from '../src/inference/onnx/tiny/clip';
import { jpegOf, writeBytes } from './fixtures/files';
import { createProject } from './helpers/app';
import { imageToScreen, openEditor, waitSaved } from './helpers/editor';
import { readRows, storeSnapshot, storedFramePixels } from './helpers/store';

const W = 320;
const H = 180;
const FRAMES: [number, number, number][] = [
  [255, 0, 0],
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
];
const CLIP_FILL = [123, 117, 104]; // spoc/maskedCrop CLIP_MEAN_RGB
const SMALL_DISC = Math.PI * 7.5 * 7.5;

interface LayerRow { clipId: string; frameIndex: number; source: string; actArea: number; trfArea: number }
interface ClipRow { id: string; name: string }

/** Eq. 1 for a masked crop of a solid `rgb` frame, over every disc fraction f in [0.5, 1]; throws when the label would depend on f. */
function expectedState(rgb: readonly number[], tau: number, delta: number): 'actionable' | 'transformed' | 'background' | 'ambiguous' {
  const { vocab } = buildTinyClipTokenizer();
  const table = tinyTextTable(vocab);
  const row = (tok: string) => table.slice(vocab.get(tok)! * 8, vocab.get(tok)! * 8 + 8);
  const text = (a: string, b: string) => row(`${a}</w>`).map((v, i) => v + row(`${b}</w>`)[i]);
  const act = text('red', 'apple');
  const trf = text('green', 'apple');
  const cos = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i], 0) / Math.hypot(...a) / Math.hypot(...b);
  const labels = new Set<string>();
  for (let f = 0.5; f <= 1.0001; f += 0.01) {
    const e = [0, 1, 2].map((k) => (f * rgb[k] + (1 - f) * CLIP_FILL[k]) / 255).concat([0, 0, 0, 0, 0].map(() => TINY_VISION_BIAS));
    const sAct = cos(e, act);
    const sTrf = cos(e, trf);
    labels.add(sAct + sTrf < tau ? 'background' : Math.abs(sAct - sTrf) < delta ? 'ambiguous' : sAct > sTrf ? 'actionable' : 'transformed');
  }
  if (labels.size !== 1) throw new Error(`Eq. 1 is not uniform for ${rgb.join(',')} at tau ${tau}: ${[...labels].join(', ')}`);
  return [...labels][0] as 'actionable';
}

async function clipId(page: Page): Promise<string> {
  return (await readRows<ClipRow>(page, 'clips')).find((c) => c.name === 'colours')!.id;
}

async function layer(page: Page, source: string, frame: number): Promise<{ act: number; trf: number } | null> {
  const id = await clipId(page);
  const row = (await readRows<LayerRow>(page, 'layers')).find((l) => l.clipId === id && l.source === source && l.frameIndex === frame);
  return row ? { act: row.actArea, trf: row.trfArea } : null;
}

async function gt(page: Page, frame: number) {
  return (await layer(page, 'gt', frame)) ?? { act: 0, trf: 0 };
}

test('proposals on a frame, accept + undo, per-verb thresholds, pre-label clip with cancel, accept a frame and a region', async ({ page }, info) => {
  test.setTimeout(300_000);
  const dir = info.outputPath('colours');
  for (const [i, rgb] of FRAMES.entries()) {
    const data = new Uint8ClampedArray(W * H * 4);
    for (let p = 0; p < W * H; p++) data.set([...rgb, 255], p * 4);
    await writeBytes(join(dir, `frame${i + 1}.jpg`), jpegOf({ width: W, height: H, data }, 95));
  }
  const modelDir = info.outputPath('tiny-models');
  await makeTinyModels(modelDir);

  await createProject(page, 'Proposals');
  await page.getByLabel('Object').fill('apple');
  await page.getByLabel('Actionable').fill('red apple');
  await page.getByLabel('Transformed').fill('green apple');
  await page.getByTestId('import-folder').setInputFiles(dir);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 60_000 });
  await openEditor(page, 'colours');
  const id = await clipId(page);
  // The colours the browser decoded (JPEG is close to, not exactly, the written values).
  const colours = [];
  for (let k = 0; k < FRAMES.length; k++) colours.push((await storedFramePixels(page, id, k, { x: 160, y: 90, w: 1, h: 1 })).data.slice(0, 3));

  // Without models the actions say what to load.
  await expect(page.getByTestId('proposals-button')).toBeDisabled();
  await expect(page.getByTestId('prelabel-button')).toBeDisabled();
  await expect(page.getByTestId('ai-needs')).toHaveText('needs SAM + CLIP');

  await page.getByTestId('models-button').click();
  await page.getByTestId('pick-models').setInputFiles((await readdir(modelDir)).map((f) => join(modelDir, f)));
  for (const m of ['tiny-sam', 'tiny-clip']) {
    await expect(page.locator(`[data-testid="model-row"][data-model="${m}"]`)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  }
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('proposals-button')).toBeEnabled();
  await expect(page.getByTestId('prelabel-button')).toBeEnabled();

  // ---- proposals on frame 1 (red), 8x8 grid --------------------------------------------------------
  await page.getByTestId('proposals-settings').click();
  await expect(page.getByTestId('prompt-act')).toHaveValue('red apple');
  await page.getByTestId('proposal-grid').selectOption('8');
  await page.getByTestId('editor-canvas').focus();
  await page.keyboard.press('2'); // paint class transformed: a labelled proposal must still go in as its own state
  await page.keyboard.press('Shift+A');
  const panel = page.getByTestId('proposals-panel');
  await expect(panel).toHaveAttribute('data-mode', 'frame', { timeout: 60_000 });
  const canvas = page.getByTestId('editor-canvas');
  const n = Number(await canvas.getAttribute('data-proposals'));
  // 64 points x 4 discs, all >= 50 px; NMS (0.9) may merge only near-identical clipped discs.
  expect(n).toBeGreaterThanOrEqual(192);
  expect(n).toBeLessThanOrEqual(256);
  await expect(panel).toHaveAttribute('data-count', String(n));
  const message = (await page.getByTestId('proposals-message').textContent()) ?? '';
  console.log(`[proposals] ${W}x${H}, 8x8 grid: ${message}`);
  const red = expectedState(colours[0], 0.5, 0.01);
  expect(red).toBe('actionable');
  await expect(page.locator(`[data-testid="proposal-row"][data-label="${red}"]`)).toHaveCount(n);

  // tau re-labels live (no model re-run): at 1.1 the crops with S_act + S_trf < 1.1 become background.
  await page.getByTestId('eq1-tau').fill('1.1');
  await expect(page.locator('[data-testid="proposal-row"][data-label="background"]').first()).toBeVisible();
  expect(Number(await canvas.getAttribute('data-proposals'))).toBe(n);
  await page.getByTestId('eq1-tau').fill('0.8');
  await expect(page.locator(`[data-testid="proposal-row"][data-label="${expectedState(colours[0], 0.8, 0.01)}"]`)).toHaveCount(n);
  const meta = await readRows<{ key: string; value: unknown }>(page, 'meta');
  expect(meta.find((m) => m.key === 'inference.eq1ByVerb')?.value).toEqual({ grating: { tau: 0.8, delta: 0.01 } });

  // One click on the grid point (20, 11.25) takes the smallest disc there (r = 7.5 px) as actionable.
  await page.mouse.move(0, 0);
  const p = await imageToScreen(page, 20, 11.25);
  await page.mouse.move(p.x, p.y);
  await expect(canvas).toHaveAttribute('data-proposal-highlight', /\d/);
  await page.mouse.click(p.x, p.y);
  await waitSaved(page);
  let a = await gt(page, 0);
  expect(Math.abs(a.act - SMALL_DISC) / SMALL_DISC).toBeLessThan(0.1);
  expect(a.trf).toBe(0);
  await expect(canvas).toHaveAttribute('data-proposals', String(n - 1));
  await page.keyboard.press('Control+z');
  await waitSaved(page);
  a = await gt(page, 0);
  expect(a).toEqual({ act: 0, trf: 0 });

  // A row click selects (and highlights) a proposal; Enter accepts the selection. Tab then A does the same.
  const rows = page.getByTestId('proposal-row');
  await rows.nth(2).click();
  await expect(rows.nth(2)).toHaveAttribute('aria-selected', 'true');
  await expect(canvas).toHaveAttribute('data-proposal-highlight', /^2(,|$)/);
  const area2 = Number(await rows.nth(2).locator('td').last().textContent());
  await page.keyboard.press('Enter');
  await waitSaved(page);
  expect(await gt(page, 0)).toEqual({ act: area2, trf: 0 });
  await page.keyboard.press('Control+z');
  await waitSaved(page);
  await page.keyboard.press('Tab');
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');
  const area0 = Number(await rows.first().locator('td').last().textContent());
  await page.keyboard.press('a');
  await waitSaved(page);
  expect(await gt(page, 0)).toEqual({ act: area0, trf: 0 });
  await page.keyboard.press('Control+z');
  await waitSaved(page);
  expect(await gt(page, 0)).toEqual({ act: 0, trf: 0 });
  await page.keyboard.press('Escape');
  await expect(canvas).toHaveAttribute('data-proposals', '0');

  // ---- pre-label: cancel writes nothing ---------------------------------------------------------------
  const before = await storeSnapshot(page);
  await page.getByTestId('proposal-grid').selectOption('32');
  await page.getByTestId('prelabel-button').click();
  await expect(page.getByTestId('proposals-progress')).toBeVisible();
  await page.getByTestId('proposals-cancel').click();
  await expect(page.getByTestId('proposals-message')).toContainText('cancelled', { timeout: 60_000 });
  expect(await storeSnapshot(page)).toEqual(before);

  // ---- pre-label the clip (8x8 grid, tau 0.8): per-frame states follow Eq. 1 ---------------------------
  await page.getByTestId('proposal-grid').selectOption('8');
  const t0 = Date.now();
  await page.getByTestId('prelabel-button').click();
  await expect(page.getByTestId('proposals-message')).toContainText('pre-label written', { timeout: 240_000 });
  console.log(`[prelabel] ${FRAMES.length} frames ${W}x${H}, 8x8 grid: ${Date.now() - t0} ms · ${await page.getByTestId('proposals-message').textContent()}`);
  for (let k = 0; k < FRAMES.length; k++) {
    const state = expectedState(colours[k], 0.8, 0.01);
    // Every pixel lies within 23 px of a grid point, inside its 40 px disc: the whole frame is covered.
    const want = state === 'actionable' ? { act: W * H, trf: 0 } : state === 'transformed' ? { act: 0, trf: W * H } : { act: 0, trf: 0 };
    expect(await layer(page, 'proposal', k), `frame ${k + 1}: ${state}`).toEqual(want);
    expect(await gt(page, k)).toEqual({ act: 0, trf: 0 }); // gt is never written by the pre-label
  }

  // The pre-label of frame 1 is shown (one actionable region); accepting the frame copies it to gt, undo removes it.
  await expect(panel).toHaveAttribute('data-mode', 'layer');
  await expect(panel).toHaveAttribute('data-count', '1');
  await page.getByTestId('prelabel-accept-frame').click();
  await waitSaved(page);
  expect(await gt(page, 0)).toEqual({ act: W * H, trf: 0 });
  await page.keyboard.press('Control+z');
  await waitSaved(page);
  expect(await gt(page, 0)).toEqual({ act: 0, trf: 0 });

  // Frame 3 (green): the layer view follows the frame; a click accepts its region as transformed.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(canvas).toHaveAttribute('data-frame', '2');
  await expect(panel).toHaveAttribute('data-count', '1');
  await expect(page.locator('[data-testid="proposal-row"][data-label="transformed"]')).toHaveCount(1);
  const q = await imageToScreen(page, 100, 100);
  await page.mouse.click(q.x, q.y);
  await waitSaved(page);
  expect(await gt(page, 2)).toEqual({ act: 0, trf: W * H });
});
