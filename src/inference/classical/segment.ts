/**
 * Weight-free segmentation on OpenCV.js: GrabCut from a box, a colour region from a click and an
 * intelligent-scissors boundary between clicks. Pure functions of (cv, pixels, prompt) so they run
 * the same in the classical worker and in Node tests with the real OpenCV build.
 */
import type { Box, RgbaImage } from '../../masks/labelMap';
import type { Cv, CvExtras } from './cv';
import { clipBox, fillHoles, keepMainComponents, rgbMat } from './images';

export interface GrabCutOptions {
  /** GrabCut iterations (default 5). */
  iterations?: number;
  /**
   * The crop (box plus margin) is scaled down so its longer side is at most this many pixels before
   * GrabCut runs (default 480): GrabCut's cost grows with pixels while the colour models do not need
   * them, so a 1080p box costs about the same as a 360p one. The mask is scaled back up.
   */
  maxSide?: number;
  /** Background margin around the box, as a fraction of the box's longer side (default 0.15). */
  margin?: number;
}

/**
 * GrabCut initialised with `box`: everything outside the box is background, inside is "probably
 * foreground", and colour models of both are refined iteratively. Only the box plus a margin is
 * processed (the margin supplies the background model). Returns a w*h 0/1 mask cleaned of specks
 * and holes.
 */
export function grabCut(cv: Cv, image: RgbaImage, box: Box, options: GrabCutOptions = {}): Uint8Array {
  const { width, height } = image;
  const inner = clipBox(box, width, height);
  const out = new Uint8Array(width * height);
  if (!inner || inner.w < 3 || inner.h < 3) return out;
  const pad = Math.max(8, Math.round(Math.max(inner.w, inner.h) * (options.margin ?? 0.15)));
  const crop = clipBox({ x: inner.x - pad, y: inner.y - pad, w: inner.w + 2 * pad, h: inner.h + 2 * pad }, width, height)!;
  const scale = Math.min(1, (options.maxSide ?? 480) / Math.max(crop.w, crop.h));
  const full = rgbMat(cv, image);
  const roi = full.roi(new cv.Rect(crop.x, crop.y, crop.w, crop.h));
  const small = new cv.Mat();
  const mask = new cv.Mat();
  const bgd = new cv.Mat();
  const fgd = new cv.Mat();
  const up = new cv.Mat();
  try {
    const sw = Math.max(1, Math.round(crop.w * scale));
    const sh = Math.max(1, Math.round(crop.h * scale));
    if (scale < 1) cv.resize(roi, small, new cv.Size(sw, sh), 0, 0, cv.INTER_AREA);
    else roi.copyTo(small);
    const rx = Math.floor((inner.x - crop.x) * scale);
    const ry = Math.floor((inner.y - crop.y) * scale);
    const rect = new cv.Rect(rx, ry, Math.max(1, Math.min(sw - rx, Math.ceil(inner.w * scale))), Math.max(1, Math.min(sh - ry, Math.ceil(inner.h * scale))));
    cv.grabCut(small, mask, rect, bgd, fgd, options.iterations ?? 5, cv.GC_INIT_WITH_RECT);
    // GC_FGD (1) and GC_PR_FGD (3) are foreground.
    const fg = new cv.Mat(sh, sw, cv.CV_8UC1);
    const m = mask.data;
    for (let i = 0; i < m.length; i++) fg.data[i] = m[i] & 1 ? 255 : 0;
    if (scale < 1) cv.resize(fg, up, new cv.Size(crop.w, crop.h), 0, 0, cv.INTER_LINEAR);
    else fg.copyTo(up);
    fg.delete();
    const cw = crop.w;
    const local = new Uint8Array(cw * crop.h);
    // Nothing outside the user's box, whatever the upsampling blurred.
    for (let y = inner.y - crop.y; y < inner.y - crop.y + inner.h; y++) {
      for (let x = inner.x - crop.x; x < inner.x - crop.x + inner.w; x++) local[y * cw + x] = up.data[y * cw + x] >= 128 ? 1 : 0;
    }
    const cleaned = fillHoles(keepMainComponents(cv, local, cw, crop.h, { minFraction: 0.1 }), cw, crop.h);
    for (let y = 0; y < crop.h; y++) out.set(cleaned.subarray(y * cw, (y + 1) * cw), (crop.y + y) * width + crop.x);
    return out;
  } finally {
    full.delete();
    roi.delete();
    small.delete();
    mask.delete();
    bgd.delete();
    fgd.delete();
    up.delete();
  }
}

