/** Browser-only image helpers (createImageBitmap, OffscreenCanvas). */
import { ImportError } from '../importError';

/** Fully decodes an image to prove its body is intact; throws an ImportError naming the file. */
export async function decodeCheck(image: Blob, path: string): Promise<void> {
  let bitmap: ImageBitmap | null = null;
  try {
    bitmap = await createImageBitmap(image);
  } catch {
    throw new ImportError(path, 'is not a readable image (its data is corrupt or truncated)');
  } finally {
    bitmap?.close();
  }
}

/** A small JPEG for the dashboard card; never the full frame. */
export async function makeThumbnail(image: Blob, width = 256): Promise<Blob> {
  const bitmap = await createImageBitmap(image, { resizeWidth: width, resizeQuality: 'medium' });
  try {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
    return await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.8 });
  } finally {
    bitmap.close();
  }
}
