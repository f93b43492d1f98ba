/**
 * The CLI's mask decoding with node:zlib (src/io/pngNativeInflate.ts) against the JavaScript path
 * (fast-png) on every row filter and bit depth, split image data, and broken files: the same label
 * maps, the same refusals.
 */
import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeIndexedPng } from '../src/io/indexedPng';
import { NODE_PNG } from './nativePng';

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** A PNG of `labels` (row-major, width w) with the given filter per row, bit depth and colour type; IDAT split in `parts`. */
function encode(labels: Uint8Array, w: number, depth: number, colorType: number, filters: number[], parts: number): Uint8Array {
  const h = labels.length / w;
  const rowBytes = Math.ceil((w * depth) / 8);
  const rows: Uint8Array[] = [];
  for (let y = 0; y < h; y++) {
    const row = new Uint8Array(rowBytes);
    for (let x = 0; x < w; x++) {
      const bit = x * depth;
      row[bit >> 3] |= labels[y * w + x] << (8 - depth - (bit & 7));
    }
    rows.push(row);
  }
  const raw: Uint8Array[] = [];
  for (let y = 0; y < h; y++) {
    const f = filters[y % filters.length];
    const cur = rows[y];
    const up = y > 0 ? rows[y - 1] : new Uint8Array(rowBytes);
    const out = new Uint8Array(rowBytes + 1);
    out[0] = f;
    for (let i = 0; i < rowBytes; i++) {
      const a = i > 0 ? cur[i - 1] : 0;
      const b = up[i];
      const c = i > 0 ? up[i - 1] : 0;
      const pred = f === 0 ? 0 : f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : paeth(a, b, c);
      out[i + 1] = (cur[i] - pred) & 255;
    }
    raw.push(out);
  }
  const z = zlib.deflateSync(concat(raw));
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, w);
  new DataView(ihdr.buffer).setUint32(4, h);
  ihdr[8] = depth;
  ihdr[9] = colorType;
  const chunks = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr)];
  if (colorType === 3) chunks.push(chunk('PLTE', new Uint8Array(3 * (1 << depth)).map((_, i) => i)));
  const step = Math.ceil(z.length / parts);
  for (let i = 0; i < z.length; i += step) chunks.push(chunk('IDAT', z.subarray(i, i + step)));
  chunks.push(chunk('IEND', new Uint8Array(0)));
  return concat(chunks);
}

const decodeBoth = (bytes: Uint8Array) => {
  const outcome = (fn: () => unknown) => {
    try {
      return { ok: fn() };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };
  return {
    js: outcome(() => decodeIndexedPng(bytes, { fileName: 'm.png' })),
    native: outcome(() => decodeIndexedPng(bytes, { fileName: 'm.png', native: NODE_PNG })),
  };
};

describe('mask decoding with node:zlib', () => {
  it('reads every filter, bit depth and IDAT split as fast-png does', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2, 4, 8),
        fc.constantFrom(0, 3),
        fc.integer({ min: 1, max: 37 }),
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer(),
        (depth, colorType, w, h, filters, parts, seed) => {
          let s = seed >>> 0;
          const labels = new Uint8Array(w * h).map(() => {
            s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
            // Runs of one label, as in masks, with some noise.
            return (s >>> 28) < 11 ? 0 : (s >>> 8) % (1 << depth);
          });
          const bytes = encode(labels, w, depth, colorType, filters, parts);
          const { js, native } = decodeBoth(bytes);
          expect(native).toEqual(js);
          expect((native.ok as { data: Uint8Array }).data).toEqual(labels);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses what the JavaScript path refuses: bad CRC, truncated and over-long image data, a bad filter', () => {
    const labels = new Uint8Array(64 * 16).map((_, i) => (i % 64 > 20 ? 1 : 0));
    const good = encode(labels, 64, 8, 3, [0, 1, 2, 3, 4], 1);
    const badCrc = good.slice();
    badCrc[badCrc.length - 13] ^= 1;
    const both = decodeBoth(badCrc);
    expect(both.native.error).toMatch(/^m\.png: corrupt PNG/);
    expect(both.js.error).toMatch(/^m\.png: corrupt PNG/);

    // Image data for fewer rows than the header declares.
    const short = encode(labels.subarray(0, 64 * 8), 64, 8, 3, [0], 1);
    const view = new DataView(short.buffer);
    view.setUint32(20, 16);
    view.setUint32(29, crc32(short.subarray(12, 29)));
    const cut = decodeBoth(short);
    expect(cut.native.error).toBe(cut.js.error);
    expect(cut.native.error).toMatch(/truncated image data/);

    // A zip bomb: far more data than the header needs.
    const bomb = encode(new Uint8Array(64 * 4096), 64, 8, 3, [0], 1);
    const bv = new DataView(bomb.buffer);
    bv.setUint32(20, 4);
    bv.setUint32(29, crc32(bomb.subarray(12, 29)));
    const boom = decodeBoth(bomb);
    expect(boom.native.error).toBe(boom.js.error);
    expect(boom.native.error).toMatch(/inflates far beyond/);

    const badFilter = encode(labels, 64, 8, 3, [0, 7], 1);
    expect(decodeBoth(badFilter).native.error).toBe('m.png: corrupt PNG (unknown filter type 7 on row 1)');
  });
});
