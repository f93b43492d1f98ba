/**
 * Hand-built zip archives for tests and benches (Node only: node:zlib deflates and checksums, so
 * the archives do not depend on the reader they test). Every hostile variant the zip reader must
 * refuse is generated here, never committed as a binary: the many-entry bomb, sizes and CRCs that
 * lie, encryption flags, rooted names, a damaged central directory, names in code page 437.
 * Test-only; nothing in the app imports it.
 */
import { crc32, deflateRawSync } from 'node:zlib';

/** One entry as it will be written: every field that a hostile archive could lie about is settable. */
export interface ForgedEntry {
  /** Raw name bytes (a string is written as UTF-8). */
  name: string | Uint8Array;
  /** General-purpose flags: bit 0 encrypted, bit 3 data descriptor, bit 11 UTF-8 name. */
  flags: number;
  /** 0 stored, 8 deflate. */
  method: number;
  /** The bytes stored in the archive (deflated or not). */
  payload: Uint8Array;
  /** Uncompressed size written in both headers. */
  size: number;
  crc: number;
  extra?: Uint8Array;
}

const encoder = new TextEncoder();
const UTF8_FLAG = 1 << 11;

function nameBytes(name: string | Uint8Array): Uint8Array {
  return typeof name === 'string' ? encoder.encode(name) : name;
}

/** An honest entry: deflated (default) or stored, with its true size and CRC-32. */
export function entry(name: string | Uint8Array, content: Uint8Array, method: 0 | 8 = 8): ForgedEntry {
  const nonAscii = typeof name === 'string' && [...name].some((c) => c.charCodeAt(0) > 0x7f);
  return {
    name,
    flags: nonAscii ? UTF8_FLAG : 0,
    method,
    payload: method === 8 ? new Uint8Array(deflateRawSync(content, { level: 9 })) : content,
    size: content.length,
    crc: crc32(content),
  };
}

/**
 * Writes local headers, data, the central directory and the end record, in that order. With
 * `zip64`, every central record moves its sizes and offset into a zip64 extra field and the archive
 * ends with zip64 end records, as tools do for large archives.
 */
export function forgeZip(entries: readonly ForgedEntry[], options: { zip64?: boolean } = {}): Uint8Array<ArrayBuffer> {
  const zip64 = options.zip64 ?? false;
  let total = 22 + (zip64 ? 56 + 20 : 0);
  for (const e of entries) {
    const n = nameBytes(e.name).length + (e.extra?.length ?? 0);
    total += 30 + n + e.payload.length + 46 + n + (zip64 ? 28 : 0);
  }
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  const u64 = (at: number, v: number) => dv.setBigUint64(at, BigInt(v), true);
  let p = 0;
  const offsets: number[] = [];
  const header = (sig: number, e: ForgedEntry, central: boolean, offset: number) => {
    const name = nameBytes(e.name);
    let extra = e.extra ?? new Uint8Array(0);
    if (central && zip64) {
      const z = new Uint8Array(28 + extra.length);
      const zv = new DataView(z.buffer);
      zv.setUint16(0, 0x0001, true);
      zv.setUint16(2, 24, true);
      zv.setBigUint64(4, BigInt(e.size), true);
      zv.setBigUint64(12, BigInt(e.payload.length), true);
      zv.setBigUint64(20, BigInt(offset), true);
      z.set(extra, 28);
      extra = z;
    }
    const big = central && zip64;
    dv.setUint32(p, sig, true);
    let q = p + 4;
    if (central) {
      dv.setUint16(q, 45, true); // version made by
      q += 2;
    }
    dv.setUint16(q, zip64 ? 45 : 20, true); // version needed
    dv.setUint16(q + 2, e.flags, true);
    dv.setUint16(q + 4, e.method, true);
    dv.setUint32(q + 6, 0x5a210000, true); // a fixed DOS time and date
    dv.setUint32(q + 10, e.crc, true);
    dv.setUint32(q + 14, big ? 0xffffffff : e.payload.length, true);
    dv.setUint32(q + 18, big ? 0xffffffff : e.size, true);
    dv.setUint16(q + 22, name.length, true);
    dv.setUint16(q + 24, extra.length, true);
    q += 26;
    if (central) {
      q += 14; // comment length, disk, internal and external attributes (all zero), then the offset
      dv.setUint32(q - 4, big ? 0xffffffff : offset, true);
    }
    out.set(name, q);
    out.set(extra, q + name.length);
    p = q + name.length + extra.length;
  };
  for (const e of entries) {
    offsets.push(p);
    header(0x04034b50, e, false, 0);
    out.set(e.payload, p);
    p += e.payload.length;
  }
  const cdStart = p;
  entries.forEach((e, i) => header(0x02014b50, e, true, offsets[i]));
  const cdSize = p - cdStart;
  if (zip64) {
    const record = p;
    dv.setUint32(p, 0x06064b50, true);
    u64(p + 4, 44); // size of the rest of the record
    dv.setUint16(p + 12, 45, true);
    dv.setUint16(p + 14, 45, true);
    u64(p + 24, entries.length);
    u64(p + 32, entries.length);
    u64(p + 40, cdSize);
    u64(p + 48, cdStart);
    p += 56;
    dv.setUint32(p, 0x07064b50, true);
    u64(p + 8, record);
    dv.setUint32(p + 16, 1, true); // one disk in all
    p += 20;
  }
  dv.setUint32(p, 0x06054b50, true);
  dv.setUint16(p + 8, zip64 ? 0xffff : entries.length & 0xffff, true);
  dv.setUint16(p + 10, zip64 ? 0xffff : entries.length & 0xffff, true);
  dv.setUint32(p + 12, zip64 ? 0xffffffff : cdSize, true);
  dv.setUint32(p + 16, zip64 ? 0xffffffff : cdStart, true);
  return out;
}

