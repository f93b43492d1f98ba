/**
 * Mask PNG files <-> label maps. Indexed PNGs (the DAVIS / WhereToChange format, bit depth 1/2/4/8)
 * store the label as the palette index; grayscale stores it as the gray sample (not rescaled, so a
 * 1-bit mask reads as 0/1); RGB(A) masks are accepted only when every colour is a known label
 * colour (indexedPngPalette.ts). 16-bit and grayscale+alpha files are refused. Pixel decoding is fast-png's; the
 * structural checks before it (indexedPngChunks.ts) keep hostile files from costing memory.
 */
import { decode as decodePng, encode as encodePng, type DecodedPng } from 'fast-png';
import { MaskFormatError } from '../masks/errors';
import type { LabelMap } from '../masks/labelMap';
import {
  COLOR_TYPE,
  checkInflatedSize,
  collectImageData,
  expectedRawSize,
  readPngHeader,
  type PngHeader,
} from './indexedPngChunks';
import { SPOC_LABEL_COLORS, VOC_PALETTE, colorLookup, rgbHex, rgbKey, type Rgb } from './indexedPngPalette';
import { decodeNative, takesNativePath, type NativePngCodec } from './pngNativeInflate';

export { SPOC_LABEL_COLORS, VOC_PALETTE, type Rgb } from './indexedPngPalette';
export type { NativePngCodec } from './pngNativeInflate';

export interface DecodeIndexedPngOptions {
  /** Used in every error message, so the user knows which file to fix. */
  fileName: string;
  /** The frame size the mask must have (checked from the header, before decoding). */
  expectedWidth?: number;
  expectedHeight?: number;
  /** Where the expected size comes from (a frame image, a metadata file), named when the mask differs. */
  expectedSizeFrom?: string;
  /** Labels the mask may contain; any other value is an error. Unset: any value 0..255. */
  allowedValues?: ReadonlySet<number>;
  /** Label -> colour for RGB/RGBA files (default SPOC_LABEL_COLORS); null refuses RGB files. */
  rgbColors?: ReadonlyMap<number, Rgb> | null;
  /** A native zlib (the CLI's node:zlib): gray and indexed masks skip fast-png (pngNativeInflate.ts). */
  native?: NativePngCodec;
}

/** Decodes a mask PNG into a label map. Every problem is a MaskFormatError "<fileName>: <problem>". */
export function decodeIndexedPng(bytes: Uint8Array, options: DecodeIndexedPngOptions): LabelMap {
  const { fileName } = options;
  const fail = (problem: string): never => {
    throw new MaskFormatError(problem, fileName);
  };
  const header = readPngHeader(bytes, fileName);
  const { width, height } = header;
  const ew = options.expectedWidth ?? width;
  const eh = options.expectedHeight ?? height;
  if (ew !== width || eh !== height) {
    fail(`size ${width}x${height} does not match the frame size ${ew}x${eh}${options.expectedSizeFrom ? ` (as given by ${options.expectedSizeFrom})` : ''}`);
  }
  const unsupported = unsupportedFormat(header, options.rgbColors !== null);
  if (unsupported) fail(unsupported);

  const idat = collectImageData(bytes, fileName);
  if (options.native && takesNativePath(header)) {
    const data = decodeNative(bytes, header, idat, expectedRawSize(header), options.native, fileName);
    if (options.allowedValues) checkAllowed(data, width, options.allowedValues, fileName);
    return { width, height, data };
  }
  checkInflatedSize(idat, expectedRawSize(header), fileName);
  let png: DecodedPng;
  try {
    png = decodePng(bytes, { checkCrc: true });
  } catch (err) {
    return fail(`corrupt PNG (${(err as Error).message})`);
  }

  const data =
    header.colorType === COLOR_TYPE.rgb || header.colorType === COLOR_TYPE.rgba
      ? labelsFromRgb(png, options.rgbColors ?? SPOC_LABEL_COLORS, fileName)
      : samplesToBytes(png);
  if (options.allowedValues) checkAllowed(data, width, options.allowedValues, fileName);
  return { width, height, data };
}

/**
 * Encodes a label map as an 8-bit palette PNG (VOC/DAVIS colours by default). Every value in the
 * map needs a palette entry, as the PNG spec requires.
 */
