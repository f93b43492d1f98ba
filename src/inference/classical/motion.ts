/**
 * Where did an object go between two frames: masked template matching over a pyramid. The
 * object's own pixels on frame a (its mask only, not the background around it, which does not move
 * with it) are compared with frame b at every offset in a search window, coarse to fine. Pure
 * TypeScript (no OpenCV), so it runs in the classical worker, in Node and in tests.
 *
 * The cost is zero-mean SSD over the mask (mean colour difference removed, so a lighting change
 * between the frames costs nothing), averaged per pixel and channel. Besides the offset it reports
 * - `rms`: the residual at the best offset in grey levels (a good match on a real frame: a few
 *   levels of noise and compression; a wrong one: tens);
 * - `ambiguity`: best cost / best cost at least a quarter of the object away (near 1 when another
 *   place fits about as well: a look-alike object, a flat region), measured at the coarsest level.
 * Docs: docs/inference.md, "Propagation without weights".
 */
import type { Box, RgbaImage } from '../../masks/labelMap';

export interface ShiftQuery {
  /** The object's box on frame a and its 0/1 mask inside that box (row-major, box.w * box.h). */
  box: Box;
  mask: Uint8Array;
  /** Where to centre the search (e.g. the last step's motion); default (0, 0). */
  predicted?: { dx: number; dy: number };
  /** Search radius around the prediction, px. */
  radius: number;
}

export interface ShiftEstimate {
  /** Whole pixels. */
  dx: number;
  dy: number;
  rms: number;
  ambiguity: number;
  /** Pixel comparisons made: the search's cost, independent of the machine. */
  work: number;
}

/** A float image with 3 channels (RGB) over a box of the frame. */
interface Plane {
  w: number;
  h: number;
  px: Float32Array;
}

function cropPlane(img: RgbaImage, x0: number, y0: number, w: number, h: number): Plane {
  const px = new Float32Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(img.height - 1, Math.max(0, y0 + y));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(img.width - 1, Math.max(0, x0 + x));
      const s = (sy * img.width + sx) * 4;
      const o = (y * w + x) * 3;
      px[o] = img.data[s];
      px[o + 1] = img.data[s + 1];
      px[o + 2] = img.data[s + 2];
    }
  }
  return { w, h, px };
}

function halve(p: Plane): Plane {
  const w = Math.max(1, p.w >> 1);
  const h = Math.max(1, p.h >> 1);
  const px = new Float32Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 3; c++) {
        const a = (2 * y * p.w + 2 * x) * 3 + c;
        const x1 = Math.min(p.w - 1, 2 * x + 1) - 2 * x;
        const y1 = Math.min(p.h - 1, 2 * y + 1) - 2 * y;
        px[(y * w + x) * 3 + c] = 0.25 * (p.px[a] + p.px[a + x1 * 3] + p.px[a + y1 * p.w * 3] + p.px[a + (y1 * p.w + x1) * 3]);
      }
    }
  }
  return { w, h, px };
}

function halveMask(m: Float32Array, w: number, h: number): Float32Array {
  const hw = Math.max(1, w >> 1);
  const hh = Math.max(1, h >> 1);
  const out = new Float32Array(hw * hh);
  for (let y = 0; y < hh; y++) {
    for (let x = 0; x < hw; x++) {
      const x1 = Math.min(w - 1, 2 * x + 1);
      const y1 = Math.min(h - 1, 2 * y + 1);
      const v = 0.25 * (m[2 * y * w + 2 * x] + m[2 * y * w + x1] + m[y1 * w + 2 * x] + m[y1 * w + x1]);
      out[y * hw + x] = v >= 0.5 ? 1 : 0;
    }
  }
  return out;
}

/**
 * A template's mask pixels laid out for one search window: offsets into the template's and the
 * window's pixel arrays, so a cost at any placement is a base offset plus these (no division per
 * pixel: this loop is where tracking spends its time).
 */
interface Layout {
  t: Int32Array;
  s: Int32Array;
}

function layout(idx: Int32Array, tw: number, sw: number): Layout {
  const t = new Int32Array(idx.length);
  const s = new Int32Array(idx.length);
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k];
    const x = i % tw;
    const y = (i - x) / tw;
    t[k] = i * 3;
    s[k] = (y * sw + x) * 3;
  }
  return { t, s };
}