export interface RegionOptions {
  /**
   * Largest difference from the clicked colour per CIELAB channel (8-bit OpenCV scale: L 0–255,
   * a and b offset by 128) that may join the region (default 30). FIXED_RANGE compares with the
   * seed, not with neighbours, so a slow gradient cannot carry the fill across the frame.
   */
  tolerance?: number;
  /**
   * Grow the tolerance step by step up to `tolerance` and stop before a leak: the first step whose
   * region is more than 2.5x the previous one and covers over a quarter of the frame or newly
   * reaches its edge has spilled into the surroundings; among the steps before it the most stable
   * one (area changing least between its neighbours) is kept. Default true; false fills at
   * `tolerance` at once.
   */
  adaptive?: boolean;
  /** Median blur (odd px, default 5) before filling, so JPEG noise and fine texture do not stop it. */
  smooth?: number;
}

const LADDER = [4, 6, 8, 10, 12, 14, 16, 18, 21, 24, 27, 30, 35, 40, 50, 60, 80, 100];

/**
 * Index of the most stable step (MSER's idea): the one whose area changes least, relative to
 * itself, between its neighbouring steps; ties go to the larger tolerance. A region that has found
 * its colour edge stops growing while the tolerance still rises; a slow creep into similar
 * surroundings does not.
 */
function mostStable(areas: readonly number[]): number {
  if (areas.length < 3) return areas.length - 1;
  let best = 1;
  let bestQ = Infinity;
  for (let i = 1; i < areas.length - 1; i++) {
    const q = (areas[i + 1] - areas[i - 1]) / Math.max(1, areas[i]);
    if (q <= bestQ) {
      bestQ = q;
      best = i;
    }
  }
  return best;
}

/**
 * The region of similar colour around `point`: a fixed-range flood fill in Lab on a smoothed copy
 * (with the leak-stopping tolerance ladder), opened to cut thin bridges and specks, reduced to the
 * component under the click, holes filled. Returns a w*h 0/1 mask (empty outside the image).
 */
export function regionFromClick(cv: Cv, image: RgbaImage, point: { x: number; y: number }, options: RegionOptions = {}): Uint8Array {
  const { width, height } = image;
  const sx = Math.floor(point.x);
  const sy = Math.floor(point.y);
  const out = new Uint8Array(width * height);
  if (sx < 0 || sy < 0 || sx >= width || sy >= height) return out;
  const max = options.tolerance ?? 30;
  const k = Math.max(1, (options.smooth ?? 5) | 1);
  const rgb = rgbMat(cv, image);
  const lab = new cv.Mat();
  const mask = new cv.Mat();
  const opened = new cv.Mat();
  const kernel = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(3, 3));
  const flags = 4 | cv.FLOODFILL_FIXED_RANGE | cv.FLOODFILL_MASK_ONLY | (1 << 8);
  const rect = new cv.Rect();
  /** Fills at `tol`; returns the area and whether the region reaches the frame's edge. */
  const fill = (tol: number): { area: number; edge: boolean } => {
    mask.create(height + 2, width + 2, cv.CV_8UC1);
    mask.setTo(new cv.Scalar(0, 0, 0, 0));
    const diff = new cv.Scalar(tol, tol, tol, 0);
    const area = cv.floodFill(lab, mask, new cv.Point(sx, sy), new cv.Scalar(0, 0, 0, 0), rect, diff, diff, flags);
    // floodFill reports the filled box through `rect` only in some builds; scan the mask's border instead.
    const m = mask.data;
    const w2 = width + 2;
    let edge = false;
    for (let x = 1; x <= width && !edge; x++) edge = m[w2 + x] !== 0 || m[height * w2 + x] !== 0;
    for (let y = 1; y <= height && !edge; y++) edge = m[y * w2 + 1] !== 0 || m[y * w2 + width] !== 0;
    return { area, edge };
  };
  try {
    if (k > 1) cv.medianBlur(rgb, rgb, k);
    cv.cvtColor(rgb, lab, cv.COLOR_RGB2Lab);
    let tol = max;
    if (options.adaptive ?? true) {
      const steps = [...LADDER.filter((t) => t < max), max];
      const areas: number[] = [];
      let last = fill(steps[0]);
      areas.push(last.area);
      for (const t of steps.slice(1)) {
        const next = fill(t);
        // A leak: the region suddenly multiplies and spills over a quarter of the frame or out to
        // its edge. Growth inside one object (shading, texture) does neither.
        if (next.area > 2.5 * last.area && (next.area > 0.25 * width * height || (next.edge && !last.edge))) break;
        areas.push(next.area);
        last = next;
      }
      tol = steps[mostStable(areas)];
    }
    fill(tol);
    const inner = mask.roi(new cv.Rect(1, 1, width, height));
    const raw = new cv.Mat();
    inner.copyTo(raw);
    inner.delete();
    cv.morphologyEx(raw, opened, cv.MORPH_OPEN, kernel);
    // Opening can remove a thin region entirely; keep the raw fill then.
    const region = opened.data[sy * width + sx] ? opened.data.slice() : raw.data.slice();
    raw.delete();
    return fillHoles(keepMainComponents(cv, region, width, height, { seed: { x: sx, y: sy } }), width, height);
  } finally {
    rgb.delete();
    lab.delete();
    mask.delete();
    opened.delete();
    kernel.delete();
  }
}

