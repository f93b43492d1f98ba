/**
 * CRC-32 (IEEE 802.3), as zip stores it for every entry. Slicing-by-8: eight table lookups per
 * eight bytes, about twice the speed of the byte-wise loop (~0.9 GB/s in V8), which matters because
 * every byte of a zip import is checked.
 */
let tables: Int32Array | null = null;

function crcTables(): Int32Array {
  if (tables) return tables;
  const t = new Int32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  // Table k holds the CRC of a byte followed by k zero bytes.
  for (let n = 0; n < 256; n++) {
    let c = t[n];
    for (let k = 1; k < 8; k++) {
      c = t[c & 0xff] ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return (tables = t);
}

/** CRC-32 of `data`, continuing from `crc` (the CRC of the bytes before it; 0 to start). */
export function crc32(data: Uint8Array, crc = 0): number {
  const t = crcTables();
  let c = ~crc;
  let i = 0;
  const n = data.length;
  for (const end = n - (n % 8); i < end; i += 8) {
    const a = c ^ (data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24));
    c =
      t[1792 + (a & 0xff)] ^
      t[1536 + ((a >>> 8) & 0xff)] ^
      t[1280 + ((a >>> 16) & 0xff)] ^
      t[1024 + (a >>> 24)] ^
      t[768 + data[i + 4]] ^
      t[512 + data[i + 5]] ^
      t[256 + data[i + 6]] ^
      t[data[i + 7]];
  }
  for (; i < n; i++) c = t[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
