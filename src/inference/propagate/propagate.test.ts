import { describe, expect, it } from 'vitest';
import { createLabelMap, type LabelMap } from '../../masks/labelMap';
import { cropMask } from '../spoc/croppedMask';
import { combineRegions, hasMasks, mergeIntoExisting } from './combine';
import { frameConfidence, regionConfidence, shapeAgreement } from './confidence';
import { propagateForward } from './forward';
import type { PropagationResult } from './propagateFrame';
import { bestOverlap } from './propagateFrame';
import { interiorPoints, regionPrompt, squaredDistanceTransform } from './prompts';
import { stateRegions } from './regions';
import { carryTags, mergeTags } from './tags';

function rect(map: LabelMap, x: number, y: number, w: number, h: number, label: number): LabelMap {
  for (let j = y; j < y + h; j++) for (let i = x; i < x + w; i++) map.data[j * map.width + i] = label;
  return map;
}

function disc(map: LabelMap, cx: number, cy: number, r: number, label: number): LabelMap {
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 < r * r) map.data[y * map.width + x] = label;
  }
  return map;
}

const maskOf = (map: LabelMap, label: number) => cropMask(map.data.map((v) => (v === label ? 1 : 0)), map.width, map.height);

describe('stateRegions', () => {
  it('splits each state into 4-connected components, largest first, dropping specks', () => {
    const map = createLabelMap(40, 30);
    rect(map, 2, 2, 10, 10, 1); // 100 px actionable
    rect(map, 12, 2, 5, 5, 2); // touches the first but is another state: its own region
    rect(map, 25, 20, 12, 8, 1); // 96 px, separate component of the same state
    map.data[29 * 40 + 0] = 2; // 1 px speck
    rect(map, 30, 2, 5, 5, 1);
    rect(map, 35, 7, 5, 5, 1); // diagonal neighbour only: not 4-connected
    const regions = stateRegions(map, { minArea: 20 });
    expect(regions.map((r) => [r.label, r.mask.area, r.mask.box])).toEqual([
      [1, 100, { x: 2, y: 2, w: 10, h: 10 }],
      [1, 96, { x: 25, y: 20, w: 12, h: 8 }],
      [2, 25, { x: 12, y: 2, w: 5, h: 5 }],
      [1, 25, { x: 30, y: 2, w: 5, h: 5 }],
      [1, 25, { x: 35, y: 7, w: 5, h: 5 }],
    ]);
    expect(stateRegions(map, { minArea: 1 })).toHaveLength(6);
    // The crop is exactly the region.
    expect(Array.from(regions[2].mask.data).every((v) => v === 1)).toBe(true);
  });

  it('gives a region the instance number of the tag whose seed it holds; stale and outside tags are ignored', () => {
    const map = rect(rect(createLabelMap(30, 20), 1, 1, 8, 8, 1), 15, 5, 8, 8, 2);
    const regions = stateRegions(map, { tags: [{ id: 7, x: 16, y: 6 }, { id: 3, x: 0, y: 19 }, { id: 9, x: 99, y: 1 }] });
    expect(regions.map((r) => [r.label, r.instanceId])).toEqual([[1, null], [2, 7]]);
  });
});

