/**
 * The arithmetic shared by the two tiny SAM decoders: a weighted centroid of the prompt points and
 * "disc" logits on SAM's 256x256 low-resolution grid. A logit is (r^2 - d^2) / (2r), which is
 * close to the signed distance r - d near the edge, so after SAM's bilinear up-sampling the
 * zero crossing stays a circle of radius r (in the 1024 frame) to well under a pixel.
 */
import { attr, type GraphBuilder } from '../graphBuilder';

/** SAM's low-resolution mask side and the side of the padded model frame it covers. */
export const LOW_RES = 256;
export const MODEL_SIDE = 1024;

/**
 * Weighted centroid of `coords` ([..., n, 2]) with `weights` ([..., n], float 0/1) over the
 * points axis; returns [x, y] tensors shaped [..., 1] (the points axis kept as 1).
 * With no weighted point at all the centroid is (0, 0): the sum is divided by max(sum w, 1).
 */
export function weightedCentroid(g: GraphBuilder, coords: string, weights: string, pointsAxis: number): { x: string; y: string; wsum: string } {
  const wsum = g.op('ReduceSum', [weights, g.i64([pointsAxis])], { keepdims: attr.i(1) });
  const w3 = g.op('Unsqueeze', [weights, g.i64([pointsAxis + 1])]);
  const sum = g.op('ReduceSum', [g.op('Mul', [coords, w3]), g.i64([pointsAxis])], { keepdims: attr.i(0) });
  const centroid = g.op('Div', [sum, g.op('Max', [wsum, g.scalar(1)])]);
  const last = pointsAxis; // after removing the points axis, xy is at this axis
  const x = g.op('Slice', [centroid, g.i64([0]), g.i64([1]), g.i64([last])]);
  const y = g.op('Slice', [centroid, g.i64([1]), g.i64([2]), g.i64([last])]);
  return { x, y, wsum };
}

/**
 * Disc logits [..., radii.length, 256, 256] around (x, y) given as [..., 1] tensors in the 1024
 * frame. `lead` is the number of leading axes of x/y (batch axes) before the mask axis.
 * Low-res pixel j covers model-frame x in [4j, 4j + 4), so its centre is at 4(j + 0.5).
 */
export function discLogits(g: GraphBuilder, x: string, y: string, radii: readonly number[], lead: number): string {
  const scale = MODEL_SIDE / LOW_RES;
  const centres = Array.from({ length: LOW_RES }, (_, j) => scale * (j + 0.5));
  const ones = (n: number) => Array.from({ length: n }, () => 1);
  const gx = g.f32(centres, [...ones(lead), 1, 1, LOW_RES], 'grid_x');
  const gy = g.f32(centres, [...ones(lead), 1, LOW_RES, 1], 'grid_y');
  // x, y are [..lead, 1]; add two axes so they broadcast over [mask, row, col].
  const axes = [lead, lead + 1];
  const cx = g.op('Unsqueeze', [x, g.i64(axes)]);
  const cy = g.op('Unsqueeze', [y, g.i64(axes)]);
  const dx = g.op('Sub', [gx, cx]);
  const dy = g.op('Sub', [gy, cy]);
  const d2 = g.op('Add', [g.op('Mul', [dx, dx]), g.op('Mul', [dy, dy])]);
  const r2 = g.f32(radii.map((r) => r * r), [...ones(lead), radii.length, 1, 1], 'radius2');
  const inv2r = g.f32(radii.map((r) => 1 / (2 * r)), [...ones(lead), radii.length, 1, 1], 'inv2r');
  return g.op('Mul', [g.op('Sub', [r2, d2]), inv2r]);
}

/** Mean over all elements as a 0-d tensor (ReduceMean with no axes reduces everything). */
export function meanAll(g: GraphBuilder, x: string): string {
  return g.op('ReduceMean', [x], { keepdims: attr.i(0) });
}

/** Deterministic pseudo-random weights in [-amp, amp] (a sine hash: no RNG state, same on every platform). */
export function hashWeights(n: number, seed: number, amp = 1): number[] {
  return Array.from({ length: n }, (_, i) => amp * Math.sin(12.9898 * (i + 1) + 78.233 * seed));
}
