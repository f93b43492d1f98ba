/**
 * Random-access zip reading over a Blob, for project bundles: the central directory is read from the
 * end of the file, and each entry is read on its own with `blob.slice`, so a bundle of any size is
 * never loaded whole. Everything a hostile archive could lie about is checked before it is used:
 *
 * - the end record and central directory must be where they say and inside the file (truncation);
 * - entry counts, per-entry and total declared sizes, and the compression ratio are limited before
 *   a byte is inflated (zip bombs);
 * - entries may not overlap (the "overlapping files" bomb) and must lie before the central directory;
 * - names must be relative and free of ".." (path traversal) — callers also match them against a
 *   fixed list of bundle paths;
 * - inflating stops as soon as an entry produces more than it declared, and the result must be
 *   exactly the declared size with the declared CRC-32.
 *
 * Only what the bundle writer produces is read: stored or deflated entries, no encryption, no zip64
 * (fflate's streaming writer does not write it, so a bundle is limited to 4 GiB).
 */
import { Inflate } from 'fflate';
import { ImportError } from '../importError';

export interface ZipReadLimits {
  maxEntries: number;
  /** Uncompressed bytes of one entry. */
  maxEntryBytes: number;
  /** Uncompressed bytes of all entries together. */
  maxTotalBytes: number;
  /** Deflate rarely beats 100:1 on real data; bombs reach 1000:1 and more. Checked for entries over 1 MB. */
  maxRatio: number;
  /** Size of the central directory itself (about 80 bytes per entry). */
  maxDirectoryBytes: number;
}

export const DEFAULT_ZIP_READ_LIMITS: ZipReadLimits = {
  maxEntries: 500_000,
  maxEntryBytes: 512 * 2 ** 20,
  maxTotalBytes: 16 * 2 ** 30,
  maxRatio: 200,
  maxDirectoryBytes: 64 * 2 ** 20,
};

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate. */
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  /** Where the next entry (or the central directory) starts: the entry's data must end before it. */
  limit: number;
}

const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const READ_CHUNK = 1 << 20;

async function bytesAt(blob: Blob, start: number, end: number): Promise<Uint8Array> {
  return new Uint8Array(await blob.slice(start, end).arrayBuffer());
}

/**
 * Reads byte ranges of a Blob through one cached window: entries are read in archive order, and
 * each `Blob.arrayBuffer()` is a round trip to the browser's blob store, so thousands of small
 * entries are served from a few large reads.
 */
export class RangeReader {
  private start = 0;
  private window: Uint8Array = new Uint8Array(0);

  constructor(
    readonly blob: Blob,
    private readonly windowBytes = 8 * 2 ** 20,
  ) {}

  async read(start: number, end: number): Promise<Uint8Array> {
    if (start >= this.start && end <= this.start + this.window.length) return this.window.subarray(start - this.start, end - this.start);
    if (end - start >= this.windowBytes) return bytesAt(this.blob, start, end);
    this.start = start;
    this.window = await bytesAt(this.blob, start, Math.min(this.blob.size, start + this.windowBytes));
    return this.window.subarray(0, end - start);
  }
}

const u16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u32 = (b: Uint8Array, o: number) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;

/** Why an entry name is unsafe to extract anywhere, or null. */
export function unsafeEntryName(name: string): string | null {
  if (name.length === 0) return 'has an empty name';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'has a control character in its name';
  if (name.startsWith('/') || name.startsWith('\\') || /^[a-zA-Z]:/.test(name)) return 'has an absolute path';
  if (name.split(/[\\/]/).includes('..')) return 'has a path that climbs out of the archive ("..")';
  return null;
}

/**
 * Lists the entries of a zip from its central directory (no entry data is read). `zipName` names
 * the file in every message.
 */
