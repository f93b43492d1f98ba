/**
 * The pre-label pipeline on the tiny models with the real onnxruntime-web (in-process dispatcher).
 *
 * Known answers: the tiny SAM decoder draws discs of radius 48/24/64/128 (1024-frame px) around the
 * click, i.e. 6/3/8/16 px in a 128x96 frame; the 3 px disc (28 px) falls under the 50 px minimum
 * area, so every grid point keeps 3 nested discs (mask IoU 0.56 / 0.25: no NMS). The tiny CLIP
 * scores a crop by its mean colour, and "red"/"green" map onto the red/green axes, so with prompts
 * "red apple" / "green apple" a red disc is actionable, a green disc transformed and a blue disc
 * background (both cosines ~0.17, sum < tau 0.5). A 4x4 grid puts points at x = 16, 48, 80, 112,
 * y = 12, 36, 60, 84: with the left half (x < 64) one colour, the right half another and y >= 72
 * blue, no disc of the top three rows crosses the x = 64 boundary.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RgbaImage } from '../../masks/labelMap';
import { decodeLayer, parseLayer } from '../../masks/layers';
import type { SpocDb } from '../../store/db';
import { commitClipImport } from '../../store/importCommit';
import { layerAreas, listLayers } from '../../store/layers';
import { createProject } from '../../store/projects';
import { clipDraft, freshDb, importDraft, rleWithArea, snapshot } from '../../testing/storeFixtures';
import type { Clip } from '../../store/types';
import type { InferenceClient } from '../runtime/inferenceClient';
import { inProcessClient, tinyFiles } from '../../testing/inference';
import { prelabelClip, type PrelabelFrame, type PrelabelOptions } from './prelabelClip';

const W = 128;
const H = 96;
const RED = [255, 0, 0] as const;
const GREEN = [0, 255, 0] as const;
const BLUE = [0, 0, 255] as const;
const bytes = (path: string) => ({ bytes: tinyFiles()[path].slice() });

type Rgb = readonly [number, number, number];
/** Left half `left`, right half `right`, rows y >= 72 blue. */
function frame(left: Rgb, right: Rgb): RgbaImage {
  const data = new Uint8ClampedArray(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const c = y >= 72 ? BLUE : x < 64 ? left : right;
      data.set([c[0], c[1], c[2], 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

const base: PrelabelOptions = { models: { sam: 'sam', clip: 'clip' }, prompts: { actionable: 'red apple', transformed: 'green apple' }, gridSize: 4 };

let client: InferenceClient;
beforeAll(async () => {
  client = inProcessClient();
  await client.init();
  await client.load({ modelId: 'sam', family: 'sam-official', files: { encoder: bytes('sam_encoder.onnx'), decoder: bytes('sam_decoder.onnx') } });
  await client.load({ modelId: 'clip', family: 'clip', files: { vision: bytes('clip_vision.onnx'), text: bytes('clip_text.onnx'), tokenizer: bytes('clip_tokenizer.json') } });
});
afterAll(() => client.destroy());

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  const gt = { frameIndex: 0, source: 'gt' as const, act: rleWithArea(H, W, 300), trf: rleWithArea(H, W, 0), provenance: { kind: 'imported' as const, by: 't', at: 1 } };
  clip = await commitClipImport(db, importDraft(p.id, 2, { clip: clipDraft(p.id, { frameCount: 2, width: W, height: H }), layers: [gt] }));
});
afterEach(() => db.close());

function labelsAt(map: { data: Uint8Array }, pred: (x: number, y: number) => boolean): Set<number> {
  const s = new Set<number>();
  for (let i = 0; i < W * H; i++) if (pred(i % W, Math.floor(i / W))) s.add(map.data[i]);
  return s;
}

describe('prelabelClip (real ORT, tiny models)', () => {
  it('labels red discs actionable, green transformed, blue background (Eq. 1), and tracks them', async () => {
    const progress: [number, number | null, number | null][] = [];
    const frames: PrelabelFrame[] = [
      { index: 0, image: frame(RED, GREEN) },
      { index: 1, image: frame(RED, GREEN) },
    ];
    const within: [number, number][] = [];
    const r = await prelabelClip(client, frames, { ...base, onProgress: (d, t, e) => progress.push([d, t, e]), onFrameProgress: (k, f) => within.push([k, f]) });
    // Per-point progress inside each frame: 16 grid points, 1/16 .. 16/16, frame 0 then frame 1.
    expect(within).toEqual([0, 1].flatMap((k) => Array.from({ length: 16 }, (_, i) => [k, (i + 1) / 16])));
    expect(progress.map(([d, t]) => [d, t])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(progress[0][2]).toBeGreaterThan(0);
    expect(progress[1][2]).toBe(0);
    for (const f of r.frames) {
      expect(f.candidates).toBe(16 * 4); // 4 SAM masks per grid point
      expect(f.kept).toBe(16 * 3); // minus the 28 px disc; nested discs survive NMS
    }
    for (const rec of r.records) {
      const expected = rec.point.y > 72 ? 'background' : rec.point.x < 64 ? 'actionable' : 'transformed';
      expect(rec.eq1, `frame ${rec.frame} point ${rec.point.x},${rec.point.y} area ${rec.mask.area}`).toBe(expected);
      expect(rec.final).toBe(expected);
      if (expected === 'actionable') expect(rec.sAct - rec.sTrf).toBeGreaterThan(0.5);
      if (expected === 'background') expect(rec.sAct + rec.sTrf).toBeLessThan(0.5);
    }
    // Every frame-0 proposal continues into frame 1 (identical discs): 48 tracks of 2.
    expect(r.tracks).toBe(48);
    const t0 = r.records.filter((x) => x.frame === 0).map((x) => x.trackId);
    const t1 = r.records.filter((x) => x.frame === 1).map((x) => x.trackId);
    expect(t1).toEqual(t0);
    for (const f of r.frames) {
      const map = decodeLayer(f.layer);
      expect(labelsAt(map, (x) => x < 64)).not.toContain(2);
      expect(labelsAt(map, (x) => x >= 64)).not.toContain(1);
      expect(labelsAt(map, (_, y) => y >= 77)).toEqual(new Set([0])); // blue discs are background
      expect(map.data[12 * W + 16]).toBe(1);
      expect(map.data[12 * W + 112]).toBe(2);
      expect(map.data[36 * W + 48]).toBe(1);
      expect(map.data[60 * W + 80]).toBe(2);
    }
    expect(r.written).toBeNull();
    for (const f of r.frames) expect(f.samMs + f.clipMs).toBeLessThanOrEqual(f.ms);
    if (process.env.PRELABEL_TIMINGS) console.log(r.frames.map((f) => ({ ms: f.ms.toFixed(0), sam: f.samMs.toFixed(0), clip: f.clipMs.toFixed(0), own: (f.ms - f.samMs - f.clipMs).toFixed(1) })));
  });

  it('flips a reversed track with the dynamics constraints (transformed then actionable)', async () => {
    const frames = [
      { index: 0, image: frame(GREEN, GREEN) },
      { index: 1, image: frame(RED, GREEN) },
    ];
    const r = await prelabelClip(client, frames, base);
    const left = r.records.filter((x) => x.point.x < 64 && x.point.y < 72);
    expect(left).toHaveLength(2 * 6 * 3);
    for (const rec of left) {
      // T = {0}, A = {1}: a tie, so min(T) flips: frame 0 becomes actionable.
      expect(rec.eq1).toBe(rec.frame === 0 ? 'transformed' : 'actionable');
      expect(rec.final).toBe('actionable');
      expect(rec.changedBy).toBe(rec.frame === 0 ? 'causal' : null);
    }
    const map0 = decodeLayer(r.frames[0].layer);
    expect(map0.data[36 * W + 48]).toBe(1);
    expect(map0.data[36 * W + 80]).toBe(2);
  });

  it('NMS removes near-duplicate proposals; the area filter drops small ones', async () => {
    const points = () => [
      { x: 40, y: 40 },
      { x: 40.2, y: 40 }, // the same discs shifted by 0.2 px: IoU > 0.9
    ];
    const r = await prelabelClip(client, [{ index: 0, image: frame(RED, GREEN) }], { ...base, points });
    expect(r.frames[0].candidates).toBe(8);
    expect(r.frames[0].kept).toBe(3);
    expect(new Set(r.records.map((x) => x.mask.area)).size).toBe(3);
    const all = await prelabelClip(client, [{ index: 0, image: frame(RED, GREEN) }], { ...base, points, minArea: 0, nmsIou: 1 });
    expect(all.frames[0].kept).toBe(8);
  });

  it('writes the proposal layer set in one go, replacing an earlier one, and never touches gt', async () => {
    const gtBefore = await listLayers(db, clip.id, 'gt');
    const frames = () => (async function* () {
      yield { index: 0, image: frame(RED, GREEN) };
      yield { index: 1, image: frame(GREEN, GREEN) };
    })();
    const r = await prelabelClip(client, frames(), { ...base, frameCount: 2, store: { db, clipId: clip.id } });
    expect(r.written).toEqual({ written: 2, replaced: 0 });
    const stored = await listLayers(db, clip.id, 'proposal');
    expect(stored.map((l) => l.frameIndex)).toEqual([0, 1]);
    expect(stored[0].provenance.kind).toBe('proposal');
    stored.forEach((l, i) => {
      expect(decodeLayer(parseLayer({ act: l.act, trf: l.trf })).data).toEqual(decodeLayer(r.frames[i].layer).data);
    });
    const areas = await layerAreas(db, clip.id, 'proposal');
    expect(areas[0].actArea).toBeGreaterThan(0);
    expect(areas[0].trfArea).toBeGreaterThan(0);
    expect(await listLayers(db, clip.id, 'gt')).toEqual(gtBefore);
    const again = await prelabelClip(client, frames(), { ...base, store: { db, clipId: clip.id } });
    expect(again.written).toEqual({ written: 2, replaced: 2 });
    expect(await listLayers(db, clip.id, 'gt')).toEqual(gtBefore);
  });

  it('cancelling mid-way rejects with AbortError and writes nothing', async () => {
    const before = await snapshot(db);
    const ac = new AbortController();
    const frames = [
      { index: 0, image: frame(RED, GREEN) },
      { index: 1, image: frame(RED, GREEN) },
    ];
    const p = prelabelClip(client, frames, { ...base, signal: ac.signal, store: { db, clipId: clip.id }, onProgress: (done) => done === 1 && ac.abort() });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(await snapshot(db)).toEqual(before);
    // Aborting while the batched SAM decode of frame 0 is in flight (after its 5th point) rejects too.
    const ac2 = new AbortController();
    let decodes = 0;
    const spy = Object.create(client) as InferenceClient;
    spy.samDecodeGrid = (params, options) =>
      client.samDecodeGrid(params, {
        ...options,
        onProgress: (pr) => {
          decodes = pr.loaded ?? 0;
          if (decodes === 5) ac2.abort();
        },
      });
    const p2 = prelabelClip(spy, frames, { ...base, signal: ac2.signal, store: { db, clipId: clip.id } });
    await expect(p2).rejects.toMatchObject({ name: 'AbortError' });
    expect(decodes).toBe(5);
    expect(await snapshot(db)).toEqual(before);
    // The client still works afterwards.
    const ok = await prelabelClip(client, [frames[0]], { ...base, gridSize: 1 });
    expect(ok.frames).toHaveLength(1);
  });
});
