/**
 * Reads an image's declared pixel size from its header without decoding it (PNG, JPEG, WebP, BMP,
 * GIF), so absurd sizes and mixed frame sizes are refused before any pixel buffer is allocated.
 * Returns null when the bytes are not a recognised image.
 */
export interface ImageSize {
  width: number;
  height: number;
  format: 'png' | 'jpeg' | 'webp' | 'bmp' | 'gif';
}

/** Enough bytes to hold the size in every format above, except JPEGs with huge EXIF blocks (see readImageSizeFromBlob). */
export const HEADER_BYTES = 64 * 1024;

export function readImageSize(b: Uint8Array): ImageSize | null {
  const u16be = (o: number) => (b[o] << 8) | b[o + 1];
  const u32be = (o: number) => ((b[o] << 24) >>> 0) + (b[o + 1] << 16) + (b[o + 2] << 8) + b[o + 3];
  const u16le = (o: number) => b[o] | (b[o + 1] << 8);
  const i32le = (o: number) => b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24);
  const ascii = (o: number, n: number) => String.fromCharCode(...b.subarray(o, o + n));

  if (b.length >= 24 && b[0] === 0x89 && ascii(1, 3) === 'PNG' && ascii(12, 4) === 'IHDR') {
    return { width: u32be(16), height: u32be(20), format: 'png' };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    // Walk the marker segments up to the first start-of-frame (SOF0..SOF15 except DHT/JPG/DAC).
    let o = 2;
    while (o + 9 < b.length) {
      if (b[o] !== 0xff) return null;
      const marker = b[o + 1];
      if (marker === 0xff) {
        o++;
        continue;
      }
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        o += 2;
        continue;
      }
      const len = u16be(o + 2);
      if (len < 2) return null;
      const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isSof) return { width: u16be(o + 7), height: u16be(o + 5), format: 'jpeg' };
      o += 2 + len;
    }
    return null;
  }
  if (b.length >= 30 && ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') {
    const chunk = ascii(12, 4);
    if (chunk === 'VP8 ') return { width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff, format: 'webp' };
    if (chunk === 'VP8L') {
      const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, format: 'webp' };
    }
    if (chunk === 'VP8X') {
      const w = 1 + (b[24] | (b[25] << 8) | (b[26] << 16));
      const h = 1 + (b[27] | (b[28] << 8) | (b[29] << 16));
      return { width: w, height: h, format: 'webp' };
    }
    return null;
  }
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) {
    return { width: Math.abs(i32le(18)), height: Math.abs(i32le(22)), format: 'bmp' };
  }
  if (b.length >= 10 && ascii(0, 4) === 'GIF8') {
    return { width: u16le(6), height: u16le(8), format: 'gif' };
  }
  return null;
}

export async function readImageSizeFromBlob(blob: Blob): Promise<ImageSize | null> {
  const head = new Uint8Array(await blob.slice(0, HEADER_BYTES).arrayBuffer());
  const size = readImageSize(head);
  // A JPEG whose APPn segments (EXIF thumbnails, ICC profiles) exceed the first chunk: read it whole.
  if (!size && blob.size > HEADER_BYTES && head[0] === 0xff && head[1] === 0xd8) {
    return readImageSize(new Uint8Array(await blob.arrayBuffer()));
  }
  return size;
}
