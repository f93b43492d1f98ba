/**
 * SAM's frame geometry and prompt encoding, shared by both SAM adapters.
 *
 * Coordinates: prompts are given in continuous frame coordinates, where pixel (i, j) covers
 * [i, i+1) x [j, j+1) and its centre is (i + 0.5, j + 0.5) — the convention of SAM's half-pixel
 * mask up-sampling, and what a pointer position mapped into the image gives. Callers holding an
 * integer pixel index should add 0.5.
 */
import type { RgbaImage } from '../../masks/labelMap';
import { resampleRgb } from './resample';

export const SAM_SIDE = 1024;
export const SAM_LOW_RES = 256;
/** segment-anything's pixel statistics, on the 0..255 scale (ImageNet's, times 255). */
export const SAM_PIXEL_MEAN = [123.675, 116.28, 103.53] as const;
export const SAM_PIXEL_STD = [58.395, 57.12, 57.375] as const;

export interface SamGeometry {
  /** Original frame size. */
  width: number;
  height: number;
  /** Size after "longest side -> 1024" (before zero padding to 1024 x 1024). */
  resizedWidth: number;
  resizedHeight: number;
}

/** ResizeLongestSide.get_preprocess_shape: scale so the longest side is `side`, round half up. */
export function samGeometry(width: number, height: number, side = SAM_SIDE): SamGeometry {
  if (!(width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height))) {
    throw new RangeError(`invalid frame size ${width}x${height}`);
  }
  const scale = side / Math.max(width, height);
  return { width, height, resizedWidth: Math.floor(width * scale + 0.5), resizedHeight: Math.floor(height * scale + 0.5) };
}

/**
 * The encoder input: resize (Pillow bilinear, as segment-anything does), normalise with SAM's
 * mean/std, zero-pad bottom/right to side x side. Planar CHW float32, batch 1.
 * Padding is applied after normalising, so padded pixels are 0 in the normalised space.
 */
export function samPixelValues(image: RgbaImage, side = SAM_SIDE): { data: Float32Array; geometry: SamGeometry } {
  const geometry = samGeometry(image.width, image.height, side);
  const { resizedWidth: rw, resizedHeight: rh } = geometry;
  const rgb = resampleRgb(image, rw, rh, 'bilinear');
  const data = new Float32Array(3 * side * side);
  const plane = rw * rh;
  for (let c = 0; c < 3; c++) {
    const mean = SAM_PIXEL_MEAN[c];
    const inv = 1 / SAM_PIXEL_STD[c];
    for (let y = 0; y < rh; y++) {
      const src = c * plane + y * rw;
      const dst = c * side * side + y * side;
      for (let x = 0; x < rw; x++) data[dst + x] = (rgb[src + x] - mean) * inv;
    }
  }
  return { data, geometry };
}

/** ResizeLongestSide.apply_coords: frame coordinates -> the resized (1024) frame. */
export function toModelFrame(x: number, y: number, g: SamGeometry): [number, number] {
  return [x * (g.resizedWidth / g.width), y * (g.resizedHeight / g.height)];
}

export interface SamPoint {
  x: number;
  y: number;
  /** true: include (foreground click), false: exclude (background click). */
  positive: boolean;
}

/** Corners in frame coordinates. */
export interface SamBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface SamPrompt {
  points: readonly SamPoint[];
  box?: SamBox;
  /**
   * Low-resolution logits (256 x 256) of a previous prediction on the same frame, to refine it
   * (SAM's mask_input). Use the `lowRes` of the candidate the user kept.
   */
  maskInput?: Float32Array;
}

export function validatePrompt(p: SamPrompt): void {
  if (p.points.length === 0 && !p.box) throw new RangeError('a SAM prompt needs at least one point or a box');
  for (const pt of p.points) {
    if (!Number.isFinite(pt.x) || !Number.isFinite(pt.y)) throw new RangeError(`prompt point (${pt.x}, ${pt.y}) is not finite`);
  }
  if (p.box) {
    const { x0, y0, x1, y1 } = p.box;
    if (![x0, y0, x1, y1].every(Number.isFinite)) throw new RangeError('prompt box has a non-finite corner');
  }
  if (p.maskInput && p.maskInput.length !== SAM_LOW_RES * SAM_LOW_RES) {
    throw new RangeError(`maskInput must hold ${SAM_LOW_RES}x${SAM_LOW_RES} logits, got ${p.maskInput.length}`);
  }
}

/**
 * Points and labels for the official decoder export, in the 1024 frame: clicks labelled 1/0, a box
 * as its top-left (2) and bottom-right (3) corners, and when there is no box one padding point
 * (0, 0) labelled -1 — exactly what SamPredictor / the ONNX example feed.
 */
export function officialPromptArrays(p: SamPrompt, g: SamGeometry): { coords: Float32Array; labels: Float32Array; count: number } {
  validatePrompt(p);
  const coords: number[] = [];
  const labels: number[] = [];
  for (const pt of p.points) {
    coords.push(...toModelFrame(pt.x, pt.y, g));
    labels.push(pt.positive ? 1 : 0);
  }
  if (p.box) {
    const { x0, y0, x1, y1 } = normaliseBox(p.box);
    coords.push(...toModelFrame(x0, y0, g), ...toModelFrame(x1, y1, g));
    labels.push(2, 3);
  } else {
    coords.push(0, 0);
    labels.push(-1);
  }
  return { coords: Float32Array.from(coords), labels: Float32Array.from(labels), count: labels.length };
}

/** A box dragged in any direction, as top-left / bottom-right. */
export function normaliseBox(b: SamBox): SamBox {
  return { x0: Math.min(b.x0, b.x1), y0: Math.min(b.y0, b.y1), x1: Math.max(b.x0, b.x1), y1: Math.max(b.y0, b.y1) };
}
