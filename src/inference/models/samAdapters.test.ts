/**
 * SAM adapters end to end on the tiny models with the real onnxruntime-web: frame -> encoder ->
 * prompt transform -> decoder -> masks in frame coordinates.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RgbaImage } from '../../masks/labelMap';
import { TINY_SAM_RADII } from '../onnx/tiny/samOfficial';
import { TINY_TJS_RADII } from '../onnx/tiny/samTransformersJs';
import { discStats, openTiny, solidImage } from '../../testing/inference';
import { createSamOfficialAdapter } from './samOfficial';
import { createSamTransformersJsAdapter } from './samTransformersJs';
import type { SamAdapter, SamEmbedding } from './samTypes';

const W = 640;
const H = 360;
const SCALE = 1024 / W; // 1.6

let frame: RgbaImage;
beforeAll(() => {
  frame = solidImage(W, H, [90, 160, 40]);
});

describe('samOfficial adapter', () => {
  let sam: SamAdapter;
  let emb: SamEmbedding;
  beforeAll(async () => {
    sam = createSamOfficialAdapter(await openTiny('sam_encoder.onnx'), await openTiny('sam_decoder.onnx'));
    emb = (await sam.encode(frame)).embedding;
  });

  it('encodes a frame once into a reusable embedding', () => {
    expect(emb.geometry).toEqual({ width: W, height: H, resizedWidth: 1024, resizedHeight: 576 });
    expect(emb.tensors.image_embeddings.dims).toEqual([1, 256, 64, 64]);
    expect(emb.bytes).toBe(256 * 64 * 64 * 4);
  });

  for (const [x, y] of [
    [200.5, 100.5],
    [320, 180],
    [77.5, 301.5],
  ]) {
    it(`a click at (${x}, ${y}) gives a disc centred there, best of masks 1..3`, async () => {
      const r = await sam.decode(emb, { points: [{ x, y, positive: true }] });
      expect(r.width).toBe(W);
      expect(r.height).toBe(H);
      const best = r.candidates[0];
      expect(best.index).toBe(2); // highest predicted IoU among 1..3, although mask 0 scores higher
      expect(best.mask.data.length).toBe(W * H);
      const s = discStats(best.mask.data, W);
      expect(Math.abs(s.cx - x)).toBeLessThanOrEqual(1);
      expect(Math.abs(s.cy - y)).toBeLessThanOrEqual(1);
      expect(Math.abs(s.radius - TINY_SAM_RADII[2] / SCALE)).toBeLessThan(1);
      expect(best.mask.area).toBe(s.area);
      // The alternatives follow by predicted IoU: 0 (0.99), 3 (0.7), 1 (0.6).
      expect(r.candidates.map((c) => c.index)).toEqual([2, 0, 3, 1]);
      expect(best.lowRes?.length).toBe(256 * 256);
    });
  }

  it('several clicks use the single-mask output 0 at the positive centroid; negatives do not move it', async () => {
    const r = await sam.decode(emb, {
      points: [
        { x: 100, y: 100, positive: true },
        { x: 200, y: 160, positive: true },
        { x: 600, y: 20, positive: false },
      ],
    });
    expect(r.candidates[0].index).toBe(0);
    const s = discStats(r.candidates[0].mask.data, W);
    expect(Math.abs(s.cx - 150)).toBeLessThanOrEqual(1);
    expect(Math.abs(s.cy - 130)).toBeLessThanOrEqual(1);
    expect(Math.abs(s.radius - TINY_SAM_RADII[0] / SCALE)).toBeLessThan(1);
  });

  it('a box prompt gives a disc at the box centre (a lone box is ambiguous: best of 1..3)', async () => {
    const r = await sam.decode(emb, { points: [], box: { x0: 400, y0: 200, x1: 300, y1: 100 } });
    expect(r.candidates[0].index).toBe(2);
    const s = discStats(r.candidates[0].mask.data, W);
    expect(Math.abs(s.cx - 350)).toBeLessThanOrEqual(1);
    expect(Math.abs(s.cy - 150)).toBeLessThanOrEqual(1);
  });

  it('refines with mask_input from the previous low-res mask', async () => {
    const first = await sam.decode(emb, { points: [{ x: 320, y: 180, positive: true }] });
    const again = await sam.decode(emb, { points: [{ x: 320, y: 180, positive: true }], maskInput: first.candidates[0].lowRes! });
    expect(again.usedMaskInput).toBe(true);
    // The tiny decoder adds mask_input to its logits: mask 1 (r = 24) grows towards mask 2 (r = 64).
    const m1 = again.candidates.find((c) => c.index === 1)!;
    const plain = first.candidates.find((c) => c.index === 1)!;
    expect(m1.mask.area).toBeGreaterThan(plain.mask.area);
  });

  it("candidates: 'best' binarises only the pick", async () => {
    const r = await sam.decode(emb, { points: [{ x: 320, y: 180, positive: true }] }, { candidates: 'best' });
    expect(r.candidates).toHaveLength(1);
    expect(r.timings.modelMs).toBeGreaterThan(0);
  });

  it('clips a disc at the frame border instead of wrapping', async () => {
    const r = await sam.decode(emb, { points: [{ x: 2, y: 2, positive: true }] });
    const m = r.candidates[0].mask;
    expect(m.bbox).toMatchObject({ x: 0, y: 0 });
    expect(m.data[(H - 1) * W + (W - 1)]).toBe(0);
  });
});

describe('samTransformersJs adapter', () => {
  let sam: SamAdapter;
  let emb: SamEmbedding;
  beforeAll(async () => {
    sam = createSamTransformersJsAdapter(await openTiny('tjs_vision_encoder.onnx'), await openTiny('tjs_prompt_encoder_mask_decoder.onnx'));
    emb = (await sam.encode(frame)).embedding;
  });

  it('keeps both embedding tensors and post-processes 256x256 masks to the frame', async () => {
    expect(Object.keys(emb.tensors).sort()).toEqual(['image_embeddings', 'image_positional_embeddings']);
    const r = await sam.decode(emb, { points: [{ x: 200.5, y: 100.5, positive: true }] });
    expect(r.candidates.map((c) => c.index)).toEqual([1, 2, 0]);
    const s = discStats(r.candidates[0].mask.data, W);
    expect(Math.abs(s.cx - 200.5)).toBeLessThanOrEqual(1);
    expect(Math.abs(s.cy - 100.5)).toBeLessThanOrEqual(1);
    expect(Math.abs(s.radius - TINY_TJS_RADII[1] / SCALE)).toBeLessThan(1);
    expect(r.candidates[0].lowRes).toBeNull();
  });

  it('says it cannot refine or take boxes with this export', async () => {
    expect(sam.supportsMaskInput).toBe(false);
    expect(sam.supportsBox).toBe(false);
    const r = await sam.decode(emb, { points: [{ x: 10, y: 10, positive: true }], maskInput: new Float32Array(256 * 256) });
    expect(r.usedMaskInput).toBe(false);
    await expect(sam.decode(emb, { points: [], box: { x0: 0, y0: 0, x1: 10, y1: 10 } })).rejects.toThrow(/no input_boxes/);
  });
});
