/**
 * Mask propagation without model weights: Farneback dense optical flow between two frames, the
 * label map carried along it, and a confidence saying how much to trust the result.
 *
 * Backward warp: the flow is computed from `next` to `prev`, so every pixel of the next frame knows
 * where it came from and takes that pixel's label (nearest neighbour: labels are categories, never
 * blended). This leaves no holes, unlike pushing labels forward.
 *
 * Confidence (0–1) is the share of the carried object pixels (label ≠ 0 after warping; every pixel
 * when there is none) that pass two checks:
 *  - forward–backward consistency: following the backward flow to prev and the forward flow from
 *    there lands within `fbTolerance` px (default 1.5 + 5 % of the motion) of where it started;
 *  - brightness constancy: the grey level there differs by at most `photoTolerance` (default 24).
 * On a frame that really follows, both hold almost everywhere; on an unrelated frame the flow is
 * invented and one of them fails for most pixels.
 */
import type { LabelMap, RgbaImage } from '../../masks/labelMap';
import type { Cv } from './cv';
import { grayMat } from './images';

export interface FlowOptions {
  /** Flow is computed with the frames scaled so the longer side is at most this (default 640), then scaled back. */
  maxSide?: number;
  fbTolerance?: number;
  photoTolerance?: number;
}

export interface FlowPropagation {
  map: LabelMap;
  confidence: number;
}

type Mat = InstanceType<Cv['Mat']>;

/** Dense flow a -> b at reduced size, returned at full size in full-size pixels (CV_32FC2). */
function denseFlow(cv: Cv, a: Mat, b: Mat, scale: number): Mat {
  const flow = new cv.Mat();
  let sa = a;
  let sb = b;
  if (scale < 1) {
    const size = new cv.Size(Math.max(8, Math.round(a.cols * scale)), Math.max(8, Math.round(a.rows * scale)));
    sa = new cv.Mat();
    sb = new cv.Mat();
    cv.resize(a, sa, size, 0, 0, cv.INTER_AREA);
    cv.resize(b, sb, size, 0, 0, cv.INTER_AREA);
  }
  // 4 pyramid levels at scale 0.5 follow motions of ~30 px at the reduced size; a 21 px window
  // keeps the flow smooth over the weakly textured insides of objects.
  cv.calcOpticalFlowFarneback(sa, sb, flow, 0.5, 4, 21, 3, 5, 1.1, 0);
  if (scale >= 1) return flow;
  sa.delete();
  sb.delete();
  const up = new cv.Mat();
  cv.resize(flow, up, new cv.Size(a.cols, a.rows), 0, 0, cv.INTER_LINEAR);
  flow.delete();
  const f = up.data32F;
  const inv = a.cols / Math.max(8, Math.round(a.cols * scale));
  for (let i = 0; i < f.length; i++) f[i] *= inv;
  return up;
}

export function propagateByFlow(cv: Cv, prev: RgbaImage, next: RgbaImage, labels: LabelMap, options: FlowOptions = {}): FlowPropagation {
  const { width, height } = next;
  if (prev.width !== width || prev.height !== height || labels.width !== width || labels.height !== height) {
    throw new RangeError(`frames and labels differ in size: prev ${prev.width}x${prev.height}, next ${width}x${height}, labels ${labels.width}x${labels.height}`);
  }
  const scale = Math.min(1, (options.maxSide ?? 640) / Math.max(width, height));
  const fbTol = options.fbTolerance ?? 1.5;
  const photoTol = options.photoTolerance ?? 24;
  const g0 = grayMat(cv, prev);
  const g1 = grayMat(cv, next);
  const backward = denseFlow(cv, g1, g0, scale);
  const forward = denseFlow(cv, g0, g1, scale);
  const mapX = new cv.Mat(height, width, cv.CV_32FC1);
  const mapY = new cv.Mat(height, width, cv.CV_32FC1);
  const src = cv.matFromArray(height, width, cv.CV_8UC1, labels.data);
  const warped = new cv.Mat();
  try {
    const b = backward.data32F;
    const mx = mapX.data32F;
    const my = mapY.data32F;
    for (let y = 0, i = 0; y < height; y++) {
      for (let x = 0; x < width; x++, i++) {
        mx[i] = x + b[2 * i];
        my[i] = y + b[2 * i + 1];
      }
    }
    cv.remap(src, warped, mapX, mapY, cv.INTER_NEAREST, cv.BORDER_CONSTANT, new cv.Scalar(0, 0, 0, 0));
    const data = warped.data.slice();
    const f = forward.data32F;
    const p0 = g0.data;
    const p1 = g1.data;
    let anyObject = false;
    for (let i = 0; i < data.length; i++) if (data[i] !== 0) {
      anyObject = true;
      break;
    }
    let counted = 0;
    let good = 0;
    for (let i = 0; i < data.length; i++) {
      if (anyObject && data[i] === 0) continue;
      counted++;
      const px = mx[i];
      const py = my[i];
      const ix = Math.round(px);
      const iy = Math.round(py);
      if (ix < 0 || iy < 0 || ix >= width || iy >= height) continue;
      const j = iy * width + ix;
      const x = i % width;
      const y = (i - x) / width;
      const ex = px + f[2 * j] - x;
      const ey = py + f[2 * j + 1] - y;
      const motion = Math.hypot(b[2 * i], b[2 * i + 1]);
      if (Math.hypot(ex, ey) > fbTol + 0.05 * motion) continue;
      if (Math.abs(p1[i] - p0[j]) > photoTol) continue;
      good++;
    }
    return { map: { width, height, data }, confidence: counted > 0 ? good / counted : 0 };
  } finally {
    g0.delete();
    g1.delete();
    backward.delete();
    forward.delete();
    mapX.delete();
    mapY.delete();
    src.delete();
    warped.delete();
  }
}
