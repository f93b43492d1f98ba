/**
 * Simulated lossy video/JPEG damage for tests (no real codec runs in Node): additive noise, box
 * blur, 8x8 block-DCT quantisation of luma with 2x2-subsampled chroma (JPEG-like), studio-range
 * levels and brightness changes. All pure functions returning new images.
 */
import type { RgbaImage } from '../masks/labelMap';
import { createRng } from './random';

function clone(img: RgbaImage): { width: number; height: number; data: Uint8ClampedArray } {
  return { width: img.width, height: img.height, data: new Uint8ClampedArray(img.data) };
}

/** Adds uniform noise in [-amp, amp] to every colour channel independently. */
export function addNoise(img: RgbaImage, amp: number, seed = 1): RgbaImage {
  const out = clone(img);
  const rng = createRng(seed);
  const d = out.data;
  for (let i = 0; i < d.length; i += 4) {
    d[i] += Math.round(rng.signed() * amp);
    d[i + 1] += Math.round(rng.signed() * amp);
    d[i + 2] += Math.round(rng.signed() * amp);
  }
  return out;
}

/** Box blur with a (2r+1) x (2r+1) kernel, edges clamped. */
export function boxBlur(img: RgbaImage, r: number): RgbaImage {
  const { width: w, height: h } = img;
  const tmp = new Float32Array(w * h * 4);
  const out = clone(img);
  const n = 2 * r + 1;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let k = -r; k <= r; k++) s += img.data[(y * w + Math.min(w - 1, Math.max(0, x + k))) * 4 + c];
        tmp[(y * w + x) * 4 + c] = s / n;
      }
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let k = -r; k <= r; k++) s += tmp[(Math.min(h - 1, Math.max(0, y + k)) * w + x) * 4 + c];
        out.data[(y * w + x) * 4 + c] = Math.round(s / n);
      }
    }
  }
  return out;
}

/** Maps full-range RGB to studio range (16..235) and back with rounding, as a decoder may. */
export function studioRange(img: RgbaImage): RgbaImage {
  const out = clone(img);
  const d = out.data;
  for (let i = 0; i < d.length; i++) if (i % 4 !== 3) d[i] = Math.round(16 + (Math.round(d[i]) * 219) / 255);
  return out;
}

export function scaleBrightness(img: RgbaImage, k: number, offset = 0): RgbaImage {
  const out = clone(img);
  const d = out.data;
  for (let i = 0; i < d.length; i++) if (i % 4 !== 3) d[i] = d[i] * k + offset;
  return out;
}

const JPEG_LUMA_Q = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22,
  37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];

/** JPEG-like compression at quality 1..100: 8x8 DCT quantisation of Y, 2x2-averaged and quantised Cb/Cr. */
export function jpegLike(img: RgbaImage, quality = 50): RgbaImage {
  const { width: w, height: h } = img;
  const scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
  const q = JPEG_LUMA_Q.map((v) => Math.max(1, Math.floor((v * scale + 50) / 100)));
  const Y = new Float64Array(w * h);
  const Cb = new Float64Array(w * h);
  const Cr = new Float64Array(w * h);
  const d = img.data;
  for (let i = 0; i < w * h; i++) {
    const r = d[i * 4];
    const g = d[i * 4 + 1];
    const b = d[i * 4 + 2];
    Y[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    Cb[i] = -0.168736 * r - 0.331264 * g + 0.5 * b;
    Cr[i] = 0.5 * r - 0.418688 * g - 0.081312 * b;
  }
  const cos = new Float64Array(64);
  for (let x = 0; x < 8; x++) for (let u = 0; u < 8; u++) cos[x * 8 + u] = Math.cos(((2 * x + 1) * u * Math.PI) / 16);
  const alpha = (u: number): number => (u === 0 ? Math.SQRT1_2 : 1);
  const block = new Float64Array(64);
  const coef = new Float64Array(64);
  for (let by = 0; by < h; by += 8) {
    for (let bx = 0; bx < w; bx += 8) {
      for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) block[y * 8 + x] = Y[Math.min(h - 1, by + y) * w + Math.min(w - 1, bx + x)] - 128;
      for (let v = 0; v < 8; v++) {
        for (let u = 0; u < 8; u++) {
          let s = 0;
          for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) s += block[y * 8 + x] * cos[x * 8 + u] * cos[y * 8 + v];
          const c = 0.25 * alpha(u) * alpha(v) * s;
          coef[v * 8 + u] = Math.round(c / q[v * 8 + u]) * q[v * 8 + u];
        }
      }
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 8; x++) {
          let s = 0;
          for (let v = 0; v < 8; v++) for (let u = 0; u < 8; u++) s += alpha(u) * alpha(v) * coef[v * 8 + u] * cos[x * 8 + u] * cos[y * 8 + v];
          if (by + y < h && bx + x < w) Y[(by + y) * w + bx + x] = 0.25 * s + 128;
        }
      }
    }
  }
  const cstep = Math.max(1, Math.round(scale / 10));
  const out = clone(img);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // 2x2 chroma average, coarsely quantised.
      const x0 = x & ~1;
      const y0 = y & ~1;
      let cb = 0;
      let cr = 0;
      let n = 0;
      for (let yy = y0; yy < Math.min(h, y0 + 2); yy++) {
        for (let xx = x0; xx < Math.min(w, x0 + 2); xx++) {
          cb += Cb[yy * w + xx];
          cr += Cr[yy * w + xx];
          n++;
        }
      }
      cb = Math.round(cb / n / cstep) * cstep;
      cr = Math.round(cr / n / cstep) * cstep;
      const yv = Y[y * w + x];
      const i = (y * w + x) * 4;
      out.data[i] = yv + 1.402 * cr;
      out.data[i + 1] = yv - 0.344136 * cb - 0.714136 * cr;
      out.data[i + 2] = yv + 1.772 * cb;
    }
  }
  return out;
}

/** Nearest-neighbour crop of the top-left region (tests keep images small for speed). */
export function cropTopLeft(img: RgbaImage, w: number, h: number): RgbaImage {
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) data.set(img.data.subarray(y * img.width * 4, (y * img.width + w) * 4), y * w * 4);
  return { width: w, height: h, data };
}
