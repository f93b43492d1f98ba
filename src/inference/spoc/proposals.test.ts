import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { solidImage } from '../../testing/inference';
import { boxIou, cropMask, intersectionArea, maskIou, type CroppedMask } from './croppedMask';
import { CLIP_MEAN_RGB, maskedCrop } from './maskedCrop';
import { nms, type Proposal } from './nms';
import { pointGrid } from './pointGrid';

/** A filled rectangle mask in a W x H frame. */
function rect(x: number, y: number, w: number, h: number, W = 100, H = 80): CroppedMask {
  const data = new Uint8Array(W * H);
  for (let j = y; j < y + h; j++) for (let i = x; i < x + w; i++) data[j * W + i] = 1;
  return cropMask(data, W, H);
}

describe('cropped masks', () => {
  it('crop to the tight box and measure overlap only inside both boxes', () => {
    const a = rect(10, 10, 20, 10);
    expect(a.box).toEqual({ x: 10, y: 10, w: 20, h: 10 });
    expect(a.area).toBe(200);
    const b = rect(20, 15, 20, 10);
    expect(intersectionArea(a, b)).toBe(10 * 5);
    expect(maskIou(a, b)).toBeCloseTo(50 / 350);
    expect(maskIou(a, rect(60, 60, 5, 5))).toBe(0);
    expect(cropMask(new Uint8Array(12), 4, 3).area).toBe(0);
    expect(boxIou({ x: 0, y: 0, w: 10, h: 10 }, { x: 5, y: 0, w: 10, h: 10 })).toBeCloseTo(50 / 150);
  });
});