export function encodeIndexedPng(map: LabelMap, palette: readonly Rgb[] = VOC_PALETTE): Uint8Array {
  if (palette.length === 0 || palette.length > 256) throw new RangeError(`palette has ${palette.length} colours; PNG allows 1..256`);
  for (const c of palette) {
    if (c.length !== 3 || !c.every((v) => Number.isInteger(v) && v >= 0 && v <= 255)) {
      throw new RangeError(`palette colour ${JSON.stringify(c)} is not [r, g, b] with 0..255 each`);
    }
  }
  let max = 0;
  for (let i = 0; i < map.data.length; i++) if (map.data[i] > max) max = map.data[i];
  if (max >= palette.length) throw new RangeError(`label ${max} has no colour in a palette of ${palette.length}`);
  return encodePng({
    width: map.width,
    height: map.height,
    data: map.data,
    depth: 8,
    channels: 1,
    palette: palette.map((c) => [c[0], c[1], c[2]]),
  });
}

/** Why we cannot read this kind of PNG as a mask, or null when we can. */
function unsupportedFormat(h: PngHeader, acceptRgb: boolean): string | null {
  const d = h.bitDepth;
  switch (h.colorType) {
    case COLOR_TYPE.indexed:
    case COLOR_TYPE.gray:
      if (d === 1 || d === 2 || d === 4 || d === 8) return null;
      return d === 16 ? '16-bit grayscale is not a label mask (labels are 0..255)' : `corrupt PNG (bit depth ${d})`;
    case COLOR_TYPE.rgb:
    case COLOR_TYPE.rgba:
      if (!acceptRgb) return 'RGB masks are not accepted here; save the mask as an indexed (palette) PNG';
      return d === 8 ? null : `${d}-bit RGB is not supported for masks; save it as an indexed (palette) PNG`;
    case COLOR_TYPE.grayAlpha:
      return 'grayscale+alpha is not supported for masks; save it as an indexed (palette) PNG';
    default:
      return `corrupt PNG (unknown colour type ${h.colorType})`;
  }
}

/** One byte per pixel from fast-png's samples, unpacking 1/2/4-bit rows (packed MSB first). */
function samplesToBytes(png: DecodedPng): Uint8Array {
  const { width: w, height: h, depth } = png;
  const src = png.data;
  if (depth === 8) {
    // fast-png returns a fresh buffer we can keep; copy only if it is some other array type.
    return src instanceof Uint8Array && src.length === w * h ? src : Uint8Array.from(src.subarray(0, w * h));
  }
  const out = new Uint8Array(w * h);
  const rowBytes = Math.ceil((w * depth) / 8);
  const mask = (1 << depth) - 1;
  for (let y = 0; y < h; y++) {
    const row = y * rowBytes;
    for (let x = 0; x < w; x++) {
      const bit = x * depth;
      out[y * w + x] = (src[row + (bit >> 3)] >> (8 - depth - (bit & 7))) & mask;
    }
  }
  return out;
}

/** Labels from RGB(A) pixels; an unknown colour or a not fully opaque pixel is an error. */
function labelsFromRgb(png: DecodedPng, colors: ReadonlyMap<number, Rgb>, fileName: string): Uint8Array {
  const { width: w, height: h, channels } = png;
  const src = png.data;
  const byColor = colorLookup(colors);
  const out = new Uint8Array(w * h);
  // Masks are large areas of one colour: remember the last lookup.
  let lastKey = -1;
  let lastLabel = 0;
  for (let i = 0, s = 0; i < out.length; i++, s += channels) {
    if (channels === 4 && src[s + 3] !== 255) {
      throw new MaskFormatError(
        `pixel (x=${i % w}, y=${Math.floor(i / w)}) is not opaque (alpha ${src[s + 3]}); masks must not be transparent`,
        fileName,
      );
    }
    const key = rgbKey(src[s], src[s + 1], src[s + 2]);
    if (key !== lastKey) {
      const label = byColor.get(key);
      if (label === undefined) {
        const known = [...byColor].map(([k, l]) => `${rgbHex(k)} = ${l}`).join(', ');
        throw new MaskFormatError(
          `colour ${rgbHex(key)} at (x=${i % w}, y=${Math.floor(i / w)}) is not a label colour (known: ${known})`,
          fileName,
        );
      }
      lastKey = key;
      lastLabel = label;
    }
    out[i] = lastLabel;
  }
  return out;
}

function checkAllowed(data: Uint8Array, width: number, allowed: ReadonlySet<number>, fileName: string): void {
  const ok = new Uint8Array(256);
  for (const v of allowed) if (Number.isInteger(v) && v >= 0 && v <= 255) ok[v] = 1;
  for (let i = 0; i < data.length; i++) {
    if (ok[data[i]] === 0) {
      const list = [...allowed].sort((a, b) => a - b).join(',');
      throw new MaskFormatError(
        `unknown label ${data[i]} at (x=${i % width}, y=${Math.floor(i / width)}); allowed ${list}`,
        fileName,
      );
    }
  }
}
