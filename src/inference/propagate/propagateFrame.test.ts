/**
 * Propagation on the tiny SAM through the real dispatcher and onnxruntime-web (in process). The
 * tiny decoder draws a disc of radius 48 (1024 frame) around the mean of the positive points and
 * box corners when given more than one prompt point (the official selection rule then keeps mask
 * 0); on a 640x360 frame that is a disc of radius 30 px. The expected maps are rasterised here
 * from the prompts, independently of the decoder and its post-processing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLabelMap, type LabelMap } from '../../masks/labelMap';
import { TINY_SAM_IOU } from '../onnx/tiny/samOfficial';
import type { InferenceClient } from '../runtime/inferenceClient';
import { discStats, inProcessClient, solidImage, tinyFiles } from '../../testing/inference';
import { propagateForward } from './forward';
import { propagateFrame, type FlowPropagationBackend, type PropagationSource } from './propagateFrame';
import type { TrackBackend } from './track';
import { regionPrompt } from './prompts';
import { stateRegions } from './regions';

const W = 640;
const H = 360;
const R = 48 / 1.6;

let client: InferenceClient | undefined;
afterEach(() => client?.destroy());

function rect(map: LabelMap, x: number, y: number, w: number, h: number, label: number): LabelMap {
  for (let j = y; j < y + h; j++) for (let i = x; i < x + w; i++) map.data[j * map.width + i] = label;
  return map;
}

/** The disc the tiny decoder should give for a prompt: centre = mean of points and box corners. */
function expectedDisc(prompt: ReturnType<typeof regionPrompt>, label: number, into: LabelMap): { cx: number; cy: number } {
  const xs = [...prompt.points.map((p) => p.x), prompt.box!.x0, prompt.box!.x1];
  const ys = [...prompt.points.map((p) => p.y), prompt.box!.y0, prompt.box!.y1];
  const cx = xs.reduce((a, b) => a + b) / xs.length;
  const cy = ys.reduce((a, b) => a + b) / ys.length;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 < R * R) into.data[y * W + x] = label;
  return { cx, cy };
}

function source(): PropagationSource {
  return { getImage: async () => solidImage(W, H, [90, 120, 60]), frameKey: (k) => `clip/${k}` };
}

async function samEngine() {
  client = inProcessClient();
  const files = tinyFiles();
  await client.load({ modelId: 'sam', family: 'sam-official', files: { encoder: { bytes: files['sam_encoder.onnx'].slice() }, decoder: { bytes: files['sam_decoder.onnx'].slice() } } });
  return { kind: 'sam' as const, backend: client, modelId: 'sam' };
}