/**
 * A closed boundary through the clicked points that follows image edges (OpenCV's
 * IntelligentScissorsMB: Canny edges + gradient cost, shortest path between consecutive points,
 * the last back to the first). Returns the contour's pixel points in order.
 */
export function scissorsPath(cv: Cv, image: RgbaImage, points: readonly { x: number; y: number }[]): { x: number; y: number }[] {
  if (points.length < 2) return points.map((p) => ({ x: Math.round(p.x), y: Math.round(p.y) }));
  const { width, height } = image;
  const clamp = (p: { x: number; y: number }) => new cv.Point(Math.max(0, Math.min(width - 1, Math.round(p.x))), Math.max(0, Math.min(height - 1, Math.round(p.y))));
  const tool = new (cv as unknown as CvExtras).segmentation_IntelligentScissorsMB();
  const rgb = rgbMat(cv, image);
  const contour = new cv.Mat();
  const path: { x: number; y: number }[] = [];
  try {
    tool.setEdgeFeatureCannyParameters(32, 100);
    tool.setGradientMagnitudeMaxLimit(200);
    tool.applyImage(rgb);
    for (let i = 0; i < points.length; i++) {
      const from = clamp(points[i]);
      const to = clamp(points[(i + 1) % points.length]);
      tool.buildMap(from);
      tool.getContour(to, contour);
      // The contour runs from `from` to `to`; each segment starts where the previous one ended.
      const d = contour.data32S;
      for (let j = path.length > 0 ? 2 : 0; j + 1 < d.length; j += 2) path.push({ x: d[j], y: d[j + 1] });
    }
    return path;
  } finally {
    tool.delete();
    rgb.delete();
    contour.delete();
  }
}

/**
 * The region enclosed by the scissors path through `points` (at least 3): the contour of
 * scissorsPath filled as a polygon. Returns the path too, for drawing.
 */
export function scissorsRegion(cv: Cv, image: RgbaImage, points: readonly { x: number; y: number }[]): { path: { x: number; y: number }[]; mask: Uint8Array } {
  const { width, height } = image;
  const mask = new Uint8Array(width * height);
  if (points.length < 3) return { path: [], mask };
  const path = scissorsPath(cv, image, points);
  const poly = cv.matFromArray(path.length, 1, cv.CV_32SC2, path.flatMap((p) => [p.x, p.y]));
  const polys = new cv.MatVector();
  const canvas = cv.Mat.zeros(height, width, cv.CV_8UC1);
  try {
    polys.push_back(poly);
    cv.fillPoly(canvas, polys, new cv.Scalar(1, 0, 0, 0));
    mask.set(canvas.data);
    return { path, mask };
  } finally {
    poly.delete();
    polys.delete();
    canvas.delete();
  }
}
