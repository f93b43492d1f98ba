/**
 * Seeded degradations that turn an exact GT label map into a plausible bad prediction, so that
 * `spoc-studio demo --pred-out` gives `eval` something to score. Not a metric: pure label-map edits.
 */
import type { LabelMap } from '../src/masks/labelMap';
import type { Rng } from '../src/demo';

export const NOISE_OPS = ['erode', 'dilate', 'swap', 'drop'] as const;
export type NoiseOp = (typeof NOISE_OPS)[number];

export interface NoiseChoice {
  op: NoiseOp | 'exact';
  /** Pixels of erosion/dilation (4-neighbour steps); 0 for the other ops. */
  radius: number;
}

/** Picks what happens to one frame: with probability `p` one of the ops, else an exact copy. */
export function chooseNoise(rng: Rng, p: number, width: number, height: number): NoiseChoice {
  if (!(rng.next() < p)) return { op: 'exact', radius: 0 };
  const op = rng.pick(NOISE_OPS);
  const maxRadius = Math.max(1, Math.round(Math.min(width, height) / 60));
  return { op, radius: op === 'erode' || op === 'dilate' ? 1 + rng.int(maxRadius) : 0 };
}

/** The degraded map, or null for 'drop' (no prediction file). The input is not modified. */
export function applyNoise(map: LabelMap, choice: NoiseChoice): LabelMap | null {
  switch (choice.op) {
    case 'exact':
      return { width: map.width, height: map.height, data: map.data.slice() };
    case 'drop':
      return null;
    case 'swap':
      return swapStates(map);
    case 'erode':
      return morph(map, choice.radius, 'erode');
    case 'dilate':
      return morph(map, choice.radius, 'dilate');
  }
}

/** Actionable <-> transformed everywhere. */
export function swapStates(map: LabelMap): LabelMap {
  const out = map.data.slice();
  for (let i = 0; i < out.length; i++) {
    if (out[i] === 1) out[i] = 2;
    else if (out[i] === 2) out[i] = 1;
  }
  return { width: map.width, height: map.height, data: out };
}

/**
 * `steps` rounds of 4-neighbour morphology on the object (any nonzero label):
 * erode clears object pixels that touch background; dilate gives background pixels that touch the
 * object the label of the first such neighbour (left, right, up, down). Outside the image does not count.
 */
export function morph(map: LabelMap, steps: number, mode: 'erode' | 'dilate'): LabelMap {
  const { width: w, height: h } = map;
  let src = map.data.slice();
  let dst = src.slice();
  for (let s = 0; s < steps; s++) {
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        const v = src[i];
        const l = x > 0 ? src[i - 1] : -1;
        const r = x < w - 1 ? src[i + 1] : -1;
        const u = y > 0 ? src[i - w] : -1;
        const d = y < h - 1 ? src[i + w] : -1;
        if (mode === 'erode') {
          dst[i] = v !== 0 && (l === 0 || r === 0 || u === 0 || d === 0) ? 0 : v;
        } else if (v === 0) {
          dst[i] = l > 0 ? l : r > 0 ? r : u > 0 ? u : d > 0 ? d : 0;
        } else dst[i] = v;
      }
    }
    [src, dst] = [dst, src];
  }
  return { width: w, height: h, data: src };
}