describe('intersectionArea (row runs)', () => {
  it('equals a pixel count on random masks, boxes overlapping or not (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 1, max: 24 }),
        fc.uint8Array({ min: 0, max: 1, minLength: 576, maxLength: 576 }),
        fc.uint8Array({ min: 0, max: 1, minLength: 576, maxLength: 576 }),
        (w, h, bitsA, bitsB) => {
          const a = cropMask(bitsA.slice(0, w * h), w, h);
          const b = cropMask(bitsB.slice(0, w * h), w, h);
          let n = 0;
          for (let i = 0; i < w * h; i++) if (bitsA[i] && bitsB[i]) n++;
          expect(intersectionArea(a, b)).toBe(n);
          expect(intersectionArea(b, a)).toBe(n);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('nms', () => {
  it('keeps what the plain greedy rule keeps: the cheap bounds never change the answer (property)', () => {
    const W = 20;
    // Random boxes filled with random bits: masks whose box overlap is far larger than their pixel
    // overlap, where a wrong shortcut would show.
    const maskArb = fc.tuple(fc.nat(W - 1), fc.nat(W - 1), fc.integer({ min: 1, max: W }), fc.integer({ min: 1, max: W }), fc.integer({ min: 1, max: 4 }), fc.nat());
    fc.assert(
      fc.property(fc.array(fc.tuple(maskArb, fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 25 }), fc.constantFrom(0.3, 0.5, 0.9), (items, thr) => {
        const proposals = items.map(([[x, y, w, h, sparsity, seed], score]) => {
          const bits = new Uint8Array(W * W);
          let r = seed >>> 0;
          for (let j = y; j < Math.min(W, y + h); j++) {
            for (let i = x; i < Math.min(W, x + w); i++) {
              r = (Math.imul(r, 1103515245) + 12345) >>> 0;
              bits[j * W + i] = (r >>> 16) % sparsity === 0 ? 1 : 0;
            }
          }
          return { mask: cropMask(bits, W, W), score };
        });
        const order = proposals
          .map((_, i) => i)
          .filter((i) => proposals[i].mask.area >= 1)
          .sort((a, b) => proposals[b].score - proposals[a].score || a - b);
        const plain: number[] = [];
        for (const i of order) if (!plain.some((k) => maskIou(proposals[i].mask, proposals[k].mask) > thr)) plain.push(i);
        expect(nms(proposals, { iouThreshold: thr, minArea: 1 })).toEqual(plain);
      }),
      { numRuns: 400 },
    );
  });

  const P = (mask: CroppedMask, score: number): Proposal => ({ mask, score });

  it('keeps the best of near-duplicates (IoU > 0.9) and drops masks under the minimum area', () => {
    const props = [
      P(rect(10, 10, 40, 40), 0.8),
      P(rect(10, 10, 40, 41), 0.9), // IoU 1600/1640 = 0.976 with the first
      P(rect(60, 10, 30, 30), 0.7),
      P(rect(0, 70, 7, 7), 0.99), // 49 px < 50
    ];
    expect(nms(props)).toEqual([1, 2]);
    expect(nms(props, { minArea: 0 })).toEqual([3, 1, 2]);
  });

  it('suppresses only strictly above the threshold', () => {
    // IoU exactly 0.9: 90 vs 100 px, nested.
    const props = [P(rect(0, 0, 10, 10), 1), P(rect(0, 0, 10, 9), 0.5)];
    expect(nms(props, { iouThreshold: 0.9, minArea: 0 })).toEqual([0, 1]);
    expect(nms(props, { iouThreshold: 0.89, minArea: 0 })).toEqual([0]);
  });

  it('keeps nested masks with the same box by mask IoU, unlike box IoU', () => {
    // A ring and its filled disc-like square share a bounding box.
    const outer = rect(10, 10, 40, 40);
    const innerData = new Uint8Array(100 * 80);
    for (let j = 10; j < 50; j++) for (let i = 10; i < 50; i++) if (i === 10 || j === 10 || i === 49 || j === 49 || (i > 20 && i < 40 && j > 20 && j < 40)) innerData[j * 100 + i] = 1;
    const inner = cropMask(innerData, 100, 80);
    const props = [P(outer, 0.9), P(inner, 0.8)];
    expect(nms(props)).toEqual([0, 1]);
    expect(nms(props, { by: 'box' })).toEqual([0]);
  });

  it('orders ties by input index', () => {
    expect(nms([P(rect(0, 0, 10, 10), 0.5), P(rect(50, 50, 10, 10), 0.5)])).toEqual([0, 1]);
  });
});

describe('pointGrid', () => {
  it('places n x n points at cell centres, row by row, scaled to the frame', () => {
    const g = pointGrid(640, 360, 2);
    expect(g).toEqual([
      { x: 160, y: 90 },
      { x: 480, y: 90 },
      { x: 160, y: 270 },
      { x: 480, y: 270 },
    ]);
    const g32 = pointGrid(1024, 1024);
    expect(g32).toHaveLength(1024);
    expect(g32[0]).toEqual({ x: 16, y: 16 });
    expect(g32[1023]).toEqual({ x: 1008, y: 1008 });
    expect(() => pointGrid(10, 10, 0)).toThrow(RangeError);
  });
});

describe('maskedCrop', () => {
  it('crops to the box (+ margin, clipped) and fills outside the mask', () => {
    const frame = solidImage(100, 80, [200, 0, 0]);
    const m = rect(5, 5, 3, 2);
    const c = maskedCrop(frame, m);
    expect([c.width, c.height]).toEqual([3, 2]);
    expect([...c.data.subarray(0, 4)]).toEqual([200, 0, 0, 255]);
    const wide = maskedCrop(frame, m, { margin: 10 });
    expect([wide.width, wide.height]).toEqual([18, 17]); // clipped at x = 0, y = 0
    expect([...wide.data.subarray(0, 3)]).toEqual([...CLIP_MEAN_RGB]);
    const black = maskedCrop(frame, m, { margin: 1, fill: [0, 0, 0] });
    expect([...black.data.subarray(0, 4)]).toEqual([0, 0, 0, 255]);
    expect(() => maskedCrop(solidImage(10, 10, [0, 0, 0]), m)).toThrow(/frame/);
  });
});
