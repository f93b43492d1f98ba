import { describe, expect, it } from 'vitest';
import { f32 } from '../tensor';
import { openTiny } from '../../testing/inference';
import { samGeometry } from './samGeometry';
import { argmax, binarize, linearAxis, lowResMask, lowResToFrame, selectOfficialMask, supportWindow } from './samPostprocess';

describe('selectOfficialMask (SamOnnxModel.select_masks)', () => {
  const iou = [0.99, 0.6, 0.95, 0.7];
  it('one click (+ padding point) or a lone box: best of masks 1..3', () => {
    expect(selectOfficialMask(iou, 2)).toBe(2);
  });
  it('three or more decoder points: mask 0', () => {
    expect(selectOfficialMask(iou, 3)).toBe(0);
  });
  it('a single-mask export always gives 0; ties keep the lower index', () => {
    expect(selectOfficialMask([0.3], 2)).toBe(0);
    expect(selectOfficialMask([0, 0.5, 0.5, 0.5], 2)).toBe(1);
    expect(argmax([1, 3, 3])).toBe(1);
  });
});

describe('binarize', () => {
  it('thresholds at > 0 and reports area and tight box', () => {
    const logits = Float32Array.from([0, 1, -1, 0, 0, 0.5, 2, 0, 0, 0, 0, 0]);
    const m = binarize(logits, 0, 4, 3);
    expect([...m.data]).toEqual([0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0]);
    expect(m.area).toBe(3);
    expect(m.bbox).toEqual({ x: 1, y: 0, w: 2, h: 2 });
    expect(binarize(new Float32Array(4), 0, 2, 2).bbox).toBeNull();
  });
});

describe('linearAxis (align_corners=False)', () => {
  it('matches PyTorch on a 2 -> 4 up-sampling', () => {
    // F.interpolate(torch.tensor([[[[0., 1.]]]]), size=(1, 4), mode='bilinear', align_corners=False)
    // = [0, 0.25, 0.75, 1]
    const src = [0, 1];
    const a = linearAxis(2, 4);
    const out = [0, 1, 2, 3].map((o) => src[a.i0[o]] + (src[a.i1[o]] - src[a.i0[o]]) * a.t[o]);
    expect(out).toEqual([0, 0.25, 0.75, 1]);
  });
});

describe('windowed post-processing', () => {
  it('binarize with a window reads only inside it; null means empty', () => {
    const logits = Float32Array.from([1, 1, 1, 1]);
    expect(binarize(logits, 0, 2, 2, 0, { x: 1, y: 0, w: 1, h: 2 }).area).toBe(2);
    expect(binarize(logits, 0, 2, 2, 0, null).area).toBe(0);
  });

  it('lowResMask equals thresholding the full up-sampled frame, for discs anywhere (also on borders)', () => {
    const low = new Float32Array(256 * 256);
    const cases: [number, number, number, number, number][] = [
      // frame w, h, disc centre cx, cy (low-res cells), radius (cells)
      [1920, 1080, 100, 60, 12],
      [640, 360, 0, 0, 5],
      [360, 640, 140, 255, 9],
      [333, 1000, 80, 200, 0.7],
      [1000, 333, 255, 84, 3],
    ];
    for (const [w, h, cx, cy, r] of cases) {
      for (let y = 0; y < 256; y++) for (let x = 0; x < 256; x++) low[y * 256 + x] = r * r - ((x - cx) ** 2 + (y - cy) ** 2);
      const g = samGeometry(w, h);
      const full = binarize(lowResToFrame(low, 0, g), 0, w, h);
      const fast = lowResMask(low, 0, g);
      expect(fast.area, `${w}x${h}`).toBe(full.area);
      expect(fast.bbox).toEqual(full.bbox);
      expect(fast.data).toEqual(full.data);
      const win = supportWindow(low, 0, g)!;
      expect(win.w * win.h).toBeLessThan(w * h);
    }
    low.fill(-1);
    expect(supportWindow(low, 0, samGeometry(64, 64))).toBeNull();
    expect(lowResMask(low, 0, samGeometry(64, 64)).area).toBe(0);
  }, 90_000); // full-frame up-sampling of many discs: seconds of CPU, more on a loaded machine
});

describe('lowResToFrame', () => {
  it("agrees with the decoder's in-graph post-processing (ORT Resize) on the tiny model", async () => {
    const decoder = await openTiny('sam_decoder.onnx');
    const g = samGeometry(200, 120);
    const out = await decoder.run({
      image_embeddings: f32([1, 256, 64, 64], new Float32Array(256 * 64 * 64)),
      point_coords: f32([1, 2, 2], [400, 250, 0, 0]),
      point_labels: f32([1, 2], [1, -1]),
      mask_input: f32([1, 1, 256, 256], new Float32Array(256 * 256)),
      has_mask_input: f32([1], [0]),
      orig_im_size: f32([2], [120, 200]),
    });
    const low = out.low_res_masks.data as Float32Array;
    const masks = out.masks.data as Float32Array;
    for (let k = 0; k < 4; k++) {
      const ours = lowResToFrame(low, k * 256 * 256, g);
      const theirs = masks.subarray(k * 200 * 120, (k + 1) * 200 * 120);
      // Logits reach ~1e4 far from the disc, so compare relative to magnitude (float32 rounding).
      let maxErr = 0;
      for (let i = 0; i < ours.length; i++) maxErr = Math.max(maxErr, Math.abs(ours[i] - theirs[i]) / (1 + Math.abs(theirs[i])));
      expect(maxErr).toBeLessThan(1e-4);
    }
  });
});
