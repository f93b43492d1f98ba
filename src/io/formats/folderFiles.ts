/**
 * Small pieces shared by the folder formats (WhereToChange, DAVIS): reading a file's bytes, finding
 * the frame size from a header without decoding, and turning a frame image into an output file.
 */
import { MAX_SIDE } from '../../masks/labelMap';
import type { VirtualFile } from '../files/virtualFile';
import { ImportError } from '../importError';
import { readImageSize, readImageSizeFromBlob } from '../images/imageSize';
import { imageExtension, type FrameImage, type OutFile } from './model';

export async function fileBytes(f: VirtualFile): Promise<Uint8Array> {
  return new Uint8Array(await f.blob.arrayBuffer());
}

export interface Size {
  width: number;
  height: number;
}

/** A frame size and the file (or metadata) it was read from, so a mask that differs can say where the size came from. */
export interface SizeFrom extends Size {
  from: string;
}

/**
 * The frame size from the first file whose header we can read (callers list frames first: they
 * are the truth masks must match). Refuses absurd declared sizes before any pixel buffer exists.
 */
export async function sizeFromHeaders(files: readonly VirtualFile[]): Promise<SizeFrom | null> {
  for (const f of files) {
    const size = f.path.toLowerCase().endsWith('.png')
      ? readImageSize(new Uint8Array(await f.blob.slice(0, 64).arrayBuffer()))
      : await readImageSizeFromBlob(f.blob);
    if (!size) continue;
    if (!(size.width > 0 && size.height > 0 && size.width <= MAX_SIDE && size.height <= MAX_SIDE)) {
      throw new ImportError(f.path, `declares a size of ${size.width}x${size.height}; the limit is 1..${MAX_SIDE} px per side`);
    }
    return { width: size.width, height: size.height, from: f.path };
  }
  return null;
}

/** The output file for one frame image, named after the frame with the extension of its type. */
export function frameImageFile(dir: string, name: string, image: FrameImage): OutFile {
  const mime = image.mime ?? (image.data instanceof Blob && image.data.type ? image.data.type : undefined);
  return { path: `${dir}/${name}.${imageExtension(mime)}`, data: image.data };
}
