import { describe, expect, it } from 'vitest';
import { encode } from 'fast-png';
import { readImageSize } from './imageSize';

describe('readImageSize', () => {
  it('reads PNG sizes from IHDR', () => {
    const png = encode({ width: 7, height: 3, data: new Uint8Array(7 * 3), channels: 1, depth: 8 });
    expect(readImageSize(png)).toEqual({ width: 7, height: 3, format: 'png' });
  });

  it('walks JPEG segments to the start-of-frame marker', () => {
    // SOI, APP0 (length 16), SOF0 with height 480, width 854.
    const app0 = [0xff, 0xe0, 0x00, 0x10, ...new Array(14).fill(0)];
    const sof0 = [0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x03, 0x56, 0x03, ...new Array(9).fill(0)];
    const jpeg = new Uint8Array([0xff, 0xd8, ...app0, ...sof0]);
    expect(readImageSize(jpeg)).toEqual({ width: 854, height: 480, format: 'jpeg' });
  });

  it('returns null for non-images and truncated headers', () => {
    expect(readImageSize(new TextEncoder().encode('not an image at all'))).toBeNull();
    expect(readImageSize(new Uint8Array([0x89, 0x50, 0x4e]))).toBeNull();
    expect(readImageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00]))).toBeNull();
  });
});
