/**
 * Separable image resampling that follows Pillow's `Image.resize` (the library both reference
 * pipelines use: segment-anything resizes with PIL bilinear, Hugging Face's CLIP processor with PIL
 * bicubic). Like Pillow it widens the filter when down-scaling (antialiasing), normalises the taps,
 * runs the horizontal pass first and rounds to 8 bits between passes, so results match Pillow to
 * within one grey level (Pillow uses fixed-point taps; we use floats).
 *
 * A `region` of the *resized* image can be requested directly: CLIP's "resize shortest side to 224
 * then centre-crop 224" is one call that never computes the cropped-away pixels.
 */
import type { RgbaImage } from '../../masks/labelMap';

export type ResampleFilter = 'bilinear' | 'bicubic';

const SUPPORT: Record<ResampleFilter, number> = { bilinear: 1, bicubic: 2 };

function kernel(filter: ResampleFilter, x: number): number {
  const t = Math.abs(x);
  if (filter === 'bilinear') return t < 1 ? 1 - t : 0;
  const a = -0.5; // Pillow's bicubic constant
  if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
  if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
  return 0;
}

interface Taps {
  /** First source index per output index. */
  start: Int32Array;
  /** Tap count per output index. */
  count: Int32Array;
  /** maxTaps weights per output index. */
  weights: Float32Array;
  maxTaps: number;
}

/**
 * Taps for output indices [offset, offset + outCount) of a resize from inSize to fullOut.
 * Mirrors Pillow's precompute_coeffs.
 */
function computeTaps(inSize: number, fullOut: number, offset: number, outCount: number, filter: ResampleFilter): Taps {
  const scale = inSize / fullOut;
  const filterScale = Math.max(scale, 1);
  const support = SUPPORT[filter] * filterScale;
  const maxTaps = Math.ceil(support) * 2 + 1;
  const start = new Int32Array(outCount);
  const count = new Int32Array(outCount);
  const weights = new Float32Array(outCount * maxTaps);
  for (let o = 0; o < outCount; o++) {
    const center = (o + offset + 0.5) * scale;
    const xmin = Math.max(0, Math.trunc(center - support + 0.5));
    const xmax = Math.min(inSize, Math.trunc(center + support + 0.5));
    let sum = 0;
    const n = Math.min(xmax - xmin, maxTaps);
    for (let k = 0; k < n; k++) {
      const w = kernel(filter, (k + xmin - center + 0.5) / filterScale);
      weights[o * maxTaps + k] = w;
      sum += w;
    }
    if (sum !== 0) for (let k = 0; k < n; k++) weights[o * maxTaps + k] /= sum;
    start[o] = xmin;
    count[o] = n;
  }
  return { start, count, weights, maxTaps };
}

const clip8 = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.floor(v + 0.5));

export interface ResampleRegion {
  /** Left/top of the wanted part of the full resized image. */
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Resize `image` (RGBA, alpha ignored) to fullW x fullH and return the pixels of `region`
 * (default: all of it) as planar RGB bytes: [R plane, G plane, B plane], each region.w * region.h.
 */
export function resampleRgb(image: RgbaImage, fullW: number, fullH: number, filter: ResampleFilter, region?: ResampleRegion): Uint8Array {
  const r = region ?? { x: 0, y: 0, w: fullW, h: fullH };
  if (r.x < 0 || r.y < 0 || r.x + r.w > fullW || r.y + r.h > fullH || r.w <= 0 || r.h <= 0) {
    throw new RangeError(`resample region ${r.w}x${r.h}+${r.x}+${r.y} outside ${fullW}x${fullH}`);
  }
  const { width: sw, height: sh, data } = image;
  const hx = computeTaps(sw, fullW, r.x, r.w, filter);
  const vy = computeTaps(sh, fullH, r.y, r.h, filter);
  // Only the source rows the vertical taps touch need a horizontal pass.
  let rowLo = sh;
  let rowHi = 0;
  for (let o = 0; o < r.h; o++) {
    rowLo = Math.min(rowLo, vy.start[o]);
    rowHi = Math.max(rowHi, vy.start[o] + vy.count[o]);
  }
  const rows = rowHi - rowLo;
  const plane = r.w * rows;
  const tmp = new Uint8Array(plane * 3);
  for (let y = 0; y < rows; y++) {
    const srcRow = (y + rowLo) * sw * 4;
    for (let o = 0; o < r.w; o++) {
      const s = hx.start[o];
      const n = hx.count[o];
      const wo = o * hx.maxTaps;
      let cr = 0;
      let cg = 0;
      let cb = 0;
      for (let k = 0; k < n; k++) {
        const w = hx.weights[wo + k];
        const p = srcRow + (s + k) * 4;
        cr += w * data[p];
        cg += w * data[p + 1];
        cb += w * data[p + 2];
      }
      const at = y * r.w + o;
      tmp[at] = clip8(cr);
      tmp[plane + at] = clip8(cg);
      tmp[2 * plane + at] = clip8(cb);
    }
  }
  const outPlane = r.w * r.h;
  const out = new Uint8Array(outPlane * 3);
  const acc = new Float32Array(r.w);
  for (let o = 0; o < r.h; o++) {
    const s = vy.start[o] - rowLo;
    const n = vy.count[o];
    const wo = o * vy.maxTaps;
    for (let c = 0; c < 3; c++) {
      acc.fill(0);
      // Tap-outer, column-inner: every read walks a source row contiguously.
      for (let k = 0; k < n; k++) {
        const w = vy.weights[wo + k];
        const row = c * plane + (s + k) * r.w;
        for (let x = 0; x < r.w; x++) acc[x] += w * tmp[row + x];
      }
      const dst = c * outPlane + o * r.w;
      for (let x = 0; x < r.w; x++) out[dst + x] = clip8(acc[x]);
    }
  }
  return out;
}
