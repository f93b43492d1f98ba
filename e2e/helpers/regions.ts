/**
 * Where to paint so a stroke lands on the object: the largest axis-aligned rectangle whose pixels
 * (grown by a margin) all carry one label of a known ground truth. Pure; used by specs that drive
 * the real mouse over a generated clip.
 */
import type { LabelMap } from '../../src/masks/labelMap';

export interface Rect { x: number; y: number; w: number; h: number }

/** Largest rectangle with every pixel within `margin` of it labelled `label` (null when none). */
export function innerRect(map: LabelMap, label: number, margin: number): Rect | null {
  const { width: W, height: H, data } = map;
  // ok[y][x]: the (2·margin+1)² square around (x, y) is all `label` (separable min filter).
  const row = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    let run = 0;
    const ends = new Int32Array(W);
    for (let x = W - 1; x >= 0; x--) ends[x] = run = data[y * W + x] === label ? run + 1 : 0;
    for (let x = 0; x < W; x++) {
      const x0 = x - margin;
      row[y * W + x] = x0 >= 0 && x + margin < W && ends[x0] >= 2 * margin + 1 ? 1 : 0;
    }
  }
  const ok = new Uint8Array(W * H);
  for (let x = 0; x < W; x++) {
    for (let y = margin; y < H - margin; y++) {
      let all = 1;
      for (let d = -margin; d <= margin && all; d++) all = row[(y + d) * W + x];
      ok[y * W + x] = all;
    }
  }
  // Largest rectangle of ok pixels: histogram per row, stack-based.
  const heights = new Int32Array(W);
  let best: Rect | null = null;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) heights[x] = ok[y * W + x] ? heights[x] + 1 : 0;
    const stack: number[] = [];
    for (let x = 0; x <= W; x++) {
      const h = x < W ? heights[x] : 0;
      while (stack.length && heights[stack[stack.length - 1]] >= h) {
        const top = stack.pop()!;
        const left = stack.length ? stack[stack.length - 1] + 1 : 0;
        const area = heights[top] * (x - left);
        if (area > 0 && (!best || area > best.w * best.h)) best = { x: left, y: y - heights[top] + 1, w: x - left, h: heights[top] };
      }
      stack.push(x);
    }
  }
  return best;
}
