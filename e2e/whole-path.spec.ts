/**
 * The whole path as a new user walks it, on a real H.264 video with exact ground truth: a demo clip
 * (slicing bread, 640x360, 6 s) rendered in Node and encoded by ffmpeg (libx264, yuv420p, 10 fps).
 *
 * 1. The annotator ("you are" ann) creates a project, imports the video at 1 fps (6 frames, the
 *    barcode says each is video frame 10k), paints both states with brush, polygon and flood fill on
 *    the object (every stored pixel agrees with the generator's truth), ignores a frame with a
 *    reason, sets the phases with "change starts / ends here", undoes and redoes, reloads mid-way
 *    (nothing lost), and submits past the blank-frame warning by painting the blank frame first.
 * 2. The reviewer (rita) steps with J, accepts with A, rejects one frame with R and a note, and sends
 *    the clip back; ann fixes the frame and resubmits; rita accepts the rest and approves; the
 *    approved clip refuses paint.
 * 3. The researcher (rob) exports gt as WhereToChange, writes a prediction from the generator's truth
 *    with known perturbations in the exported names, imports it as pred:perturbed, reads the SPOC table
 *    and finds the CLI's `spoc-studio eval` numbers on the exported gt and prediction, to the
 *    precision shown; the COCO export decodes to the stored masks.
 * Everything is checked on the rows stored in IndexedDB and on what is shown.
 */