describe('propagateFrame with the tiny SAM (real dispatcher, real ORT)', () => {
  it('prompts each region on the next frame, keeps its state, and combines the discs', async () => {
    const engine = await samEngine();
    const prev = rect(rect(createLabelMap(W, H), 100, 80, 90, 60, 1), 400, 200, 50, 120, 2);
    const result = await propagateFrame(engine, source(), { from: 3, previous: prev });
    expect(result).toMatchObject({ from: 3, to: 4, method: 'sam', redetected: false });

    const expected = createLabelMap(W, H);
    for (const region of stateRegions(prev)) expectedDisc(regionPrompt(region.mask), region.label, expected);
    let differ = 0;
    for (let i = 0; i < W * H; i++) if (result.map.data[i] !== expected.data[i]) differ++;
    const discArea = Math.PI * R * R;
    // Rasterising a bilinearly up-sampled disc moves a few edge pixels, far fewer than 2 % of its area.
    expect(differ).toBeLessThan(2 * discArea * 0.02);
    for (const label of [1, 2]) {
      const mask = result.map.data.map((v) => (v === label ? 1 : 0));
      expect(Math.abs(discStats(mask, W).area - discArea)).toBeLessThan(discArea * 0.02);
    }

    // Confidence: per region the mean of SAM's IoU (tiny: 0.99 +- 0.01) and the shape agreement.
    expect(result.regions.map((r) => r.label)).toEqual([2, 1]); // largest first: 6000 px, then 5400 px
    for (const r of result.regions) {
      expect(Math.abs(r.quality - TINY_SAM_IOU[0])).toBeLessThanOrEqual(0.01);
      expect(r.confidence).toBeCloseTo((r.quality + r.shape) / 2, 10);
      expect(r.shape).toBeGreaterThan(0);
      expect(r.shape).toBeLessThanOrEqual(Math.min(r.area, r.previousArea) / Math.max(r.area, r.previousArea) + 1e-9);
    }
    const [a, b] = result.regions;
    expect(result.confidence).toBeCloseTo((a.previousArea * a.confidence + b.previousArea * b.confidence) / (a.previousArea + b.previousArea), 10);
  });

  it('hands an instance tag on to its region\'s disc: the new seed is the disc centre, in the same state', async () => {
    const engine = await samEngine();
    const prev = rect(rect(createLabelMap(W, H), 100, 80, 90, 60, 1), 400, 200, 50, 120, 2);
    const result = await propagateFrame(engine, source(), { from: 0, previous: prev, tags: [{ id: 7, x: 420, y: 250 }, { id: 9, x: 5, y: 5 }] });
    // Tag 9's seed lies on background (stale): not carried. Tag 7 moves to its disc's deepest pixel.
    expect(result.tags.map((t) => t.id)).toEqual([7]);
    const [region] = stateRegions(prev).filter((r) => r.label === 2);
    const { cx, cy } = expectedDisc(regionPrompt(region.mask), 2, createLabelMap(W, H));
    const [tag] = result.tags;
    expect(result.map.data[tag.y * W + tag.x]).toBe(2);
    expect(Math.hypot(tag.x + 0.5 - cx, tag.y + 0.5 - cy)).toBeLessThanOrEqual(1.5);
  });

  it.each([
    ['the batched grid decode (every candidate)', true, [48, 24, 64, 128]],
    ['one decode per point (its best mask, mask 2)', false, [64]],
  ] as const)('re-detection re-prompts from the SAM grid proposal overlapping the region best: %s', async (_name, batched, radii) => {
    const full = await samEngine();
    const engine = batched ? full : { ...full, backend: { samEncode: full.backend.samEncode.bind(full.backend), samDecode: full.backend.samDecode.bind(full.backend) } };
    // A region off the grid's points: plain propagation centres on it, re-detection on a grid disc.
    const prev = rect(createLabelMap(W, H), 265, 150, 30, 30, 1);
    const plain = await propagateFrame(engine, source(), { from: 0, previous: prev });
    const re = await propagateFrame(engine, source(), { from: 0, previous: prev, redetect: true, gridSize: 4 });
    expect(re.redetected).toBe(true);
    expect(re.regions[0].redetected).toBe(true);
    const centre = (m: LabelMap) => discStats(m.data.map((v) => (v === 1 ? 1 : 0)), W);
    const p = centre(plain.map);
    expect(Math.hypot(p.cx - 280, p.cy - 165)).toBeLessThan(5);
    // Grid points sit at ((i + .5) * 160, (j + .5) * 90); the batched grid decode returns every
    // candidate of each one-click prompt: discs of radius 48, 24, 64, 128 (/ 1.6) around the point.
    // The region's best-IoU disc gives the new prompt.
    const discAt = (gx: number, gy: number, r: number) => {
      const m = createLabelMap(W, H);
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if ((x + 0.5 - gx) ** 2 + (y + 0.5 - gy) ** 2 < r * r) m.data[y * W + x] = 1;
      return m;
    };
    const iou = (a: LabelMap, b: LabelMap) => {
      let i = 0;
      let u = 0;
      for (let k = 0; k < a.data.length; k++) {
        if (a.data[k] && b.data[k]) i++;
        if (a.data[k] || b.data[k]) u++;
      }
      return i / u;
    };
    const grid = Array.from({ length: 16 }, (_, k) => radii.map((r) => discAt(((k % 4) + 0.5) * 160, (Math.floor(k / 4) + 0.5) * 90, r / 1.6))).flat();
    const proposal = grid.reduce((best, g) => (iou(g, prev) > iou(best, prev) ? g : best));
    const want = expectedDisc(regionPrompt(stateRegions(proposal)[0].mask), 1, createLabelMap(W, H));
    const c = centre(re.map);
    expect(Math.hypot(c.cx - want.cx, c.cy - want.cy)).toBeLessThan(1.5);
    expect(Math.hypot(c.cx - p.cx, c.cy - p.cy)).toBeGreaterThan(20);
  });

  it('an empty frame has nothing to propagate; cancelling rejects with AbortError', async () => {
    const engine = await samEngine();
    const empty = await propagateFrame(engine, source(), { from: 0, previous: createLabelMap(W, H) });
    expect(empty.confidence).toBeNull();
    expect(empty.map.data.every((v) => v === 0)).toBe(true);
    const abort = new AbortController();
    abort.abort();
    await expect(propagateFrame(engine, source(), { from: 0, previous: rect(createLabelMap(W, H), 0, 0, 20, 20, 1), signal: abort.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('propagateForward over the tiny SAM', () => {
  it('chains three frames, each from the map written before, re-detecting on schedule', async () => {
    const engine = await samEngine();
    const stored = new Map<number, LabelMap>([[0, rect(createLabelMap(W, H), 300, 100, 80, 50, 2)]]);
    const report = await propagateForward(
      { start: 0, count: 3, frameCount: 10, threshold: 0, redetectEvery: 3, redetectBelow: 0 },
      {
        step: (from, previous, redetect) => propagateFrame(engine, source(), { from, previous, redetect, gridSize: 4 }),
        loadMap: async (k) => stored.get(k) ?? createLabelMap(W, H),
        write: async (r) => {
          stored.set(r.to, r.map);
          return r.map;
        },
      },
    );
    expect(report.stop).toBe('done');
    expect(report.written.map((r) => [r.to, r.redetected])).toEqual([[1, false], [2, false], [3, true]]);
    // Frame 2 is frame 1's disc prompted again: a disc's prompt is (nearly) centred, so it stays put.
    const c1 = discStats(stored.get(1)!.data.map((v) => (v === 2 ? 1 : 0)), W);
    const c2 = discStats(stored.get(2)!.data.map((v) => (v === 2 ? 1 : 0)), W);
    const want = expectedDisc(regionPrompt(stateRegions(stored.get(1)!)[0].mask), 2, createLabelMap(W, H));
    expect(Math.hypot(c2.cx - want.cx, c2.cy - want.cy)).toBeLessThan(1);
    expect(Math.abs(c2.area - c1.area)).toBeLessThan(c1.area * 0.02);
    for (const k of [1, 2, 3]) expect(stored.get(k)!.data.some((v) => v === 1)).toBe(false); // the state is kept
  });
});

describe('propagateFrame with the optical-flow fallback', () => {
  // A stand-in for the classical client: shifts every label 10 px right and reports 0.8.
  const shiftFlow: FlowPropagationBackend = {
    propagateByFlow: async (_prev, _next, labels) => {
      const out = createLabelMap(labels.width, labels.height);
      for (let y = 0; y < labels.height; y++) for (let x = 10; x < labels.width; x++) out.data[y * labels.width + x] = labels.data[y * labels.width + x - 10];
      return { map: out, confidence: 0.8 };
    },
  };

  it('takes the warped map, labels the method, and scores each region against its successor', async () => {
    const prev = rect(rect(createLabelMap(W, H), 100, 80, 40, 40, 1), 300, 80, 40, 40, 2);
    prev.data[0] = 1; // a speck: not carried
    const r = await propagateFrame({ kind: 'flow', backend: shiftFlow }, source(), { from: 0, previous: prev });
    expect(r.method).toBe('flow');
    expect(r.map.data[80 * W + 110]).toBe(1);
    expect(r.map.data[80 * W + 310]).toBe(2);
    expect(r.map.data[10]).toBe(0);
    expect(r.regions.map((g) => [g.label, g.shape, g.confidence])).toEqual([[1, 1, 0.9], [2, 1, 0.9]]);
    expect(r.confidence).toBeCloseTo(0.9, 10);
  });

  it('cancel answers at once even while the flow backend has not', async () => {
    const never: FlowPropagationBackend = { propagateByFlow: () => new Promise(() => undefined) };
    const abort = new AbortController();
    const run = propagateFrame({ kind: 'flow', backend: never }, source(), { from: 0, previous: rect(createLabelMap(W, H), 10, 10, 20, 20, 1), signal: abort.signal });
    setTimeout(() => abort.abort(), 10);
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('weight-free tracking carries the chain depth', () => {
  // A stand-in for the classical client: every object moves 10 px right, matched exactly, and the
  // re-fit keeps the carried mask — the raw score is 1 at every step, so only the chain differs.
  const exact: FlowPropagationBackend & TrackBackend = {
    propagateByFlow: async () => {
      throw new Error('tracking is used when the backend has it');
    },
    estimateShifts: async (_a, _b, queries) => queries.map(() => ({ dx: 10, dy: 0, rms: 0, ambiguity: 0, work: 0 })),
    refitLabels: async (_image, carried) => ({ map: carried, groups: [] }),
  };
  const engine = { kind: 'flow' as const, backend: exact };
  const previous = () => rect(createLabelMap(W, H), 100, 80, 40, 40, 1);

  it('a frame is one step deeper than the frame it came from, and the same evidence claims less deeper down a chain', async () => {
    const fromPerson = await propagateFrame(engine, source(), { from: 0, previous: previous() });
    expect(fromPerson.depth).toBe(1);
    expect(fromPerson.trackScore).toBe(1);
    const deep = await propagateFrame(engine, source(), { from: 3, previous: previous(), previousConfidence: 1, previousDepth: 3 });
    expect(deep.depth).toBe(4);
    expect(deep.trackScore).toBe(1);
    expect(deep.confidence!).toBeLessThan(fromPerson.confidence! - 0.05);
    // A propagated frame whose depth was not kept (only its confidence) counts as one step deep.
    const unknown = await propagateFrame(engine, source(), { from: 1, previous: previous(), previousConfidence: 0.99 });
    expect(unknown.depth).toBe(2);
    const known = await propagateFrame(engine, source(), { from: 1, previous: previous(), previousConfidence: 0.99, previousDepth: 1 });
    expect(unknown.confidence).toBe(known.confidence);
  });
});
