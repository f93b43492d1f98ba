/**
 * Frame pixels for the assists (SAM tool, propagation, proposals): the shown frame from the editor's decoded-picture cache, and
 * every frame of a clip straight from the store (one at a time, so a long clip never holds more
 * than one decoded frame and never evicts the editor's cache).
 */
import type { RgbaImage } from '../../masks/labelMap';
import type { FrameImageCache } from '../../annotator/session/frameImages';
import type { SpocDb } from '../../store/db';
import { getFrameImage } from '../../store/frames';
import type { PrelabelFrame } from '../prelabel/prelabelClip';

function rgbaOf(bitmap: ImageBitmap): RgbaImage {
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(bitmap, 0, 0);
  const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
  return { width: data.width, height: data.height, data: data.data };
}

export async function shownFrameRgba(images: FrameImageCache, k: number): Promise<RgbaImage> {
  const bitmap = await images.get(k);
  if (!bitmap) throw new Error(`frame ${k + 1} has no stored image`);
  return rgbaOf(bitmap);
}

/** Every stored frame of the clip in order; a frame without a stored image is an error (nothing is written then). */
export async function* clipFrames(db: SpocDb, clipId: string, frameCount: number): AsyncGenerator<PrelabelFrame> {
  for (let k = 0; k < frameCount; k++) {
    const row = await getFrameImage(db, clipId, k);
    if (!row) throw new Error(`frame ${k + 1} has no stored image`);
    const bitmap = await createImageBitmap(row.blob);
    try {
      yield { index: k, image: rgbaOf(bitmap) };
    } finally {
      bitmap.close();
    }
  }
}