export async function readZipDirectory(blob: Blob, zipName: string, limits: ZipReadLimits = DEFAULT_ZIP_READ_LIMITS): Promise<ZipEntry[]> {
  const fail = (problem: string): never => {
    throw new ImportError(zipName, problem);
  };
  const size = blob.size;
  if (size < EOCD_SIZE) fail(size === 0 ? 'is empty' : `is ${size} bytes long, too short to be a zip archive; it may be truncated`);
  const tailStart = Math.max(0, size - (EOCD_SIZE + 0xffff));
  const tail = await bytesAt(blob, tailStart, size);
  let eocd = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    // The comment length must reach exactly to the end of the file, so a signature inside a comment does not fool us.
    if (u32(tail, i) === SIG_EOCD && i + EOCD_SIZE + u16(tail, i + 20) === tail.length) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) fail('is not a zip archive, or it is truncated (no end-of-archive record)');
  const eocdPos = tailStart + eocd;
  if (eocd >= 20 && u32(tail, eocd - 20) === SIG_ZIP64_LOCATOR) fail('is a zip64 archive; bundles over 4 GB or 65535 entries from other tools are not read');
  if (u16(tail, eocd + 4) !== 0 || u16(tail, eocd + 6) !== 0) fail('is a multi-part (spanned) zip archive, which is not supported');
  const declaredCount = u16(tail, eocd + 10);
  const cdSize = u32(tail, eocd + 12);
  const cdOffset = u32(tail, eocd + 16);
  if (cdOffset + cdSize !== eocdPos) {
    fail(`has a central directory that does not end where the end-of-archive record starts (${cdOffset} + ${cdSize} != ${eocdPos}); it is truncated or corrupt`);
  }
  if (cdSize > limits.maxDirectoryBytes) fail(`has a central directory of ${cdSize} bytes, over the ${limits.maxDirectoryBytes} byte limit`);
  const cd = await bytesAt(blob, cdOffset, eocdPos);
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let total = 0;
  let p = 0;
  const decoder = new TextDecoder('utf-8', { fatal: false });
  while (p < cd.length) {
    if (entries.length >= limits.maxEntries) fail(`has more than ${limits.maxEntries} entries`);
    if (p + CENTRAL_SIZE > cd.length || u32(cd, p) !== SIG_CENTRAL) fail(`has a corrupt central directory (entry ${entries.length + 1} at byte ${cdOffset + p})`);
    const flags = u16(cd, p + 8);
    const method = u16(cd, p + 10);
    const crc = u32(cd, p + 16);
    const compressedSize = u32(cd, p + 20);
    const uncompressed = u32(cd, p + 24);
    const nameLen = u16(cd, p + 28);
    const extraLen = u16(cd, p + 30);
    const commentLen = u16(cd, p + 32);
    const disk = u16(cd, p + 34);
    const localOffset = u32(cd, p + 42);
    const next = p + CENTRAL_SIZE + nameLen + extraLen + commentLen;
    if (next > cd.length) fail(`has a corrupt central directory (entry ${entries.length + 1} runs past its end)`);
    const name = decoder.decode(cd.subarray(p + CENTRAL_SIZE, p + CENTRAL_SIZE + nameLen));
    const shown = JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);
    const unsafe = unsafeEntryName(name);
    if (unsafe) fail(`entry ${shown} ${unsafe}; refusing the archive (path traversal)`);
    if (names.has(name)) fail(`contains the entry ${shown} twice`);
    names.add(name);
    if (disk !== 0) fail(`entry ${shown} is on another disk of a multi-part archive`);
    if (flags & 1) fail(`entry ${shown} is encrypted`);
    if (compressedSize === 0xffffffff || uncompressed === 0xffffffff || localOffset === 0xffffffff) fail(`entry ${shown} uses zip64 sizes, which are not supported`);
    if (method !== 0 && method !== 8) fail(`entry ${shown} uses compression method ${method}; only stored (0) and deflate (8) are supported`);
    if (method === 0 && compressedSize !== uncompressed) fail(`entry ${shown} is stored but declares ${compressedSize} bytes stored and ${uncompressed} bytes of content`);
    if (uncompressed > limits.maxEntryBytes) fail(`entry ${shown} declares ${uncompressed} bytes, over the ${limits.maxEntryBytes} byte limit per entry`);
    if (method === 8 && uncompressed > 1_000_000 && uncompressed > compressedSize * limits.maxRatio) {
      fail(`entry ${shown} would expand ${Math.round(uncompressed / Math.max(1, compressedSize))}:1, which looks like a zip bomb`);
    }
    total += uncompressed;
    if (total > limits.maxTotalBytes) fail(`declares more than ${limits.maxTotalBytes} bytes of content in total`);
    if (localOffset + LOCAL_SIZE + nameLen + compressedSize > cdOffset) fail(`entry ${shown} lies outside the archive's data; it is truncated or corrupt`);
    entries.push({ name, method, crc, compressedSize, size: uncompressed, localOffset, limit: cdOffset });
    p = next;
  }
  if (entries.length % 0x10000 !== declaredCount) {
    fail(`says it has ${declaredCount} entries but its central directory lists ${entries.length}; it is corrupt`);
  }
  // No two entries may share bytes: overlapping entries are how the densest zip bombs are built.
  const byOffset = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  for (let i = 0; i < byOffset.length; i++) {
    const e = byOffset[i];
    const limit = i + 1 < byOffset.length ? byOffset[i + 1].localOffset : cdOffset;
    const minEnd = e.localOffset + LOCAL_SIZE + new TextEncoder().encode(e.name).length + e.compressedSize;
    if (minEnd > limit) fail(`entry ${JSON.stringify(e.name)} overlaps the next entry; the archive is corrupt or a zip bomb`);
    e.limit = limit;
  }
  return entries;
}

