/**
 * Fusing the forward and backward propagation of one object at frame t between keyframes a < t < b
 * (docs/objects.md "Keyframes and interpolation"). Distance weights: w_fwd = (b − t)/(b − a),
 * w_bwd = (t − a)/(b − a), so the nearer keyframe counts more.
 *
 * - `vote`: a pixel is the object's when w_fwd·m_fwd + w_bwd·m_bwd ≥ ½ — near a keyframe its
 *   propagation wins; at the exact middle a pixel either direction claims is kept (the union).
 * - `soft` (default): each direction's weight is also scaled by its own confidence,
 *   p = (w_fwd·c_fwd·m_fwd + w_bwd·c_bwd·m_bwd) / (w_fwd·c_fwd + w_bwd·c_bwd), kept when p ≥ ½; a
 *   direction that lost the object (confidence 0) then gives way to the other.
 *
 * The frame's confidence is the weighted confidence of the two directions, lowered by how much
 * they disagree where both should count: c = (w_fwd·c_fwd + w_bwd·c_bwd) · (1 − 2·min(w_fwd, w_bwd)·(1 − IoU)),
 * so next to a keyframe the far direction's disagreement costs nothing and at the middle it costs
 * fully. Pure.
 */

export type FusionMode = 'vote' | 'soft';

/** One direction's mask on the frame (nonzero: the object) and its confidence in 0..1. */
export interface DirectionMask {
  mask: Uint8Array;
  confidence: number;
}

export function distanceWeights(a: number, b: number, t: number): { forward: number; backward: number } {
  if (!(a < t && t < b)) throw new RangeError(`frame ${t} is not strictly between keyframes ${a} and ${b}`);
  return { forward: (b - t) / (b - a), backward: (t - a) / (b - a) };
}

/** IoU of two binary masks of one size; 1 when both are empty. */
export function maskIou(x: Uint8Array, y: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < x.length; i++) {
    const p = x[i] !== 0;
    const q = y[i] !== 0;
    if (p && q) inter++;
    if (p || q) union++;
  }
  return union === 0 ? 1 : inter / union;
}

export interface Fused {
  /** 1 on the object's pixels, 0 elsewhere. */
  mask: Uint8Array;
  area: number;
  confidence: number;
  /** IoU of the two directions' masks. */
  agreement: number;
}

export function fuseDirections(forward: DirectionMask, backward: DirectionMask, weights: { forward: number; backward: number }, mode: FusionMode = 'soft'): Fused {
  const n = forward.mask.length;
  if (backward.mask.length !== n) throw new RangeError('the two directions have masks of different sizes');
  const cf = clamp01(forward.confidence);
  const cb = clamp01(backward.confidence);
  let wf = weights.forward;
  let wb = weights.backward;
  if (mode === 'soft' && wf * cf + wb * cb > 0) {
    wf *= cf;
    wb *= cb;
  }
  const total = wf + wb;
  // Exact decisions for the four cases a pixel can be in (only f, only b, both, neither).
  const onlyF = total > 0 && wf / total >= 0.5;
  const onlyB = total > 0 && wb / total >= 0.5;
  const mask = new Uint8Array(n);
  let area = 0;
  const fm = forward.mask;
  const bm = backward.mask;
  for (let i = 0; i < n; i++) {
    const f = fm[i] !== 0;
    const b = bm[i] !== 0;
    if ((f && b) || (f && onlyF) || (b && onlyB)) {
      mask[i] = 1;
      area++;
    }
  }
  const agreement = maskIou(fm, bm);
  const confidence = (weights.forward * cf + weights.backward * cb) * (1 - 2 * Math.min(weights.forward, weights.backward) * (1 - agreement));
  return { mask, area, confidence: clamp01(confidence), agreement };
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