describe('prompts from a region', () => {
  it('the distance transform is exact Euclidean distance to the nearest outside pixel', () => {
    const map = rect(createLabelMap(20, 20), 3, 4, 9, 5, 1);
    const m = maskOf(map, 1);
    const d2 = squaredDistanceTransform(m);
    // Brute force over the crop padded with background.
    for (let y = 0; y < m.box.h; y++) {
      for (let x = 0; x < m.box.w; x++) {
        let best = Infinity;
        for (let v = -1; v <= m.box.h; v++) {
          for (let u = -1; u <= m.box.w; u++) {
            const inside = u >= 0 && v >= 0 && u < m.box.w && v < m.box.h && m.data[v * m.box.w + u];
            if (!inside) best = Math.min(best, (u - x) ** 2 + (v - y) ** 2);
          }
        }
        expect(d2[y * m.box.w + x]).toBe(best);
      }
    }
  });

  it('the first point is the deepest pixel (not the centroid of a C shape); the others spread inside the core', () => {
    // A thick C: the centroid falls in the hole, the deepest pixel does not.
    const map = rect(createLabelMap(60, 60), 10, 10, 40, 40, 1);
    rect(map, 22, 22, 28, 16, 0);
    const m = maskOf(map, 1);
    const pts = interiorPoints(m, 3);
    expect(pts).toHaveLength(3);
    for (const p of pts) expect(map.data[p.y * 60 + p.x]).toBe(1);
    const depths = pts.map((p) => p.depth);
    expect(depths[0]).toBe(Math.max(...depths));
    // Spread: the chosen points are far apart compared with the region's thickness (12 px).
    for (let a = 0; a < 3; a++) for (let b = a + 1; b < 3; b++) expect(Math.hypot(pts[a].x - pts[b].x, pts[a].y - pts[b].y)).toBeGreaterThan(12);
    // Deepest point of a disc is its centre pixel.
    const d = maskOf(disc(createLabelMap(50, 50), 25, 25, 10, 1), 1);
    const [c] = interiorPoints(d, 1);
    expect([c.x, c.y]).toEqual([24, 24]);
    // Distance between pixel centres to the nearest outside pixel: just under the radius.
    expect(c.depth).toBeGreaterThan(9);
    expect(c.depth).toBeLessThanOrEqual(10);
  });

  it('a region prompt is its pixel-edge box plus interior pixel centres', () => {
    const map = rect(createLabelMap(30, 30), 5, 6, 3, 2, 2);
    const p = regionPrompt(maskOf(map, 2), { points: 5 });
    expect(p.box).toEqual({ x0: 5, y0: 6, x1: 8, y1: 8 });
    // 6 pixels: every core pixel can be taken, never more than exist, all distinct.
    expect(p.points.length).toBeGreaterThanOrEqual(1);
    expect(new Set(p.points.map((q) => `${q.x},${q.y}`)).size).toBe(p.points.length);
    for (const q of p.points) {
      expect(q.positive).toBe(true);
      expect(map.data[Math.floor(q.y) * 30 + Math.floor(q.x)]).toBe(2);
      expect(q.x % 1).toBe(0.5);
    }
    expect(regionPrompt(maskOf(map, 2), { box: false }).box).toBeUndefined();
  });
});

describe('confidence', () => {
  it('shape agreement ignores motion but not size or shape', () => {
    const a = maskOf(rect(createLabelMap(100, 100), 10, 10, 20, 20, 1), 1);
    const moved = maskOf(rect(createLabelMap(100, 100), 60, 50, 20, 20, 1), 1);
    const half = maskOf(rect(createLabelMap(100, 100), 60, 50, 20, 10, 1), 1);
    expect(shapeAgreement(a, moved)).toBe(1);
    expect(shapeAgreement(a, half)).toBeCloseTo(0.5, 5);
    expect(shapeAgreement(a, cropMask(new Uint8Array(100 * 100), 100, 100))).toBe(0);
  });

  it('a region scores the mean of the model quality and the shape agreement; the frame is area-weighted', () => {
    const a = maskOf(rect(createLabelMap(100, 100), 10, 10, 20, 20, 1), 1);
    const half = maskOf(rect(createLabelMap(100, 100), 60, 50, 20, 10, 1), 1);
    expect(regionConfidence(0.9, a, half)).toBeCloseTo((0.9 + 0.5) / 2, 5);
    expect(regionConfidence(1.7, a, a)).toBe(1); // quality clamped
    expect(regionConfidence(0.9, a, cropMask(new Uint8Array(100 * 100), 100, 100))).toBe(0);
    expect(frameConfidence([{ previousArea: 300, confidence: 1 }, { previousArea: 100, confidence: 0 }])).toBe(0.75);
    expect(frameConfidence([])).toBeNull();
  });
});