import { test, expect, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { createProject } from './helpers/app';
import { clickAt, drag, waitSaved, becomeUser } from './helpers/editor';
import { encodeDemoH264, hasFfmpeg } from './helpers/ffmpeg';
import { innerRect, type Rect } from './helpers/regions';
import { readRows, storedFramePixels } from './helpers/store';
import { barcodeRect, createDemoClip, readBarcode } from '../src/demo';
import { decodeLayer, parseLayer } from '../src/masks/layers';
import { decodeRle, parseCocoRle, type CocoRle } from '../src/masks/rle';
import { createLabelMap, type LabelMap } from '../src/masks/labelMap';
import { decodeIndexedPng, encodeIndexedPng } from '../src/io/indexedPng';
import { applyNoise, type NoiseChoice } from '../cli/noise';

const W = 640;
const H = 360;
const FRAMES = 6;
const VIDEO_FPS = 10;
const BRUSH_R = 8; // the default brush is 16 px wide
const clip = createDemoClip({ seed: 3, kind: 'slicing', width: W, height: H, durationSec: FRAMES });
const truth = Array.from({ length: FRAMES }, (_, k) => clip.groundTruthAt(k));

interface ClipRow { id: string; name: string; status: string; frameCount: number; sampleFps: number; width: number; height: number; osc: { verb: string; noun: string } }
interface FrameRow { clipId: string; index: number; name?: string; phase?: string; ignored?: { reason: string; by: string } }
interface LayerRow { clipId: string; source: string; frameIndex: number; act: CocoRle; trf: CocoRle; actArea: number; trfArea: number }
interface RevisionRow { seq: number; clipId: string; source: string; frameIndex: number; author: string }
interface EventRow { seq: number; clipId: string; action: string; from: string; to: string; by: string; note?: string }
interface VerdictRow { seq: number; clipId: string; frameIndex: number; verdict: string; note?: string; by: string }

const frameIs = (page: Page, k: number) => expect(page.getByTestId('frame-indicator')).toHaveText(`frame ${k + 1} / ${FRAMES}`);
const status = (page: Page) => page.getByTestId('clip-status');
const bar = (page: Page) => page.getByTestId('review-bar');
const tool = (page: Page, name: string) => page.getByRole('toolbar', { name: 'Editor tools' }).getByRole('button', { name, exact: true });

async function theClip(page: Page): Promise<ClipRow> {
  const clips = await readRows<ClipRow>(page, 'clips');
  expect(clips).toHaveLength(1);
  return clips[0];
}
async function gtLayers(page: Page, clipId: string): Promise<Map<number, LayerRow>> {
  const rows = (await readRows<LayerRow>(page, 'layers')).filter((l) => l.clipId === clipId && l.source === 'gt');
  return new Map(rows.map((l) => [l.frameIndex, l]));
}
function mapOf(layer: LayerRow | undefined): LabelMap {
  return layer ? decodeLayer(parseLayer({ act: layer.act, trf: layer.trf }), { width: W, height: H }) : createLabelMap(W, H);
}
async function framesOf(page: Page, clipId: string): Promise<FrameRow[]> {
  return (await readRows<FrameRow>(page, 'frames')).filter((f) => f.clipId === clipId).sort((a, b) => a.index - b.index);
}

/** A rectangle well inside state `label` of frame k's truth (the brush never leaves it). */
function inside(k: number, label: 1 | 2): Rect {
  const r = innerRect(truth[k], label, 2);
  expect(r, `frame ${k} has room for label ${label}`).not.toBeNull();
  expect(Math.min(r!.w, r!.h)).toBeGreaterThan(2 * BRUSH_R + 4);
  return r!;
}
/** A brush stroke along the middle of the rectangle, kept a brush radius from its ends. */
async function strokeThrough(page: Page, r: Rect) {
  const y = r.y + Math.floor(r.h / 2);
  await drag(page, r.x + BRUSH_R + 1, y, r.x + r.w - BRUSH_R - 2, y);
}
/** A polygon on the rectangle's corners (inset), closed on its first point. */
async function polygonOn(page: Page, r: Rect) {
  const [x0, y0, x1, y1] = [r.x + 2, r.y + 2, r.x + r.w - 3, r.y + r.h - 3];
  for (const [x, y] of [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]) await clickAt(page, x, y);
}

/** Every stored gt pixel carries the generator's label there: the strokes landed on the object. */
function expectOnTheObject(layers: Map<number, LayerRow>) {
  for (const [k, layer] of layers) {
    const m = mapOf(layer);
    let wrong = 0;
    for (let i = 0; i < m.data.length; i++) if (m.data[i] !== 0 && m.data[i] !== truth[k].data[i]) wrong++;
    expect(wrong, `frame ${k + 1}: painted pixels off their state`).toBe(0);
  }
}

test('annotator → reviewer → researcher on a real H.264 video', async ({ page }, info) => {
  test.skip(!hasFfmpeg(), 'needs ffmpeg on PATH to encode the H.264 clip (apt-get install ffmpeg)');
  test.setTimeout(240_000);
  const video = info.outputPath('slicing-bread.mp4');
  expect(encodeDemoH264(clip, VIDEO_FPS, video).frames).toBe(FRAMES * VIDEO_FPS);

  // ── The annotator: a project, the video at 1 fps with verb and object. ──
  await page.goto('/');
  await becomeUser(page, 'ann');
  await createProject(page, 'Kitchen');
  await page.getByLabel('Verb', { exact: true }).selectOption('slicing');
  await page.getByLabel('Object').fill('bread');
  await page.getByLabel('Video sampling').fill('1');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: /^Video files?…$/ }).click();
  await (await chooser).setFiles(video);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 60_000 });
  const c = await theClip(page);
  expect(c).toMatchObject({ frameCount: FRAMES, sampleFps: 1, width: W, height: H, osc: { verb: 'slicing', noun: 'bread' } });
  // Frame k of the clip is video frame 10k (t = k s), whose truth the generator gives.
  const code = barcodeRect(W, H);
  for (let k = 0; k < FRAMES; k++) {
    const px = await storedFramePixels(page, c.id, k, code);
    const data = new Uint8ClampedArray(W * H * 4);
    for (let y = 0; y < px.height; y++) data.set(Uint8ClampedArray.from(px.data).subarray(y * px.width * 4, (y + 1) * px.width * 4), ((code.y + y) * W + code.x) * 4);
    expect(readBarcode({ width: W, height: H, data }), `frame ${k + 1}`).toBe(k * VIDEO_FPS);
  }

  await page.getByTestId('clip-card').filter({ hasText: c.name }).click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
  await page.getByRole('button', { name: 'Actual pixels (1:1)' }).click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-view', /^1 /);

  // Frame 1 (initial, all actionable): two brush strokes.
  await tool(page, 'Paint actionable').click();
  await tool(page, 'Brush').click();
  const r0 = inside(0, 1);
  await strokeThrough(page, r0);
  await strokeThrough(page, { ...r0, y: r0.y - Math.floor(r0.h / 4) });
  // Frame 2: a polygon of actionable.
  await page.keyboard.press('ArrowRight');
  await frameIs(page, 1);
  await tool(page, 'Polygon').click();
  await polygonOn(page, inside(1, 1));
  // Frame 3: brush actionable, polygon transformed.
  await page.keyboard.press('ArrowRight');
  await frameIs(page, 2);
  await tool(page, 'Brush').click();
  await strokeThrough(page, inside(2, 1));
  await tool(page, 'Paint transformed').click();
  await tool(page, 'Polygon').click();
  await polygonOn(page, inside(2, 2));
  await waitSaved(page);

  // A reload mid-way loses nothing.
  const before = await gtLayers(page, c.id);
  expect([...before.keys()].sort()).toEqual([0, 1, 2]);
  await page.reload();
  await frameIs(page, 2);
  await expect(page.getByTestId('timeline-frame').nth(1)).toHaveAttribute('data-state', 'annotated');
  const after = await gtLayers(page, c.id);
  for (const k of [0, 1, 2]) expect([after.get(k)!.act, after.get(k)!.trf]).toEqual([before.get(k)!.act, before.get(k)!.trf]);
  await page.getByRole('button', { name: 'Actual pixels (1:1)' }).click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-view', /^1 /);

  // Frame 4: brush actionable; a ring of transformed, filled inside with the flood fill.
  await page.keyboard.press('ArrowRight');
  await frameIs(page, 3);
  await tool(page, 'Paint actionable').click();
  await tool(page, 'Brush').click();
  await strokeThrough(page, inside(3, 1));
  await tool(page, 'Paint transformed').click();
  const r3 = inside(3, 2);
  const [x0, y0, x1, y1] = [r3.x + BRUSH_R + 1, r3.y + BRUSH_R + 1, r3.x + r3.w - BRUSH_R - 2, r3.y + r3.h - BRUSH_R - 2];
  await drag(page, x0, y0, x1, y0);
  await drag(page, x1, y0, x1, y1);
  await drag(page, x1, y1, x0, y1);
  await drag(page, x0, y1, x0, y0);
  await waitSaved(page);
  const ringOnly = (await gtLayers(page, c.id)).get(3)!.trfArea;
  await tool(page, 'Flood fill').click();
  await clickAt(page, Math.round((x0 + x1) / 2), Math.round((y0 + y1) / 2));
  await waitSaved(page);
  const filled = (await gtLayers(page, c.id)).get(3)!.trfArea;
  expect(filled).toBeGreaterThan(ringOnly + 500);
  // Undo takes the fill back, redo puts it back.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await waitSaved(page);
  await expect.poll(async () => (await gtLayers(page, c.id)).get(3)!.trfArea).toBe(ringOnly);
  await page.getByRole('button', { name: 'Redo', exact: true }).click();
  await waitSaved(page);
  await expect.poll(async () => (await gtLayers(page, c.id)).get(3)!.trfArea).toBe(filled);

  // Frame 5: ignored, with a reason from the guidelines.
  await page.keyboard.press('ArrowRight');
  await frameIs(page, 4);
  await page.getByRole('button', { name: 'Ignore this frame… (i)' }).click();
  await page.getByLabel(/Why is frame 5 ignored/).selectOption({ label: 'Too blurry' });
  await page.getByRole('button', { name: 'Ignore frame', exact: true }).click();
  await expect(page.getByTestId('ignored-banner')).toContainText('Too blurry');

  // Phases: the change starts on frame 3 and ends on frame 6.
  await page.getByTestId('timeline-frame').nth(2).click();
  await frameIs(page, 2);
  await page.getByRole('button', { name: 'change starts here' }).click();
  await page.getByTestId('timeline-frame').nth(5).click();
  await frameIs(page, 5);
  await page.getByRole('button', { name: 'change ends here' }).click();
  await expect.poll(async () => (await framesOf(page, c.id)).map((f) => f.phase ?? '-').join(' ')).toBe('initial initial transitioning transitioning transitioning end');

  // Submitting with frame 6 blank: the warning names it; the annotator goes back and paints it.
  await bar(page).getByRole('button', { name: 'Submit for review', exact: true }).click();
  const warning = page.getByTestId('submit-warning');
  await expect(warning).toContainText('Frame 6 is not annotated, ignored or marked empty.');
  await warning.getByRole('button', { name: 'Keep annotating' }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'in_progress');
  await tool(page, 'Paint actionable').click();
  await tool(page, 'Brush').click();
  await strokeThrough(page, inside(5, 1));
  await tool(page, 'Paint transformed').click();
  await strokeThrough(page, inside(5, 2));
  await waitSaved(page);
  await bar(page).getByRole('button', { name: 'Submit for review', exact: true }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'submitted');
  await expect(warning).toHaveCount(0);

  const handedIn = await gtLayers(page, c.id);
  expect([...handedIn.keys()].sort()).toEqual([0, 1, 2, 3, 5]);
  for (const k of [0, 2, 3, 5]) expect(handedIn.get(k)!.actArea, `frame ${k + 1} actionable`).toBeGreaterThan(1000);
  for (const k of [2, 3, 5]) expect(handedIn.get(k)!.trfArea, `frame ${k + 1} transformed`).toBeGreaterThan(300);
  expectOnTheObject(handedIn);
  const frames = await framesOf(page, c.id);
  expect(frames[4].ignored).toMatchObject({ reason: 'too_blurry', by: 'ann' });
  expect(new Set((await readRows<RevisionRow>(page, 'revisions')).filter((r) => r.clipId === c.id).map((r) => r.author))).toEqual(new Set(['ann']));

  // ── The reviewer: J, A, R with a note, and the clip goes back. ──
  await page.getByTestId('timeline-frame').nth(0).click();
  await frameIs(page, 0);
  await becomeUser(page, 'rita');
  await bar(page).getByRole('button', { name: 'Start review', exact: true }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'in_review');
  await page.getByRole('button', { name: 'Reviewer mode' }).click();
  const tally = page.getByTestId('verdict-tally');
  await expect(tally).toHaveText('0 accepted · 0 rejected · 6 open');
  await page.keyboard.press('j'); // frame 1 later: on to frame 2
  await frameIs(page, 1);
  await page.keyboard.press('a');
  await frameIs(page, 2);
  await page.keyboard.press('r');
  const rejectNote = page.getByLabel(/Reject frame 3: what is wrong/);
  await rejectNote.fill('the cut slice is only half painted');
  await rejectNote.press('Enter');
  await frameIs(page, 3);
  for (const k of [3, 4, 5]) {
    await page.keyboard.press('a');
    await frameIs(page, k === 5 ? 0 : k + 1); // after the last frame, back to the one skipped
  }
  await page.keyboard.press('a');
  await expect(tally).toHaveText('5 accepted · 1 rejected · 0 open');
  const verdicts = async () => (await readRows<VerdictRow>(page, 'frameVerdicts')).filter((v) => v.clipId === c.id).sort((a, b) => a.seq - b.seq);
  expect((await verdicts()).map((v) => [v.frameIndex, v.verdict, v.by, v.note])).toEqual([
    [1, 'accept', 'rita', undefined],
    [2, 'reject', 'rita', 'the cut slice is only half painted'],
    [3, 'accept', 'rita', undefined],
    [4, 'accept', 'rita', undefined],
    [5, 'accept', 'rita', undefined],
    [0, 'accept', 'rita', undefined],
  ]);
  await bar(page).getByRole('button', { name: 'Request changes…' }).click();
  await expect(page.getByLabel('What should the annotator change?')).toHaveValue('Rejected frames:\nFrame 3: the cut slice is only half painted');
  await bar(page).getByRole('button', { name: 'Send back to the annotator' }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'changes_requested');

  // ── The annotator fixes frame 3 and resubmits. ──
  await becomeUser(page, 'ann');
  const rejected = page.getByTestId('timeline-frame').nth(2);
  await expect(rejected).toHaveAttribute('data-rejected', 'true');
  await rejected.click();
  await frameIs(page, 2);
  await tool(page, 'Paint transformed').click();
  await tool(page, 'Brush').click();
  const r2 = inside(2, 2);
  await drag(page, r2.x + Math.floor(r2.w / 2), r2.y + BRUSH_R + 1, r2.x + Math.floor(r2.w / 2), r2.y + r2.h - BRUSH_R - 2);
  await waitSaved(page);
  await expect.poll(async () => (await gtLayers(page, c.id)).get(2)!.trfArea).toBeGreaterThan(handedIn.get(2)!.trfArea);
  await bar(page).getByRole('button', { name: 'Submit for review', exact: true }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'submitted');

  // ── The reviewer accepts the fixed frame and approves. ──
  await page.getByTestId('timeline-frame').nth(0).click();
  await becomeUser(page, 'rita');
  await bar(page).getByRole('button', { name: 'Start review', exact: true }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'in_review');
  if ((await page.getByRole('button', { name: 'Reviewer mode' }).getAttribute('aria-pressed')) !== 'true') await page.getByRole('button', { name: 'Reviewer mode' }).click();
  await expect(tally).toHaveText('5 accepted · 1 rejected · 0 open');
  await page.getByTestId('verdict-cell').nth(2).click();
  await frameIs(page, 2);
  await page.keyboard.press('a');
  await expect(tally).toHaveText('6 accepted · 0 rejected · 0 open');
  await bar(page).getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(status(page)).toHaveAttribute('data-status', 'approved');
  const events = (await readRows<EventRow>(page, 'clipEvents')).filter((e) => e.clipId === c.id).sort((a, b) => a.seq - b.seq);
  expect(events.map((e) => [e.action, e.to, e.by])).toEqual([
    ['submit', 'submitted', 'ann'],
    ['start_review', 'in_review', 'rita'],
    ['request_changes', 'changes_requested', 'rita'],
    ['submit', 'submitted', 'ann'],
    ['start_review', 'in_review', 'rita'],
    ['approve', 'approved', 'rita'],
  ]);

  // Approved is read-only: a stroke changes nothing.
  const approved = await gtLayers(page, c.id);
  const revisions = (await readRows<RevisionRow>(page, 'revisions')).length;
  await expect(page.getByTestId('read-only')).toHaveAttribute('data-reason', 'approved');
  await expect(page.getByTestId('approved-banner')).toContainText('Approved by rita on');
  await page.keyboard.press('1');
  await strokeThrough(page, inside(2, 1));
  await waitSaved(page);
  expect((await readRows<RevisionRow>(page, 'revisions')).length).toBe(revisions);
  expect(await gtLayers(page, c.id)).toEqual(approved);
  expectOnTheObject(approved);

  // ── The researcher: gt out as WhereToChange, a prediction in, the SPOC table against the CLI. ──
  await page.getByRole('link', { name: '← clips' }).click();
  await expect(page.getByTestId('project-name')).toHaveText('Kitchen');
  await becomeUser(page, 'rob');
  const metrics = page.getByRole('region', { name: 'Evaluation' });
  await metrics.getByRole('button', { name: /Evaluation: SPOC table/ }).click();
  await expect(metrics).toContainText('Import predictions (pred:…) to score them here: for the whole project under Predictions for the whole project above, or for one clip in its review panel (Predictions).');

  const gtDir = info.outputPath('export-gt');
  const gtFiles = await exportAs(page, 'WhereToChange folders (zip)', 'gt', gtDir);
  // Frame names from the exported images; the ignored frame 5 has no mask (the metadata says why).
  const frameNames = gtFiles.filter((n) => /\/JPEGImages_1fps\/.+\.jpg$/.test(n)).map((n) => path.basename(n, '.jpg')).sort();
  expect(frameNames).toHaveLength(FRAMES);
  const maskNames = gtFiles.filter((n) => n.includes('/gt/masks/')).sort();
  expect(maskNames.map((n) => path.basename(n, '.png'))).toEqual(frameNames.filter((_, k) => k !== 4));
  // The prediction: the generator's truth with known perturbations, one PNG per exported mask name.
  const perturb: NoiseChoice[] = [
    { op: 'exact', radius: 0 },
    { op: 'erode', radius: 3 },
    { op: 'swap', radius: 0 },
    { op: 'dilate', radius: 4 },
    { op: 'exact', radius: 0 },
    { op: 'drop', radius: 0 },
  ];
  const predMaps = truth.map((t, k) => applyNoise(t, perturb[k]));
  const predPaths: string[] = [];
  for (const [k, m] of predMaps.entries()) {
    if (!m) continue;
    const file = path.join(info.outputPath('pred-png'), `${frameNames[k]}.png`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, encodeIndexedPng(m));
    predPaths.push(file);
  }
  await page.getByTestId('clip-card').filter({ hasText: c.name }).click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', /\d/);
  await page.getByRole('button', { name: 'Show review panel' }).click();
  const predictions = page.getByRole('region', { name: 'Predictions' });
  await predictions.getByLabel('Prediction name').fill('perturbed');
  // The button says which files it takes and how they are named.
  await expect(predictions.getByText('Import predictions…')).toHaveAttribute('title', /named after the clip's frames \(a video's are frame0000\.png/);
  const predChooser = page.waitForEvent('filechooser');
  await predictions.getByText('Import predictions…').click();
  await (await predChooser).setFiles(predPaths);
  await expect(predictions.getByLabel('Prediction source')).toHaveValue('pred:perturbed');
  const predLayers = (await readRows<LayerRow>(page, 'layers')).filter((l) => l.clipId === c.id && l.source === 'pred:perturbed');
  expect(predLayers.map((l) => l.frameIndex).sort()).toEqual([0, 1, 2, 3, 4]);
  for (const l of predLayers) expect(Buffer.from(mapOf(l).data).equals(Buffer.from(predMaps[l.frameIndex]!.data)), `pred frame ${l.frameIndex + 1}`).toBe(true);

  // The table on the project page.
  await page.getByRole('link', { name: '← clips' }).click();
  await expect(metrics.getByTestId('project-metrics-source')).toHaveValue('pred:perturbed');
  await expect(metrics.getByTestId('project-metrics-body')).toHaveAttribute('data-state', 'done');
  const shown = async (row: string) => {
    const cells = metrics.locator(`tr[data-row="${row}"] td[data-col]`);
    const out: Record<string, string> = {};
    for (let i = 0; i < (await cells.count()); i++) out[(await cells.nth(i).getAttribute('data-col'))!] = (await cells.nth(i).textContent())!.trim();
    return out;
  };
  await expect(metrics.getByTestId('project-metrics-notes')).toContainText('1 clips, 5 evaluated frames (1 ignored, 1 without a prediction, scored as empty).');

  // The CLI on the exported gt and prediction gives the same numbers, to the three decimals shown.
  const predDir = info.outputPath('export-pred');
  await exportAs(page, 'WhereToChange folders (zip)', 'pred:perturbed', predDir);
  const json = info.outputPath('eval.json');
  const cli = (gt: string, pred: string) => spawnSync('npx', ['--no-install', 'spoc-studio', 'eval', '--gt', gt, '--pred', pred, '--json', json], { encoding: 'utf8' });
  // Each zip's root is the dataset root (WhereToChange <verb>_<noun>/…): the CLI takes the unpacked folders as they are,
  // and the prediction sits in the layout's prediction place, pred/masks, never under gt/masks.
  expect(fs.readdirSync(gtDir)).toEqual(['slicing_bread']);
  expect(fs.readdirSync(predDir)).toEqual(['slicing_bread']);
  expect(fs.readdirSync(path.join(predDir, 'slicing_bread')).sort()).toEqual(['JPEGImages_1fps', 'pred']);
  const run = cli(gtDir, predDir);
  expect(run.status, run.stderr).toBe(0);
  // The app's own export raises one warning only: the frame the prediction left out.
  expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/lacks 1 of 5 GT frames \(frame0005\); scored as empty predictions$/)]);
  const report = JSON.parse(fs.readFileSync(json, 'utf8')) as {
    summary: { coverage: Record<string, number>; table: ({ row: string; verb: string | null; clips: number } & Record<string, number | null>)[] };
  };
  // The same frames counted as the panel's note says (the ignored frame has no mask; the metadata lists it).
  expect(report.summary.coverage).toMatchObject({ clips: 1, frames: 6, evaluated_frames: 5, ignored_frames: 1, missing_predictions: 1 });
  const fmt = (v: number | null) => (v === null ? '' : v.toFixed(3));
  for (const r of report.summary.table) {
    const row = r.row === 'verb' ? `verb:${r.verb}` : r.row;
    expect(await shown(row), row).toEqual({
      clips: String(r.clips),
      mIoU: fmt(r.mIoU), mIoU_act: fmt(r.mIoU_act), mIoU_trf: fmt(r.mIoU_trf), wo_osc: fmt(r.wo_osc),
      seen: fmt(r.seen), novel: fmt(r.novel), transition: fmt(r.transition),
    });
  }
  expect(report.summary.table.map((r) => r.row)).toEqual(['mean_over_verbs', 'mean_over_clips', 'verb']);
  const mean = await shown('mean_over_verbs');
  expect(Number(mean.mIoU)).toBeGreaterThan(0);
  expect(Number(mean.mIoU)).toBeLessThan(1);

  // COCO out: every annotation decodes to the stored mask of its frame and state.
  const cocoFile = info.outputPath('gt-coco.json');
  await exportAs(page, 'COCO JSON with RLE', 'gt', cocoFile);
  const coco = JSON.parse(fs.readFileSync(cocoFile, 'utf8')) as {
    images: { id: number; file_name: string; frame_index?: number }[];
    categories: { id: number; name: string }[];
    annotations: { image_id: number; category_id: number; segmentation: unknown }[];
  };
  const label = new Map(coco.categories.map((k) => [k.id, k.name === 'actionable' ? 1 : k.name === 'transformed' ? 2 : -1]));
  const frameOfImage = new Map(coco.images.map((im) => [im.id, frameNames.indexOf(path.basename(im.file_name).replace(/\.[a-z]+$/i, ''))]));
  expect([...frameOfImage.values()].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  const fromCoco = Array.from({ length: FRAMES }, () => createLabelMap(W, H));
  for (const a of coco.annotations) {
    const bits = decodeRle(parseCocoRle(a.segmentation));
    const m = fromCoco[frameOfImage.get(a.image_id)!];
    for (let i = 0; i < bits.length; i++) if (bits[i]) m.data[i] = label.get(a.category_id)!;
  }
  for (let k = 0; k < FRAMES; k++) expect(Buffer.from(fromCoco[k].data).equals(Buffer.from(mapOf(approved.get(k)).data)), `COCO frame ${k + 1}`).toBe(true);
  // And the WhereToChange PNGs too.
  for (const name of maskNames) {
    const k = frameNames.indexOf(path.basename(name, '.png'));
    const png = decodeIndexedPng(new Uint8Array(fs.readFileSync(path.join(gtDir, name))), { fileName: name });
    expect(Buffer.from(png.data).equals(Buffer.from(mapOf(approved.get(k)).data)), name).toBe(true);
  }
});

/** "Export annotations as…" on the project page: a zip is unpacked into `out`, a JSON saved as `out`. */
async function exportAs(page: Page, format: string, source: string, out: string): Promise<string[]> {
  await page.getByLabel('Export format').selectOption({ label: format });
  await page.getByLabel('Export source').selectOption(source);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const file = `${out}.download`;
  await (await download).saveAs(file);
  if (!format.includes('(zip)')) {
    fs.renameSync(file, out);
    return [out];
  }
  const entries = unzipSync(new Uint8Array(fs.readFileSync(file)));
  for (const [name, bytes] of Object.entries(entries)) {
    if (name.endsWith('/')) continue;
    fs.mkdirSync(path.dirname(path.join(out, name)), { recursive: true });
    fs.writeFileSync(path.join(out, name), bytes);
  }
  return Object.keys(entries);
}