/** Where an entry's data starts and ends, from its local header (checked against the central directory). */
export async function entryDataRange(source: RangeReader, entry: ZipEntry, zipName: string): Promise<{ start: number; end: number }> {
  const fail = (problem: string): never => {
    throw new ImportError(zipName, `entry ${JSON.stringify(entry.name)} ${problem}`);
  };
  const head = await source.read(entry.localOffset, entry.localOffset + LOCAL_SIZE);
  if (head.length < LOCAL_SIZE || u32(head, 0) !== SIG_LOCAL) fail('has no local header where the central directory says; the archive is corrupt');
  if (u16(head, 8) !== entry.method) fail('has a different compression method in its local header than in the central directory');
  const start = entry.localOffset + LOCAL_SIZE + u16(head, 26) + u16(head, 28);
  const end = start + entry.compressedSize;
  if (end > entry.limit) fail('runs into the next entry; the archive is corrupt');
  return { start, end };
}

export interface EntryContent {
  bytes: Uint8Array;
  /** Where the entry's stored data lies in the archive (for stored entries: exactly `bytes`). */
  start: number;
  end: number;
}

/**
 * The full content of one entry. Stored entries are read as they are; deflated ones are inflated in
 * pieces and stopped the moment they exceed their declared size. The CRC-32 is checked.
 */
export async function readEntry(source: RangeReader, entry: ZipEntry, zipName: string): Promise<EntryContent> {
  const { start, end } = await entryDataRange(source, entry, zipName);
  const fail = (problem: string): never => {
    throw new ImportError(zipName, `entry ${JSON.stringify(entry.name)} ${problem}`);
  };
  let out: Uint8Array;
  if (entry.method === 0) {
    out = await source.read(start, end);
  } else {
    out = new Uint8Array(entry.size);
    let pos = 0;
    let overflow = false;
    const inflate = new Inflate((chunk) => {
      if (pos + chunk.length > entry.size) {
        overflow = true;
        throw new RangeError('overflow');
      }
      out.set(chunk, pos);
      pos += chunk.length;
    });
    try {
      if (end === start) inflate.push(new Uint8Array(0), true);
      for (let at = start; at < end; at += READ_CHUNK) {
        const stop = Math.min(end, at + READ_CHUNK);
        inflate.push(await source.read(at, stop), stop === end);
      }
    } catch (err) {
      if (overflow) fail(`inflates to more than the ${entry.size} bytes it declares; the archive is corrupt or a zip bomb`);
      fail(`cannot be inflated (${err instanceof Error ? err.message : String(err)}); the archive is corrupt`);
    }
    if (pos !== entry.size) fail(`inflates to ${pos} bytes but declares ${entry.size}; the archive is corrupt`);
  }
  if (crc32(out) !== entry.crc) fail('fails its CRC-32 check; the archive is corrupt');
  return { bytes: out, start, end };
}

let crcTable: Int32Array | null = null;

/** CRC-32 (IEEE), as zip stores it. */
export function crc32(data: Uint8Array, crc = 0): number {
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  let c = ~crc;
  for (let i = 0; i < data.length; i++) c = crcTable[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