describe('combining and merging', () => {
  it('paints regions in their state; a contested pixel goes to the more confident region, on a tie to transformed', () => {
    const A = maskOf(rect(createLabelMap(20, 10), 0, 0, 12, 10, 1), 1);
    const B = maskOf(rect(createLabelMap(20, 10), 8, 0, 12, 10, 1), 1);
    const strongAct = combineRegions(20, 10, [{ label: 1, mask: A, confidence: 0.9 }, { label: 2, mask: B, confidence: 0.5 }]);
    expect(strongAct.data[10]).toBe(1);
    expect(strongAct.data[15]).toBe(2);
    expect(strongAct.data[5]).toBe(1);
    const tie = combineRegions(20, 10, [{ label: 2, mask: B, confidence: 0.7 }, { label: 1, mask: A, confidence: 0.7 }]);
    expect(tie.data[10]).toBe(2);
    expect(() => combineRegions(10, 10, [{ label: 1, mask: A, confidence: 1 }])).toThrow(/20x10/);
  });

  it('replace takes the propagated map; fill only writes where the frame is background', () => {
    const existing = rect(createLabelMap(10, 1), 0, 0, 3, 1, 2);
    const propagated = rect(createLabelMap(10, 1), 2, 0, 5, 1, 1);
    expect(Array.from(mergeIntoExisting(existing, propagated, 'replace'))).toEqual([0, 0, 1, 1, 1, 1, 1, 0, 0, 0]);
    expect(Array.from(mergeIntoExisting(existing, propagated, 'fill'))).toEqual([2, 2, 2, 1, 1, 1, 1, 0, 0, 0]);
    expect(hasMasks(existing)).toBe(true);
    expect(hasMasks(createLabelMap(4, 4))).toBe(false);
  });

  it('re-detection anchors a region on the proposal overlapping it best by IoU, not on the background that contains it', () => {
    const region = maskOf(rect(createLabelMap(50, 50), 10, 10, 10, 10, 1), 1);
    const background = maskOf(rect(createLabelMap(50, 50), 0, 0, 50, 50, 1), 1);
    const object = maskOf(rect(createLabelMap(50, 50), 12, 12, 10, 10, 1), 1);
    const other = maskOf(rect(createLabelMap(50, 50), 30, 30, 10, 10, 1), 1);
    expect(bestOverlap(region, [background, other, object])).toBe(object);
    expect(bestOverlap(region, [other])).toBeNull();
  });
});

describe('carryTags / mergeTags', () => {
  it('seeds each tagged successor at its deepest pixel that kept its state; vanished and untagged regions carry nothing', () => {
    const map = createLabelMap(10, 6);
    for (let y = 1; y < 5; y++) for (let x = 1; x < 9; x++) map.data[y * 10 + x] = x < 6 ? 2 : 1; // the right part was won by state 1
    const full = new Uint8Array(10 * 6);
    for (let y = 1; y < 5; y++) for (let x = 1; x < 9; x++) full[y * 10 + x] = 1;
    const mask = cropMask(full, 10, 6);
    const tags = carryTags(map, [
      { instanceId: 4, label: 2, mask },
      { instanceId: null, label: 1, mask },
      { instanceId: 6, label: 1, mask: null },
    ]);
    expect(tags).toHaveLength(1);
    expect(tags[0].id).toBe(4);
    expect(map.data[tags[0].y * 10 + tags[0].x]).toBe(2);
  });

  it('replace takes the carried tags; fill keeps the frame\'s own and adds missing numbers', () => {
    const own = [{ id: 1, x: 0, y: 0 }];
    const carried = [{ id: 1, x: 5, y: 5 }, { id: 2, x: 3, y: 3 }];
    expect(mergeTags(own, carried, 'replace')).toEqual(carried);
    expect(mergeTags(own, carried, 'fill')).toEqual([{ id: 1, x: 0, y: 0 }, { id: 2, x: 3, y: 3 }]);
  });
});

