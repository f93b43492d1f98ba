import { encode as encodePng, type ImageData as PngImage } from 'fast-png';
import fc from 'fast-check';
import { zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { MaskFormatError } from '../masks/errors';
import { LABEL, createLabelMap, type LabelMap } from '../masks/labelMap';
import { firstDifference, maskArb } from '../masks/testdata/naive';
import { SPOC_LABEL_COLORS, VOC_PALETTE, decodeIndexedPng, encodeIndexedPng } from './indexedPng';

const SPOC_VALUES = [0, 1, 2, 3, 4, 5, 255];
const opts = { fileName: 'frame0003.png' };
const vocPalette = VOC_PALETTE.map((c) => [...c]);

/** Packs one value per pixel into PNG rows of `depth` bits, most significant bits first. */
function pack(values: ArrayLike<number>, w: number, h: number, depth: number): Uint8Array {
  const rowBytes = Math.ceil((w * depth) / 8);
  const out = new Uint8Array(rowBytes * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const bit = x * depth;
      out[y * rowBytes + (bit >> 3)] |= values[y * w + x] << (8 - depth - (bit & 7));
    }
  }
  return out;
}

function png(image: PngImage, interlace?: 'Adam7'): Uint8Array {
  return encodePng(image, interlace ? { interlace } : undefined);
}

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** A PNG chunk with a correct CRC, so hostile files get past CRC checks and test our own. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function ihdr(width: number, height: number, depth = 8, colorType = 3): Uint8Array {
  const d = new Uint8Array(13);
  const view = new DataView(d.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  d[8] = depth;
  d[9] = colorType;
  return chunk('IHDR', d);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const SIGNATURE = Uint8Array.of(137, 80, 78, 71, 13, 10, 26, 10);
const mapOf = ({ mask, h, w }: { mask: Uint8Array; h: number; w: number }): LabelMap => ({ width: w, height: h, data: mask });

describe('palette', () => {
  it('is the VOC/DAVIS colour map', () => {
    expect(VOC_PALETTE).toHaveLength(256);
    expect(VOC_PALETTE.slice(0, 6)).toEqual([
      [0, 0, 0],
      [128, 0, 0],
      [0, 128, 0],
      [128, 128, 0],
      [0, 0, 128],
      [128, 0, 128],
    ]);
    expect(VOC_PALETTE[255]).toEqual([224, 224, 192]);
    expect([...SPOC_LABEL_COLORS.keys()]).toEqual(SPOC_VALUES);
    expect(new Set([...SPOC_LABEL_COLORS.values()].map((c) => c.join())).size).toBe(SPOC_VALUES.length);
  });
});

describe('encodeIndexedPng -> decodeIndexedPng', () => {
  it('round-trips label maps byte for byte (property)', () => {
    fc.assert(
      fc.property(maskArb(SPOC_VALUES), (m) => {
        const map = mapOf(m);
        const back = decodeIndexedPng(encodeIndexedPng(map), { ...opts, allowedValues: new Set(SPOC_VALUES) });
        expect(back).toEqual(map);
      }),
      { numRuns: 150 },
    );
  });

  it('writes an 8-bit palette PNG', () => {
    const bytes = encodeIndexedPng(createLabelMap(3, 2, 1));
    expect(Array.from(bytes.subarray(12, 16), (c) => String.fromCharCode(c)).join('')).toBe('IHDR');
    expect(bytes[24]).toBe(8); // bit depth
    expect(bytes[25]).toBe(3); // colour type: indexed
    expect(new TextDecoder().decode(bytes).includes('PLTE')).toBe(true);
  });

  it('round-trips a 1920x1080 frame', () => {
    const map = createLabelMap(1920, 1080);
    for (let y = 200; y < 800; y++) map.data.fill(y < 500 ? 1 : 2, y * 1920 + 400, y * 1920 + 1400);
    const back = decodeIndexedPng(encodeIndexedPng(map), { ...opts, expectedWidth: 1920, expectedHeight: 1080 });
    expect(firstDifference(back.data, map.data)).toBe(-1);
  });

  it('needs a palette entry for every label', () => {
    const map = createLabelMap(2, 2, 5);
    expect(() => encodeIndexedPng(map, [[0, 0, 0], [255, 0, 0]])).toThrow('label 5 has no colour in a palette of 2');
    expect(() => encodeIndexedPng(map, [])).toThrow(RangeError);
    expect(() => encodeIndexedPng(map, [[0, 0, 300] as unknown as [number, number, number]])).toThrow(RangeError);
  });
});

describe('decodeIndexedPng accepts', () => {
  it.each([1, 2, 4, 8])('palette PNGs of bit depth %i (value = index)', (depth) => {
    const w = 13;
    const h = 5;
    const values = Array.from({ length: w * h }, (_, i) => (i * 7) % (1 << depth));
    const bytes = png({ width: w, height: h, depth: depth as 1 | 2 | 4 | 8, channels: 1, data: pack(values, w, h, depth), palette: vocPalette.slice(0, 1 << depth) });
    expect(Array.from(decodeIndexedPng(bytes, opts).data)).toEqual(values);
  });

  it.each([1, 2, 4, 8])('grayscale PNGs of bit depth %i (value = gray level)', (depth) => {
    const w = 9;
    const h = 4;
    const values = Array.from({ length: w * h }, (_, i) => (i * 5) % (1 << depth));
    const bytes = png({ width: w, height: h, depth: depth as 1 | 2 | 4 | 8, channels: 1, data: pack(values, w, h, depth) });
    expect(Array.from(decodeIndexedPng(bytes, opts).data)).toEqual(values);
  });

  it('Adam7-interlaced PNGs', () => {
    const w = 11;
    const h = 7;
    const values = Uint8Array.from({ length: w * h }, (_, i) => i % 3);
    const bytes = png({ width: w, height: h, depth: 8, channels: 1, data: values, palette: vocPalette }, 'Adam7');
    expect(bytes[28]).toBe(1);
    expect(decodeIndexedPng(bytes, opts).data).toEqual(values);
  });

  it('RGB and opaque RGBA PNGs whose colours are all label colours', () => {
    const labels = [0, 1, 2, 3, 4, 5, 255, 1];
    const rgb = Uint8Array.from(labels.flatMap((l) => [...VOC_PALETTE[l]]));
    const rgba = Uint8Array.from(labels.flatMap((l) => [...VOC_PALETTE[l], 255]));
    expect(Array.from(decodeIndexedPng(png({ width: 4, height: 2, channels: 3, depth: 8, data: rgb }), opts).data)).toEqual(labels);
    expect(Array.from(decodeIndexedPng(png({ width: 4, height: 2, channels: 4, depth: 8, data: rgba }), opts).data)).toEqual(labels);
  });

  it('RGB PNGs with a caller-supplied colour table', () => {
    const colors = new Map([
      [0, [0, 0, 0] as const],
      [1, [255, 0, 0] as const],
      [2, [0, 0, 255] as const],
    ]);
    const data = Uint8Array.of(0, 0, 0, 255, 0, 0, 0, 0, 255);
    expect(Array.from(decodeIndexedPng(png({ width: 3, height: 1, channels: 3, depth: 8, data }), { ...opts, rgbColors: colors }).data)).toEqual([0, 1, 2]);
  });
});

describe('decodeIndexedPng rejects', () => {
  const fails = (bytes: Uint8Array, message: string | RegExp, extra: object = {}) => {
    let caught: unknown;
    try {
      decodeIndexedPng(bytes, { ...opts, ...extra });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(MaskFormatError);
    expect((caught as MaskFormatError).fileName).toBe('frame0003.png');
    if (typeof message === 'string') expect((caught as Error).message).toBe(message);
    else expect((caught as Error).message).toMatch(message);
  };
  const small = encodeIndexedPng(createLabelMap(8, 6, 1));

  it('files that are not PNGs', () => {
    fails(new TextEncoder().encode('GIF89a........................................'), 'frame0003.png: not a PNG (bad signature)');
    fails(Uint8Array.of(0xff, 0xd8, 0xff), 'frame0003.png: not a PNG (bad signature)');
    fails(new Uint8Array(0), /truncated PNG \(0 bytes/);
  });

  it('a size other than the frame size, from the header alone', () => {
    const bytes = encodeIndexedPng(createLabelMap(640, 480));
    fails(bytes, 'frame0003.png: size 640x480 does not match the frame size 854x480', { expectedWidth: 854, expectedHeight: 480 });
    fails(bytes, 'frame0003.png: size 640x480 does not match the frame size 640x360', { expectedHeight: 360 });
  });

  it('labels outside allowedValues, naming the first pixel', () => {
    const map = createLabelMap(20, 50, 1);
    map.data[40 * 20 + 12] = 7;
    fails(encodeIndexedPng(map), 'frame0003.png: unknown label 7 at (x=12, y=40); allowed 0,1,2,4,5', {
      allowedValues: new Set([5, 4, 2, 1, 0]),
    });
  });

  it('a huge declared size before decoding anything', () => {
    const hostile = concat(SIGNATURE, ihdr(100_000, 100_000), chunk('IEND', new Uint8Array(0)));
    fails(hostile, 'frame0003.png: declared size 100000x100000 exceeds the limit of 8192 px per side');
    const wide = concat(SIGNATURE, ihdr(8193, 1), chunk('IEND', new Uint8Array(0)));
    fails(wide, /declared size 8193x1 exceeds/);
    fails(concat(SIGNATURE, ihdr(0, 10), chunk('IEND', new Uint8Array(0))), /declared size 0x10/);
  });

  it('image data that inflates far beyond the declared size (zip bomb)', () => {
    const bomb = concat(
      SIGNATURE,
      ihdr(8, 8),
      chunk('PLTE', Uint8Array.of(0, 0, 0)),
      chunk('IDAT', zlibSync(new Uint8Array(4_000_000))),
      chunk('IEND', new Uint8Array(0)),
    );
    fails(bomb, /inflates far beyond the 72 bytes its header needs/);
  });

  it('image data that is too short', () => {
    const short = concat(
      SIGNATURE,
      ihdr(8, 8),
      chunk('PLTE', Uint8Array.of(0, 0, 0)),
      chunk('IDAT', zlibSync(new Uint8Array(40))),
      chunk('IEND', new Uint8Array(0)),
    );
    fails(short, 'frame0003.png: truncated image data (40 of 72 bytes)');
    fails(concat(SIGNATURE, ihdr(8, 8), chunk('IEND', new Uint8Array(0))), /no IDAT image data/);
  });

  it('a file cut short at any byte', () => {
    for (let len = 0; len < small.length; len++) {
      expect(() => decodeIndexedPng(small.subarray(0, len), opts), `cut at ${len}`).toThrow(MaskFormatError);
    }
    fails(small.subarray(0, small.length - 12), /truncated PNG \(ends at byte \d+ before the IEND chunk\)/);
    fails(small.subarray(0, 60), 'frame0003.png: truncated PNG (chunk PLTE at byte 33 declares 768 bytes, only 15 remain)');
  });

  it('any single corrupted byte, always as MaskFormatError', () => {
    for (let i = 0; i < small.length; i++) {
      const bad = small.slice();
      bad[i] ^= 0x5a;
      expect(() => decodeIndexedPng(bad, opts), `byte ${i}`).toThrow(MaskFormatError);
    }
  });

  it('16-bit, grayscale+alpha, and RGB when refused or with unknown colours', () => {
    fails(png({ width: 2, height: 2, depth: 16, channels: 1, data: new Uint16Array(4) }), /16-bit grayscale is not a label mask/);
    fails(png({ width: 2, height: 2, depth: 8, channels: 2, data: new Uint8Array(8) }), /grayscale\+alpha is not supported/);
    fails(png({ width: 2, height: 1, depth: 16, channels: 3, data: new Uint16Array(6) }), /16-bit RGB is not supported/);
    const rgb = png({ width: 2, height: 1, depth: 8, channels: 3, data: Uint8Array.of(0, 0, 0, 255, 0, 255) });
    fails(rgb, /colour #ff00ff at \(x=1, y=0\) is not a label colour \(known: #000000 = 0, #800000 = 1/);
    fails(rgb, 'frame0003.png: RGB masks are not accepted here; save the mask as an indexed (palette) PNG', { rgbColors: null });
    const translucent = png({ width: 1, height: 1, depth: 8, channels: 4, data: Uint8Array.of(128, 0, 0, 100) });
    fails(translucent, /pixel \(x=0, y=0\) is not opaque \(alpha 100\)/);
  });

  it('a bad CRC', () => {
    const bad = small.slice();
    bad[bad.length - 13] ^= 1; // the CRC of the last chunk before IEND (the IDAT)
    fails(bad, /corrupt PNG \(CRC mismatch/);
  });
});

describe('labels', () => {
  it('SPOC release values survive as they are', () => {
    const map = createLabelMap(4, 1);
    map.data.set([LABEL.releaseBackground, LABEL.ambiguous, LABEL.ignore, LABEL.void]);
    expect(decodeIndexedPng(encodeIndexedPng(map), opts).data).toEqual(map.data);
  });
});
