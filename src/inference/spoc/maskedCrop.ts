/**
 * The image CLIP sees for one proposal: the frame cropped to the mask's box (plus an optional
 * margin), with pixels outside the mask replaced by a fill colour so that CLIP judges the region,
 * not its surroundings. The default fill is CLIP's mean colour, which normalises to ~0 — the least
 * informative input; black is the other common choice.
 */
import type { RgbaImage } from '../../masks/labelMap';
import type { CroppedMask } from './croppedMask';

/** CLIP's pixel mean on the 0..255 scale, rounded. */
export const CLIP_MEAN_RGB: readonly [number, number, number] = [123, 117, 104];

export interface MaskedCropOptions {
  /** Extra pixels around the box on each side (clipped to the frame). Default 0. */
  margin?: number;
  fill?: readonly [number, number, number];
}

export function maskedCrop(frame: RgbaImage, mask: CroppedMask, options: MaskedCropOptions = {}): RgbaImage {
  if (frame.width !== mask.frameWidth || frame.height !== mask.frameHeight) {
    throw new RangeError(`mask is for a ${mask.frameWidth}x${mask.frameHeight} frame, image is ${frame.width}x${frame.height}`);
  }
  if (mask.area === 0) throw new RangeError('cannot crop an empty mask');
  const margin = Math.max(0, Math.floor(options.margin ?? 0));
  const [fr, fg, fb] = options.fill ?? CLIP_MEAN_RGB;
  const x0 = Math.max(0, mask.box.x - margin);
  const y0 = Math.max(0, mask.box.y - margin);
  const x1 = Math.min(frame.width, mask.box.x + mask.box.w + margin);
  const y1 = Math.min(frame.height, mask.box.y + mask.box.h + margin);
  const w = x1 - x0;
  const h = y1 - y0;
  const out = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) {
    const fy = y + y0;
    const my = fy - mask.box.y;
    for (let x = 0; x < w; x++) {
      const fx = x + x0;
      const mx = fx - mask.box.x;
      const inside = my >= 0 && my < mask.box.h && mx >= 0 && mx < mask.box.w && mask.data[my * mask.box.w + mx] !== 0;
      const o = (y * w + x) * 4;
      if (inside) {
        const s = (fy * frame.width + fx) * 4;
        out[o] = frame.data[s];
        out[o + 1] = frame.data[s + 1];
        out[o + 2] = frame.data[s + 2];
      } else {
        out[o] = fr;
        out[o + 1] = fg;
        out[o + 2] = fb;
      }
      out[o + 3] = 255;
    }
  }
  return { width: w, height: h, data: out };
}