describe('propagateForward', () => {
  const W = 8;
  const fakeResult = (from: number, confidence: number | null, redetected = false): PropagationResult => ({
    from,
    to: from + 1,
    method: 'sam',
    tags: [],
    map: rect(createLabelMap(W, 1), 0, 0, from + 2, 1, 1),
    confidence,
    regions: [],
    redetected,
    ms: 0,
  });

  function harness(confidences: (k: number, redetect: boolean) => number | null) {
    const stored = new Map<number, LabelMap>([[0, rect(createLabelMap(W, 1), 0, 0, 1, 1, 1)]]);
    const calls: string[] = [];
    const inputs: number[] = [];
    return {
      stored,
      calls,
      inputs,
      steps: {
        step: async (from: number, previous: LabelMap, redetect: boolean) => {
          calls.push(`${from}${redetect ? 'R' : ''}`);
          inputs.push(previous.data.reduce((s, v) => s + v, 0));
          return fakeResult(from, confidences(from, redetect), redetect);
        },
        loadMap: async (k: number) => stored.get(k) ?? createLabelMap(W, 1),
        write: async (r: PropagationResult) => {
          stored.set(r.to, r.map);
          return r.map;
        },
      },
    };
  }

  it('chains frames from the map just written and re-detects every N steps', async () => {
    const h = harness(() => 0.9);
    const report = await propagateForward({ start: 0, count: 5, frameCount: 20, threshold: 0.5, redetectEvery: 2, redetectBelow: 0.6 }, h.steps);
    expect(report.stop).toBe('done');
    expect(report.written.map((r) => r.to)).toEqual([1, 2, 3, 4, 5]);
    expect(h.calls).toEqual(['0', '1R', '2', '3R', '4']);
    // Each step got the previous step's output (area from + 2 at frame from + 1), the first the stored frame 0.
    expect(h.inputs).toEqual([1, 2, 3, 4, 5]);
  });

  it('retries a degraded step with re-detection and stops, without writing, when confidence stays below the threshold', async () => {
    const h = harness((k, redetect) => (k < 2 ? 0.9 : k === 2 ? (redetect ? 0.8 : 0.55) : redetect ? 0.3 : 0.2));
    const report = await propagateForward({ start: 0, count: 10, frameCount: 20, threshold: 0.5, redetectEvery: 0, redetectBelow: 0.6 }, h.steps);
    expect(h.calls).toEqual(['0', '1', '2', '2R', '3', '3R']);
    expect(report.written.map((r) => [r.to, r.confidence, r.redetected])).toEqual([[1, 0.9, false], [2, 0.9, false], [3, 0.8, true]]);
    expect(report.stop).toBe('low-confidence');
    expect(report.rejected?.to).toBe(4);
    expect(h.stored.has(4)).toBe(false);
  });

  it('ends at the clip end, and stops when cancelled or when nothing is left', async () => {
    let h = harness(() => 0.9);
    expect((await propagateForward({ start: 5, count: 10, frameCount: 8, threshold: 0, redetectEvery: 0, redetectBelow: 0 }, h.steps)).stop).toBe('end-of-clip');
    expect(h.calls).toEqual(['5', '6']);
    const abort = new AbortController();
    h = harness(() => 0.9);
    const steps = { ...h.steps, onStep: (_r: PropagationResult, done: number) => done === 2 && abort.abort() };
    const r = await propagateForward({ start: 0, count: 10, frameCount: 20, threshold: 0, redetectEvery: 0, redetectBelow: 0, signal: abort.signal }, steps);
    expect(r.stop).toBe('cancelled');
    expect(r.written).toHaveLength(2);
    h = harness(() => null);
    expect((await propagateForward({ start: 0, count: 3, frameCount: 20, threshold: 0, redetectEvery: 0, redetectBelow: 0 }, h.steps)).stop).toBe('nothing-to-propagate');
  });
});
