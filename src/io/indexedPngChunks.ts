/**
 * Structural checks on PNG bytes made before any pixel is decoded, so that hostile or broken files
 * fail fast with a clear message instead of allocating gigabytes or surfacing a decoder's internals:
 * the signature, an IHDR whose size we accept, every chunk inside the file, an IEND, and image data
 * that inflates to what the header promises (a "zip bomb" is cut off soon after that size).
 */
import { Unzlib } from 'fflate';
import { MaskFormatError } from '../masks/errors';
import { MAX_SIDE } from '../masks/labelMap';

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

export const COLOR_TYPE = { gray: 0, rgb: 2, indexed: 3, grayAlpha: 4, rgba: 6 } as const;

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
}

/** Samples per pixel for each colour type, as the PNG spec defines them. */
export function channelsOf(colorType: number): number {
  switch (colorType) {
    case COLOR_TYPE.gray:
    case COLOR_TYPE.indexed:
      return 1;
    case COLOR_TYPE.grayAlpha:
      return 2;
    case COLOR_TYPE.rgb:
      return 3;
    case COLOR_TYPE.rgba:
      return 4;
    default:
      return 0;
  }
}

/** Reads and checks the signature and IHDR; throws MaskFormatError naming the file. */
export function readPngHeader(bytes: Uint8Array, fileName: string): PngHeader {
  const fail = (problem: string): never => {
    throw new MaskFormatError(problem, fileName);
  };
  const prefix = Math.min(bytes.length, SIGNATURE.length);
  if (SIGNATURE.slice(0, prefix).some((b, i) => bytes[i] !== b)) fail('not a PNG (bad signature)');
  if (bytes.length < 33) fail(`truncated PNG (${bytes.length} bytes, the header alone needs 33)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = chunkType(bytes, 12);
  if (type !== 'IHDR' || view.getUint32(8) !== 13) fail(`corrupt PNG (first chunk is ${JSON.stringify(type)}, not a 13-byte IHDR)`);
  const header: PngHeader = {
    width: view.getUint32(16),
    height: view.getUint32(20),
    bitDepth: bytes[24],
    colorType: bytes[25],
    interlace: bytes[28],
  };
  const { width, height } = header;
  if (width === 0 || height === 0) fail(`corrupt PNG (declared size ${width}x${height})`);
  if (width > MAX_SIDE || height > MAX_SIDE) {
    fail(`declared size ${width}x${height} exceeds the limit of ${MAX_SIDE} px per side`);
  }
  if (bytes[26] !== 0 || bytes[27] !== 0) fail('corrupt PNG (unknown compression or filter method)');
  if (header.interlace > 1) fail(`corrupt PNG (unknown interlace method ${header.interlace})`);
  return header;
}

/**
 * Walks the chunks after IHDR: each must fit in the file and the file must reach IEND.
 * Returns the IDAT payloads in order (views, not copies).
 */
export function collectImageData(bytes: Uint8Array, fileName: string): Uint8Array[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const idat: Uint8Array[] = [];
  let p = 8;
  for (;;) {
    if (p + 12 > bytes.length) {
      throw new MaskFormatError(`truncated PNG (ends at byte ${bytes.length} before the IEND chunk)`, fileName);
    }
    const length = view.getUint32(p);
    const type = chunkType(bytes, p + 4);
    if (length > bytes.length - p - 12) {
      throw new MaskFormatError(
        `truncated PNG (chunk ${type} at byte ${p} declares ${length} bytes, only ${bytes.length - p - 12} remain)`,
        fileName,
      );
    }
    if (type === 'IDAT') idat.push(bytes.subarray(p + 8, p + 8 + length));
    if (type === 'IEND') return idat;
    p += 12 + length;
  }
}

/** Bytes of filtered scanlines the header promises (filter byte + packed samples per row, per pass). */
export function expectedRawSize(h: PngHeader): number {
  const bitsPerPixel = h.bitDepth * channelsOf(h.colorType);
  const rowBytes = (pixels: number) => 1 + Math.ceil((pixels * bitsPerPixel) / 8);
  if (h.interlace === 0) return h.height * rowBytes(h.width);
  // Adam7: seven sub-images; empty passes have no rows at all.
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ];
  let total = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const pw = Math.ceil((h.width - x0) / dx);
    const ph = Math.ceil((h.height - y0) / dy);
    if (pw > 0 && ph > 0) total += ph * rowBytes(pw);
  }
  return total;
}

/**
 * Inflates the image data only to count it, in small slices so a zip bomb never materialises.
 * Too little data means the file was cut short. A little too much is tolerated (decoders ignore
 * it and some encoders pad), far too much is refused before fast-png would buffer all of it.
 */
export function checkInflatedSize(idat: Uint8Array[], expected: number, fileName: string): void {
  if (idat.length === 0) throw new MaskFormatError('corrupt PNG (no IDAT image data)', fileName);
  const limit = expected * 2 + 65536;
  let produced = 0;
  const inflater = new Unzlib((chunk) => {
    produced += chunk.length;
    if (produced > limit) {
      throw new MaskFormatError(`corrupt PNG (image data inflates far beyond the ${expected} bytes its header needs)`, fileName);
    }
  });
  const SLICE = 16 * 1024; // one slice inflates to at most ~16 MB even at deflate's maximum ratio
  try {
    for (const part of idat) {
      for (let i = 0; i < part.length; i += SLICE) inflater.push(part.subarray(i, i + SLICE), false);
    }
    inflater.push(new Uint8Array(0), true);
  } catch (err) {
    if (err instanceof MaskFormatError) throw err;
    throw new MaskFormatError(`truncated or corrupt image data (${(err as Error).message})`, fileName);
  }
  if (produced < expected) {
    throw new MaskFormatError(`truncated image data (${produced} of ${expected} bytes)`, fileName);
  }
}

function chunkType(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}
