/**
 * A small colour/texture classifier for object states, trained on the clip's already-labelled
 * frames (no weights, no OpenCV): it learns what actionable, transformed and background pixels look
 * like in this very clip and labels another frame.
 *
 * Features per pixel: CIELAB L, a, b and the mean and standard deviation of L in a (2r+1)² window
 * (the std is the texture cue: grated shreds and peel are busier than a smooth surface).
 * Model: histogram naive Bayes — one 24-bin histogram per feature and class, Laplace-smoothed.
 * Histograms rather than one Gaussian per class because "background" is many colours at once.
 * Decision: per-pixel log-likelihoods are summed over a (2s+1)² window before the arg-max, so the
 * labels come out as regions rather than salt and pepper; the confidence is the winning class's
 * posterior share from those smoothed scores.
 *
 * With a target mask (the object the user has outlined), only the two states compete inside it and
 * everything outside stays background; without one, background competes too over the whole frame.
 */
import type { LabelMap, RgbaImage } from '../../masks/labelMap';

export const FEATURES = 5;
const BINS = 24;
/** Feature ranges mapped onto the bins (values outside are clamped). */
const RANGES: readonly [number, number][] = [
  [0, 100], // L
  [-60, 60], // a
  [-60, 60], // b
  [0, 100], // mean L
  [0, 24], // std L
];

export interface ClassifierOptions {
  /** Window radius of the texture features (default 3: 7x7). */
  textureRadius?: number;
  /** Window radius of the decision smoothing (default 3). */
  smoothRadius?: number;
  /** Pixels sampled per class and training frame (default 4000). */
  samplesPerClass?: number;
}

export interface StateModel {
  /** Classes seen in training (subset of 0, 1, 2). */
  classes: number[];
  /** log P(bin | class) per class: FEATURES * BINS entries each. */
  logLikelihood: Float32Array[];
  logPrior: number[];
  textureRadius: number;
  samples: number;
}

export interface StatePrediction {
  /** w*h: 0 background, 1 actionable, 2 transformed. */
  labels: Uint8Array;
  /** w*h posterior share of the chosen class (0 where nothing was predicted). */
  confidence: Float32Array;
  /** Mean confidence over the predicted pixels. */
  meanConfidence: number;
}

function srgbToLinear(c: number): number {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}
const LINEAR = Float32Array.from({ length: 256 }, (_, i) => srgbToLinear(i));
const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);

/** Per-pixel features, FEATURES floats per pixel. */
export function pixelFeatures(image: RgbaImage, textureRadius = 3): Float32Array {
  const { width, height, data } = image;
  const n = width * height;
  const out = new Float32Array(n * FEATURES);
  const L = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = LINEAR[data[4 * i]];
    const g = LINEAR[data[4 * i + 1]];
    const b = LINEAR[data[4 * i + 2]];
    const fx = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
    const fy = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
    const fz = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
    L[i] = 116 * fy - 16;
    out[i * FEATURES] = L[i];
    out[i * FEATURES + 1] = 500 * (fx - fy);
    out[i * FEATURES + 2] = 200 * (fy - fz);
  }
  // Integral images of L and L² give every window's mean and std in O(1).
  const w1 = width + 1;
  const s1 = new Float64Array(w1 * (height + 1));
  const s2 = new Float64Array(w1 * (height + 1));
  for (let y = 0; y < height; y++) {
    let r1 = 0;
    let r2 = 0;
    for (let x = 0; x < width; x++) {
      const v = L[y * width + x];
      r1 += v;
      r2 += v * v;
      s1[(y + 1) * w1 + x + 1] = s1[y * w1 + x + 1] + r1;
      s2[(y + 1) * w1 + x + 1] = s2[y * w1 + x + 1] + r2;
    }
  }
  const rad = textureRadius;
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - rad);
    const y1 = Math.min(height, y + rad + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - rad);
      const x1 = Math.min(width, x + rad + 1);
      const cnt = (y1 - y0) * (x1 - x0);
      const a = s1[y1 * w1 + x1] - s1[y0 * w1 + x1] - s1[y1 * w1 + x0] + s1[y0 * w1 + x0];
      const q = s2[y1 * w1 + x1] - s2[y0 * w1 + x1] - s2[y1 * w1 + x0] + s2[y0 * w1 + x0];
      const mean = a / cnt;
      const i = y * width + x;
      out[i * FEATURES + 3] = mean;
      out[i * FEATURES + 4] = Math.sqrt(Math.max(0, q / cnt - mean * mean));
    }
  }
  return out;
}

function bin(d: number, v: number): number {
  const [lo, hi] = RANGES[d];
  const b = Math.floor(((v - lo) / (hi - lo)) * BINS);
  return b < 0 ? 0 : b >= BINS ? BINS - 1 : b;
}

/** A deterministic sample of up to `count` indices out of `indices` (stride with a hashed offset). */
function sample(indices: number[], count: number, salt: number): number[] {
  if (indices.length <= count) return indices;
  const out: number[] = [];
  const step = indices.length / count;
  const offset = ((salt * 2654435761) >>> 0) / 4294967296;
  for (let k = 0; k < count; k++) out.push(indices[Math.floor((k + offset) * step)]);
  return out;
}

export interface TrainingFrame {
  image: RgbaImage;
  labels: LabelMap;
}

