/**
 * The pixel path of decodeIndexedPng when the caller brings a native zlib (the CLI: node:zlib; see
 * docs/cli.md "Memory and speed"): one native inflate, capped at the size the header needs, instead
 * of two inflates in JavaScript (the zip-bomb count and fast-png's decode), then the PNG row filters
 * undone in place. Only non-interlaced 1/2/4/8-bit gray or indexed images take it (every mask the
 * app and the datasets write); anything else stays on fast-png.
 */
import { MaskFormatError } from '../masks/errors';
import { COLOR_TYPE, type PngHeader } from './indexedPngChunks';

export interface NativePngCodec {
  /** zlib inflate of `data`; throws when the output would exceed `maxOutputLength` bytes or the stream is bad. */
  inflate(data: Uint8Array, maxOutputLength: number): Uint8Array;
  /** CRC-32 (the PNG/zlib polynomial) of `data`. */
  crc32(data: Uint8Array): number;
}

export function takesNativePath(h: PngHeader): boolean {
  return h.interlace === 0 && (h.colorType === COLOR_TYPE.indexed || h.colorType === COLOR_TYPE.gray) && h.bitDepth <= 8;
}

/** Every chunk's CRC, as fast-png's checkCrc does (the walk itself was checked by collectImageData). */
function checkCrcs(bytes: Uint8Array, codec: NativePngCodec, fileName: string): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let p = 8; p + 12 <= bytes.length; ) {
    const length = view.getUint32(p);
    const crc = view.getUint32(p + 8 + length);
    if (codec.crc32(bytes.subarray(p + 4, p + 8 + length)) !== crc) {
      const type = String.fromCharCode(bytes[p + 4], bytes[p + 5], bytes[p + 6], bytes[p + 7]);
      throw new MaskFormatError(`corrupt PNG (CRC mismatch in chunk ${type})`, fileName);
    }
    if (bytes[p + 4] === 0x49 && bytes[p + 5] === 0x45 && bytes[p + 6] === 0x4e && bytes[p + 7] === 0x44) return; // IEND
    p += 12 + length;
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * One label byte per pixel. `idat` are the IDAT payloads; `expected` the filtered size the header
 * needs (expectedRawSize). Errors read as the JavaScript path's do.
 */
export function decodeNative(bytes: Uint8Array, h: PngHeader, idat: readonly Uint8Array[], expected: number, codec: NativePngCodec, fileName: string): Uint8Array {
  if (idat.length === 0) throw new MaskFormatError('corrupt PNG (no IDAT image data)', fileName);
  checkCrcs(bytes, codec, fileName);
  let stream: Uint8Array;
  if (idat.length === 1) stream = idat[0];
  else {
    stream = new Uint8Array(idat.reduce((n, part) => n + part.length, 0));
    let at = 0;
    for (const part of idat) {
      stream.set(part, at);
      at += part.length;
    }
  }
  // The same tolerance as checkInflatedSize: a little padding is fine, a zip bomb is cut off.
  const limit = expected * 2 + 65536;
  let raw: Uint8Array;
  try {
    raw = codec.inflate(stream, limit);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e?.code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) {
      throw new MaskFormatError(`corrupt PNG (image data inflates far beyond the ${expected} bytes its header needs)`, fileName);
    }
    throw new MaskFormatError(`truncated or corrupt image data (${e?.message ?? String(err)})`, fileName);
  }
  if (raw.length < expected) throw new MaskFormatError(`truncated image data (${raw.length} of ${expected} bytes)`, fileName);

  const { width: w, height: hgt, bitDepth: depth } = h;
  const rowBytes = Math.ceil((w * depth) / 8);
  const stride = rowBytes + 1;
  // Unfilter in place: row y's samples sit at raw[y*stride+1 …]; bpp is 1 byte for every depth <= 8.
  for (let y = 0; y < hgt; y++) {
    const at = y * stride;
    const filter = raw[at];
    const row = at + 1;
    const prev = row - stride;
    switch (filter) {
      case 0:
        break;
      case 1:
        for (let i = row + 1; i < row + rowBytes; i++) raw[i] = (raw[i] + raw[i - 1]) & 255;
        break;
      case 2:
        if (y > 0) for (let i = 0; i < rowBytes; i++) raw[row + i] = (raw[row + i] + raw[prev + i]) & 255;
        break;
      case 3:
        for (let i = 0; i < rowBytes; i++) {
          const left = i > 0 ? raw[row + i - 1] : 0;
          const up = y > 0 ? raw[prev + i] : 0;
          raw[row + i] = (raw[row + i] + ((left + up) >> 1)) & 255;
        }
        break;
      case 4:
        for (let i = 0; i < rowBytes; i++) {
          const left = i > 0 ? raw[row + i - 1] : 0;
          const up = y > 0 ? raw[prev + i] : 0;
          const upLeft = i > 0 && y > 0 ? raw[prev + i - 1] : 0;
          raw[row + i] = (raw[row + i] + paeth(left, up, upLeft)) & 255;
        }
        break;
      default:
        throw new MaskFormatError(`corrupt PNG (unknown filter type ${filter} on row ${y})`, fileName);
    }
  }
  const out = new Uint8Array(w * hgt);
  if (depth === 8) {
    for (let y = 0; y < hgt; y++) out.set(raw.subarray(y * stride + 1, y * stride + 1 + w), y * w);
    return out;
  }
  const mask = (1 << depth) - 1;
  for (let y = 0; y < hgt; y++) {
    const row = y * stride + 1;
    for (let x = 0; x < w; x++) {
      const bit = x * depth;
      out[y * w + x] = (raw[row + (bit >> 3)] >> (8 - depth - (bit & 7))) & mask;
    }
  }
  return out;
}
