/**
 * Turns a set of image files (a picked folder, a zip) into one clip's ordered frame list, checking
 * what would otherwise surface later as a broken clip: no images, unreadable images, frames of
 * mixed sizes, sizes beyond the limit, images spread over several folders, duplicate names.
 */
import { MAX_SIDE } from '../../masks/labelMap';
import { ImportError, throwIfAborted } from '../importError';
import { mimeFor } from '../files/zipArchive';
import { baseName, extension, isJunkPath, naturalCompare, stem, type VirtualFile } from '../files/virtualFile';
import { readImageSizeFromBlob, type ImageSize } from './imageSize';

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp', 'bmp'] as const;

export function isImagePath(path: string): boolean {
  return (IMAGE_EXTENSIONS as readonly string[]).includes(extension(path)) && !isJunkPath(path);
}

export interface SequenceFrame {
  path: string;
  image: Blob;
  mime: string;
}

export interface ImageSequence {
  width: number;
  height: number;
  frames: SequenceFrame[];
}

/**
 * Decodes one image fully (in the browser: createImageBitmap) and throws if it cannot; header
 * sizes say nothing about a corrupt body. Injected so the ordering and checks run in Node too.
 */
export type DecodeCheck = (image: Blob, path: string) => Promise<void>;

export interface SequenceOptions {
  decodeCheck?: DecodeCheck;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

export async function buildImageSequence(
  files: VirtualFile[],
  sourceName: string,
  options: SequenceOptions = {},
): Promise<ImageSequence> {
  const images = files.filter((f) => isImagePath(f.path)).sort((a, b) => naturalCompare(a.path, b.path));
  if (images.length === 0) {
    throw new ImportError(sourceName, `contains no images (${IMAGE_EXTENSIONS.map((e) => '.' + e).join(', ')})`);
  }
  const folders = [...new Set(images.map((f) => f.path.slice(0, Math.max(0, f.path.lastIndexOf('/')))))];
  if (folders.length > 1) {
    const shown = folders.slice(0, 3).map((f) => `"${f || '.'}"`).join(', ');
    throw new ImportError(
      sourceName,
      `holds images in ${folders.length} folders (${shown}${folders.length > 3 ? ', …' : ''}); import one folder per clip, or use the WhereToChange layout`,
    );
  }
  const stems = new Map<string, string>();
  for (const f of images) {
    const s = stem(f.path).toLowerCase();
    const other = stems.get(s);
    if (other) throw new ImportError(sourceName, `has two frames named "${s}" (${baseName(other)} and ${baseName(f.path)})`);
    stems.set(s, f.path);
  }
  return checkFrames(images, options);
}

/**
 * The size an image header declares, when it can be a frame; else `fail` with the problem: not a
 * recognised image, or a size that would allocate more than any frame may. Shared by folder, zip
 * and bundle imports, so all three refuse the same headers with the same words.
 */
export function usableFrameSize(size: ImageSize | null, fail: (problem: string) => never): ImageSize {
  if (!size) return fail('is not a readable image (unrecognised or truncated header)');
  if (size.width <= 0 || size.height <= 0 || size.width > MAX_SIDE || size.height > MAX_SIDE) {
    return fail(`declares a size of ${size.width}x${size.height}; the limit is 1..${MAX_SIDE} px per side`);
  }
  return size;
}

/** Size and decode checks shared by plain sequences and WhereToChange clips. */
export async function checkFrames(images: VirtualFile[], options: SequenceOptions = {}): Promise<ImageSequence> {
  let width = 0;
  let height = 0;
  const frames: SequenceFrame[] = [];
  for (let i = 0; i < images.length; i++) {
    throwIfAborted(options.signal);
    const f = images[i];
    const size = usableFrameSize(await readImageSizeFromBlob(f.blob), (problem) => {
      throw new ImportError(f.path, problem);
    });
    if (i === 0) {
      width = size.width;
      height = size.height;
    } else if (size.width !== width || size.height !== height) {
      throw new ImportError(
        f.path,
        `is ${size.width}x${size.height} but the first frame (${baseName(images[0].path)}) is ${width}x${height}; all frames of a clip must share one size`,
      );
    }
    if (options.decodeCheck) await options.decodeCheck(f.blob, f.path);
    frames.push({ path: f.path, image: f.blob.type ? f.blob : new Blob([f.blob], { type: mimeFor(f.path) }), mime: f.blob.type || mimeFor(f.path) });
    options.onProgress?.(i + 1, images.length);
  }
  return { width, height, frames };
}