export interface BombOptions {
  /** Default 4250 (the bomb). */
  entries?: number;
  /** Zeros per entry; default just under 1 MB, below the per-entry ratio check's floor. */
  entryBytes?: number;
  /** Entry names; default frame00001.jpg, … in one folder. */
  name?: (i: number) => string;
}

/**
 * The many-entry bomb: thousands of entries of ~1 MB of zeros, each deflating to ~1 KB, so
 * a ~4 MB file declares ~4 GB. The deflated payload is computed once and shared by every entry.
 */
export function manyEntryBomb(options: BombOptions = {}): Uint8Array<ArrayBuffer> {
  const count = options.entries ?? 4250;
  const one = entry('x', new Uint8Array(options.entryBytes ?? 999_000));
  const name = options.name ?? ((i: number) => `frames/frame${String(i + 1).padStart(5, '0')}.jpg`);
  return forgeZip(Array.from({ length: count }, (_, i) => ({ ...one, name: name(i) })));
}

/** One entry that declares `declared` bytes but inflates to `actual` zeros (small declared, huge actual). */
export function lyingSizeZip(declared = 1000, actual = 50 * 2 ** 20): Uint8Array<ArrayBuffer> {
  const e = entry('frames/frame1.jpg', new Uint8Array(actual));
  return forgeZip([{ ...e, size: declared }]);
}

/** A valid entry whose recorded CRC-32 is off by one bit. */
export function badCrcZip(): Uint8Array<ArrayBuffer> {
  const e = entry('frames/frame1.jpg', encoder.encode('not really a jpeg, but intact bytes'.repeat(20)));
  return forgeZip([{ ...e, crc: (e.crc ^ 1) >>> 0 }]);
}

/** An entry with general-purpose flag bit 0 (encrypted) set. */
export function encryptedZip(): Uint8Array<ArrayBuffer> {
  const e = entry('frames/frame1.jpg', new Uint8Array(100).fill(7));
  return forgeZip([{ ...e, flags: e.flags | 1 }]);
}

/** An archive whose only entry has `name` (e.g. "\\evil.jpg", "C:\\x"). */
export function namedZip(name: string | Uint8Array, flags?: number): Uint8Array<ArrayBuffer> {
  const e = entry(name, new Uint8Array(10).fill(1));
  return forgeZip([{ ...e, flags: flags ?? e.flags }]);
}

/** A two-entry archive whose second central-directory record has lost its signature. */
export function damagedDirectoryZip(): Uint8Array<ArrayBuffer> {
  const zip = forgeZip([entry('a.jpg', new Uint8Array(50).fill(1)), entry('b.jpg', new Uint8Array(50).fill(2))]);
  const dv = new DataView(zip.buffer);
  const cdStart = dv.getUint32(zip.length - 6, true);
  const second = cdStart + 46 + 'a.jpg'.length;
  dv.setUint32(second, 0xdeadbeef, true);
  return zip;
}

/** "café.jpg" written in code page 437 (é = 0x82) with the UTF-8 flag unset, as old Windows tools do. */
export const CP437_CAFE = new Uint8Array([0x63, 0x61, 0x66, 0x82, 0x2e, 0x6a, 0x70, 0x67]);

/** An Info-ZIP Unicode Path extra field (0x7075) giving `utf8` as the name of an entry whose raw name is `raw`. */
export function unicodePathExtra(raw: Uint8Array, utf8: string): Uint8Array {
  const name = encoder.encode(utf8);
  const out = new Uint8Array(9 + name.length);
  const dv = new DataView(out.buffer);
  dv.setUint16(0, 0x7075, true);
  dv.setUint16(2, 5 + name.length, true);
  out[4] = 1;
  dv.setUint32(5, crc32(raw), true);
  out.set(name, 9);
  return out;
}
