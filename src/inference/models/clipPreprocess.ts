/**
 * CLIP image preprocessing as Hugging Face's CLIPImageProcessor does it for ViT-B/32: resize the
 * shortest side to 224 with Pillow's bicubic filter (long side truncated, as
 * get_resize_output_image_size does), centre-crop 224x224 (offsets floor((size - 224) / 2)),
 * scale to [0, 1] and normalise with CLIP's mean/std. The resize and crop are one resampling pass
 * over the kept region only.
 */
import type { RgbaImage } from '../../masks/labelMap';
import { resampleRgb } from './resample';

export const CLIP_SIDE = 224;
export const CLIP_MEAN = [0.48145466, 0.4578275, 0.40821073] as const;
export const CLIP_STD = [0.26862954, 0.26130258, 0.27577711] as const;

/** Size after "shortest side -> side" (long side truncated like int() in Python). */
export function clipResizeShape(width: number, height: number, side = CLIP_SIDE): { width: number; height: number } {
  if (width <= height) return { width: side, height: Math.trunc((side * height) / width) };
  return { width: Math.trunc((side * width) / height), height: side };
}

/** [3, side, side] float32, ready to be one item of pixel_values. */
export function clipPixelValues(image: RgbaImage, side = CLIP_SIDE): Float32Array {
  if (image.width <= 0 || image.height <= 0) throw new RangeError(`cannot embed an empty ${image.width}x${image.height} image`);
  const full = clipResizeShape(image.width, image.height, side);
  const left = Math.floor((full.width - side) / 2);
  const top = Math.floor((full.height - side) / 2);
  const rgb = resampleRgb(image, full.width, full.height, 'bicubic', { x: left, y: top, w: side, h: side });
  const plane = side * side;
  const out = new Float32Array(3 * plane);
  for (let c = 0; c < 3; c++) {
    const mean = CLIP_MEAN[c];
    const inv = 1 / CLIP_STD[c];
    for (let i = 0; i < plane; i++) out[c * plane + i] = (rgb[c * plane + i] / 255 - mean) * inv;
  }
  return out;
}