/** Zero-mean masked SSD per pixel and channel of template t placed at (ox, oy) in window s. */
function cost(t: Plane, lay: Layout, s: Plane, ox: number, oy: number): number {
  let sum = 0;
  let sq = 0;
  const n = lay.t.length;
  const base = (oy * s.w + ox) * 3;
  const tp = t.px;
  const sp = s.px;
  for (let k = 0; k < n; k++) {
    const a = lay.t[k];
    const b = base + lay.s[k];
    const d0 = tp[a] - sp[b];
    const d1 = tp[a + 1] - sp[b + 1];
    const d2 = tp[a + 2] - sp[b + 2];
    sum += d0 + d1 + d2;
    sq += d0 * d0 + d1 * d1 + d2 * d2;
  }
  const cnt = 3 * n;
  const mean = sum / cnt;
  return Math.max(0, sq / cnt - mean * mean);
}

function maskIndex(m: Float32Array): Int32Array {
  let n = 0;
  for (let i = 0; i < m.length; i++) if (m[i]) n++;
  const idx = new Int32Array(n);
  for (let i = 0, k = 0; i < m.length; i++) if (m[i]) idx[k++] = i;
  return idx;
}

/** Template pixels compared at most per placement (finer levels; the coarsest, visited at many placements, 256–1024): larger masks are sampled on a regular stride. */
const MAX_SAMPLES = 4096;
const MAX_COARSE_SAMPLES = 1024;
/**
 * Pixel comparisons the exhaustive coarsest search may cost: the pyramid is deepened until it fits.
 * The template's shorter side alone does not bound it: a long thin object (a carrot, a knife: 210 x
 * 34 px) has a search radius set by its long side, and searching that at full resolution cost 14
 * million comparisons per native step (docs/inference.md, "Propagation without weights").
 */
const COARSE_BUDGET = 1_500_000;

function sampled(idx: Int32Array, max = MAX_SAMPLES): Int32Array {
  if (idx.length <= max) return idx;
  const step = idx.length / max;
  const out = new Int32Array(max);
  for (let k = 0; k < max; k++) out[k] = idx[Math.floor(k * step)];
  return out;
}

interface Level {
  t: Plane;
  s: Plane;
  m: Float32Array;
  idx: Int32Array;
  r: number;
}

const coarseWork = (lv: Level) => (2 * lv.r + 1) ** 2 * Math.min(lv.idx.length, MAX_COARSE_SAMPLES);

/**
 * The translation of the masked object from `a` to `b` (whole pixels).
 * Levels halve while the template's shorter side exceeds 48 px or the exhaustive coarsest search
 * would cost more than COARSE_BUDGET comparisons (as long as a level keeps a shorter side of 6 px
 * and 32 mask pixels); the coarsest level searches the whole window, each finer one +-2 px around
 * the doubled estimate.
 */
