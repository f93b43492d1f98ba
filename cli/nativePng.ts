/** node:zlib for the mask decoder (src/io/pngNativeInflate.ts): native inflate and CRC-32. */
import zlib from 'node:zlib';
import type { NativePngCodec } from '../src/io/indexedPng';

let table: Uint32Array | null = null;

/** CRC-32 in JavaScript for Node releases before zlib.crc32 (20.15). */
function crc32js(data: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const nativeCrc = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

export const NODE_PNG: NativePngCodec = {
  inflate: (data, maxOutputLength) => zlib.inflateSync(data, { maxOutputLength }),
  crc32: typeof nativeCrc === 'function' ? (data) => nativeCrc(data) : crc32js,
};