export function trainStateModel(frames: readonly TrainingFrame[], options: ClassifierOptions = {}): StateModel {
  const textureRadius = options.textureRadius ?? 3;
  const perClass = options.samplesPerClass ?? 4000;
  const counts = [0, 1, 2].map(() => new Float64Array(FEATURES * BINS));
  const totals = [0, 0, 0];
  for (const [fi, frame] of frames.entries()) {
    const { image, labels } = frame;
    if (image.width !== labels.width || image.height !== labels.height) {
      throw new RangeError(`training frame ${fi + 1}: image is ${image.width}x${image.height} but labels are ${labels.width}x${labels.height}`);
    }
    const feats = pixelFeatures(image, textureRadius);
    const byClass: number[][] = [[], [], []];
    for (let i = 0; i < labels.data.length; i++) {
      const c = labels.data[i];
      if (c <= 2) byClass[c].push(i);
    }
    for (let c = 0; c < 3; c++) {
      for (const i of sample(byClass[c], perClass, fi * 3 + c + 1)) {
        for (let d = 0; d < FEATURES; d++) counts[c][d * BINS + bin(d, feats[i * FEATURES + d])]++;
        totals[c]++;
      }
    }
  }
  const classes = [0, 1, 2].filter((c) => totals[c] > 0);
  if (classes.filter((c) => c !== 0).length === 0) throw new Error('no labelled actionable or transformed pixels to learn from');
  const all = classes.reduce((s, c) => s + totals[c], 0);
  return {
    classes,
    logLikelihood: classes.map((c) => {
      const ll = new Float32Array(FEATURES * BINS);
      for (let d = 0; d < FEATURES; d++) {
        for (let b = 0; b < BINS; b++) ll[d * BINS + b] = Math.log((counts[c][d * BINS + b] + 1) / (totals[c] + BINS));
      }
      return ll;
    }),
    logPrior: classes.map((c) => Math.log(totals[c] / all)),
    textureRadius,
    samples: all,
  };
}

/**
 * Labels `image`. With `targetMask` (w*h, non-zero = object) only states 1 and 2 compete inside it;
 * otherwise every trained class competes everywhere.
 */
export function predictStates(model: StateModel, image: RgbaImage, targetMask?: Uint8Array, options: ClassifierOptions = {}): StatePrediction {
  const { width, height } = image;
  const n = width * height;
  if (targetMask && targetMask.length !== n) throw new RangeError(`target mask has ${targetMask.length} pixels but the image has ${n}`);
  const use = model.classes.map((_, k) => k).filter((k) => !targetMask || model.classes[k] !== 0);
  const labels = new Uint8Array(n);
  const confidence = new Float32Array(n);
  if (use.length === 0) return { labels, confidence, meanConfidence: 0 };
  const feats = pixelFeatures(image, model.textureRadius);
  // Scores per used class, summed over a window through integral images.
  const s = options.smoothRadius ?? 3;
  const w1 = width + 1;
  const integrals = use.map((k) => {
    const ll = model.logLikelihood[k];
    const prior = model.logPrior[k];
    const sum = new Float64Array(w1 * (height + 1));
    for (let y = 0; y < height; y++) {
      let row = 0;
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        let v = 0;
        if (!targetMask || targetMask[i]) {
          v = prior;
          for (let d = 0; d < FEATURES; d++) v += ll[d * BINS + bin(d, feats[i * FEATURES + d])];
        }
        row += v;
        sum[(y + 1) * w1 + x + 1] = sum[y * w1 + x + 1] + row;
      }
    }
    return sum;
  });
  // Pixels of the mask per window, so scores are averaged over the pixels that contributed.
  const count = new Float64Array(targetMask ? w1 * (height + 1) : 0);
  if (targetMask) {
    for (let y = 0; y < height; y++) {
      let row = 0;
      for (let x = 0; x < width; x++) {
        row += targetMask[y * width + x] ? 1 : 0;
        count[(y + 1) * w1 + x + 1] = count[y * w1 + x + 1] + row;
      }
    }
  }
  let confSum = 0;
  let predicted = 0;
  const scores = new Float64Array(use.length);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - s);
    const y1 = Math.min(height, y + s + 1);
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (targetMask && !targetMask[i]) continue;
      const x0 = Math.max(0, x - s);
      const x1 = Math.min(width, x + s + 1);
      // Average per pixel so windows clipped at the border or at the mask edge weigh the same.
      const inside = targetMask ? count[y1 * w1 + x1] - count[y0 * w1 + x1] - count[y1 * w1 + x0] + count[y0 * w1 + x0] : (y1 - y0) * (x1 - x0);
      let best = 0;
      for (let u = 0; u < use.length; u++) {
        const sum = integrals[u];
        scores[u] = (sum[y1 * w1 + x1] - sum[y0 * w1 + x1] - sum[y1 * w1 + x0] + sum[y0 * w1 + x0]) / inside;
        if (scores[u] > scores[best]) best = u;
      }
      let z = 0;
      for (let u = 0; u < use.length; u++) z += Math.exp(scores[u] - scores[best]);
      labels[i] = model.classes[use[best]];
      confidence[i] = 1 / z;
      confSum += 1 / z;
      predicted++;
    }
  }
  return { labels, confidence, meanConfidence: predicted > 0 ? confSum / predicted : 0 };
}