export function estimateShift(a: RgbaImage, b: RgbaImage, q: ShiftQuery): ShiftEstimate {
  const { box } = q;
  const pdx = Math.round(q.predicted?.dx ?? 0);
  const pdy = Math.round(q.predicted?.dy ?? 0);
  const r = Math.max(1, Math.ceil(q.radius));
  // The window on b: the box moved by the prediction, grown by r (pixels outside the frame repeat its edge).
  const t0: Plane = cropPlane(a, box.x, box.y, box.w, box.h);
  const s0: Plane = cropPlane(b, box.x + pdx - r, box.y + pdy - r, box.w + 2 * r, box.h + 2 * r);
  const m0 = Float32Array.from(q.mask);
  const levels: Level[] = [{ t: t0, s: s0, m: m0, idx: maskIndex(m0), r }];
  for (;;) {
    const top = levels[levels.length - 1];
    if (Math.min(top.t.w, top.t.h) <= 48 && coarseWork(top) <= COARSE_BUDGET) break;
    if (Math.min(top.t.w, top.t.h) < 12 || levels.length >= 8) break;
    const m = halveMask(top.m, top.t.w, top.t.h);
    const idx = maskIndex(m);
    if (idx.length < 32) break;
    levels.push({ t: halve(top.t), s: halve(top.s), m, idx, r: Math.ceil(top.r / 2) });
  }
  let work = 0;
  // Coarsest level: every offset in the window (offsets are relative to the window's origin: r = no move).
  const top = levels[levels.length - 1];
  const maxX = Math.min(top.s.w - top.t.w, 2 * top.r);
  const maxY = Math.min(top.s.h - top.t.h, 2 * top.r);
  // A wide window at the coarsest level compares fewer pixels per placement (down to 256).
  const coarseSamples = levels.length > 1 ? Math.max(256, Math.min(MAX_COARSE_SAMPLES, Math.floor(COARSE_BUDGET / ((maxX + 1) * (maxY + 1))))) : MAX_SAMPLES;
  const topLay = layout(sampled(top.idx, coarseSamples), top.t.w, top.s.w);
  const costs = new Float64Array((maxX + 1) * (maxY + 1));
  let bx = top.r;
  let by = top.r;
  let best = Infinity;
  for (let oy = 0; oy <= maxY; oy++) {
    for (let ox = 0; ox <= maxX; ox++) {
      const c = cost(top.t, topLay, top.s, ox, oy);
      costs[oy * (maxX + 1) + ox] = c;
      // Ties go to the smaller move from the prediction.
      if (c < best - 1e-9 || (Math.abs(c - best) <= 1e-9 && Math.hypot(ox - top.r, oy - top.r) < Math.hypot(bx - top.r, by - top.r))) {
        best = c;
        bx = ox;
        by = oy;
      }
    }
  }
  work += costs.length * topLay.t.length;
  // The rival: the best placement at least a quarter of the object away from the best one.
  const away = Math.max(2, Math.min(top.t.w, top.t.h) / 4);
  let rx = -1;
  let ry = -1;
  let second = Infinity;
  for (let oy = 0; oy <= maxY; oy++) {
    for (let ox = 0; ox <= maxX; ox++) {
      const c = costs[oy * (maxX + 1) + ox];
      if (c < second && Math.hypot(ox - bx, oy - by) >= away) {
        second = c;
        rx = ox;
        ry = oy;
      }
    }
  }
  // Finer levels: +-2 around the doubled estimate, for the best and (kept `away` from it) the rival,
  // so the ambiguity compares full-resolution costs: at a coarse level an exact twin lying half a
  // coarse pixel off the grid looks worse than it is.
  for (let l = levels.length - 2; l >= 0; l--) {
    const lv = levels[l];
    const lay = layout(sampled(lv.idx), lv.t.w, lv.s.w);
    const scaledAway = away * 2 ** (levels.length - 1 - l);
    const refine = (px: number, py: number, keepFrom: { x: number; y: number } | null) => {
      const cx = 2 * (px - levels[l + 1].r) + lv.r;
      const cy = 2 * (py - levels[l + 1].r) + lv.r;
      let found = { x: cx, y: cy, c: Infinity };
      for (let oy = Math.max(0, cy - 2); oy <= Math.min(lv.s.h - lv.t.h, cy + 2); oy++) {
        for (let ox = Math.max(0, cx - 2); ox <= Math.min(lv.s.w - lv.t.w, cx + 2); ox++) {
          if (keepFrom && Math.hypot(ox - keepFrom.x, oy - keepFrom.y) < scaledAway) continue;
          const c = cost(lv.t, lay, lv.s, ox, oy);
          work += lay.t.length;
          if (c < found.c) found = { x: ox, y: oy, c };
        }
      }
      return found;
    };
    const b = refine(bx, by, null);
    bx = b.x;
    by = b.y;
    if (rx >= 0) {
      const r2 = refine(rx, ry, b);
      rx = r2.x;
      ry = r2.y;
      second = r2.c;
    }
  }
  const full = levels[0];
  const lay = layout(full.idx, full.t.w, full.s.w);
  const c0 = cost(full.t, lay, full.s, bx, by);
  work += lay.t.length;
  const ambiguity = Number.isFinite(second) ? Math.min(1, (c0 + 1) / (second + 1)) : 0;
  return { dx: pdx + bx - r, dy: pdy + by - r, rms: Math.sqrt(c0), ambiguity, work };
}
