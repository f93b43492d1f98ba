/**
 * Reads a zip's central directory from the end of a Blob, without reading any entry's data, and
 * checks everything a hostile archive could lie about before a single byte is inflated:
 *
 * - the end record and the central directory must be where they say and inside the file;
 * - entry count, each entry's declared size, the declared total, and the compression ratio of each
 *   large entry and of the WHOLE archive are limited (a bomb of thousands of ~1 MB entries passes
 *   every per-entry check, but not the archive's ratio);
 * - encrypted entries, compression other than stored and deflate, multi-disk archives are refused;
 * - names are decoded per the spec (zipNames.ts) and must be relative and free of ".." (path
 *   traversal, also "\evil.jpg" and "C:\x");
 * - entries may not overlap (the "overlapping files" bomb) and must lie before the directory.
 *
 * zip64 is read (large exports from common tools use it); the limits apply to its 64-bit sizes.
 */
import { ImportError } from '../importError';
import { decodeEntryName, shownName, unsafeEntryName } from './zipNames';

export interface ZipLimits {
  maxEntries: number;
  /** Uncompressed bytes of one entry. */
  maxEntryBytes: number;
  /** Uncompressed bytes of all entries together. */
  maxTotalBytes: number;
  /** Declared size over stored size of one entry, checked for entries over ENTRY_RATIO_FLOOR. */
  maxEntryRatio: number;
  /** Declared total over the archive's size, checked once the total passes ARCHIVE_RATIO_FLOOR. */
  maxArchiveRatio: number;
  /** Size of the central directory itself (about 80 bytes per entry). */
  maxDirectoryBytes: number;
}

/** Below these, a high ratio costs too little memory to matter (a small JSON of zeros, a few flat masks). */
export const ENTRY_RATIO_FLOOR = 2 ** 20;
export const ARCHIVE_RATIO_FLOOR = 64 * 2 ** 20;

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate. */
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  /** Length of the raw name in bytes: the local header is at least 30 bytes plus this. */
  nameBytes: number;
  /** Where the next entry (or the central directory) starts: the entry's data must end before it. */
  limit: number;
}

const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_CENTRAL = 0x02014b50;
const EOCD_SIZE = 22;
const ZIP64_LOCATOR_SIZE = 20;
const ZIP64_EOCD_SIZE = 56;
const CENTRAL_SIZE = 46;
export const LOCAL_SIZE = 30;
const ZIP64_EXTRA = 0x0001;
/** Bit 0: traditional encryption; bit 6: strong encryption; bit 13: encrypted central directory. */
const ENCRYPTION_FLAGS = 0x0001 | 0x0040 | 0x2000;
const MAX_U32 = 0xffffffff;

export const u16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
export const u32 = (b: Uint8Array, o: number) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
/** A 64-bit zip64 field; values past 2^53 become Infinity, which every limit refuses. */
const u64 = (b: Uint8Array, o: number) => {
  const v = u32(b, o) + u32(b, o + 4) * 2 ** 32;
  return Number.isSafeInteger(v) ? v : Infinity;
};

async function bytesAt(blob: Blob, start: number, end: number): Promise<Uint8Array> {
  return new Uint8Array(await blob.slice(start, end).arrayBuffer());
}

/** "4.3 GB", "812 KB", "96 bytes": sizes in messages. */
export function bytesText(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(1)} GB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(1)} MB`;
  if (n >= 2 ** 10) return `${(n / 2 ** 10).toFixed(0)} KB`;
  return `${n} bytes`;
}

/** Where the central directory lies and how many entries it should hold, from the end records. */
async function findDirectory(blob: Blob, fail: (problem: string) => never): Promise<{ offset: number; size: number; end: number; count: number; zip64: boolean }> {
  const size = blob.size;
  if (size < EOCD_SIZE) fail(size === 0 ? 'is empty' : `is not a readable zip archive: it is ${size} bytes long, too short to be one (truncated?)`);
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
  if (eocd < 0) fail('is not a readable zip archive: it has no end-of-archive record (it is not a zip, or it is truncated)');
  if (u16(tail, eocd + 4) !== 0 || u16(tail, eocd + 6) !== 0) fail('is a multi-part (spanned) zip archive, which is not supported');
  const eocdPos = tailStart + eocd;
  const locator = eocdPos - ZIP64_LOCATOR_SIZE;
  if (locator >= 0 && u32(await bytesAt(blob, locator, locator + 4), 0) === SIG_ZIP64_LOCATOR) {
    const loc = await bytesAt(blob, locator, eocdPos);
    const at = u64(loc, 8);
    if (!(at + ZIP64_EOCD_SIZE <= locator)) fail("the zip's central directory is damaged: its zip64 end record lies outside the file; it is truncated or corrupt");
    const rec = await bytesAt(blob, at, at + ZIP64_EOCD_SIZE);
    if (u32(rec, 0) !== SIG_ZIP64_EOCD) fail("the zip's central directory is damaged: no zip64 end record where the locator says; it is truncated or corrupt");
    if (u32(rec, 16) !== 0 || u32(rec, 20) !== 0) fail('is a multi-part (spanned) zip archive, which is not supported');
    return { count: u64(rec, 32), size: u64(rec, 40), offset: u64(rec, 48), end: at, zip64: true };
  }
  return { count: u16(tail, eocd + 10), size: u32(tail, eocd + 12), offset: u32(tail, eocd + 16), end: eocdPos, zip64: false };
}

/** Sizes and offset that a central record set to 0xFFFFFFFF, from its zip64 extra field (in the spec's order). */
function zip64Fields(extra: Uint8Array, wanted: { size: boolean; compressed: boolean; offset: boolean }): { size?: number; compressed?: number; offset?: number } | null {
  for (let p = 0; p + 4 <= extra.length; p += 4 + u16(extra, p + 2)) {
    if (u16(extra, p) !== ZIP64_EXTRA) continue;
    const end = p + 4 + u16(extra, p + 2);
    let q = p + 4;
    const next = () => {
      if (q + 8 > end) return undefined;
      q += 8;
      return u64(extra, q - 8);
    };
    const out: { size?: number; compressed?: number; offset?: number } = {};
    if (wanted.size && (out.size = next()) === undefined) return null;
    if (wanted.compressed && (out.compressed = next()) === undefined) return null;
    if (wanted.offset && (out.offset = next()) === undefined) return null;
    return out;
  }
  return null;
}

/**
 * Lists the entries of a zip from its central directory (no entry data is read). `zipName` names
 * the file in every message.
 */
export async function readZipDirectory(blob: Blob, zipName: string, limits: ZipLimits): Promise<ZipEntry[]> {
  const fail = (problem: string): never => {
    throw new ImportError(zipName, problem);
  };
  const damaged = (detail: string): never => fail(`the zip's central directory is damaged (${detail}); the file is corrupt or truncated`);
  const dir = await findDirectory(blob, fail);
  if (dir.offset + dir.size !== dir.end) damaged(`it should end at byte ${dir.end} but runs from byte ${dir.offset} for ${dir.size} bytes`);
  if (dir.count > limits.maxEntries) fail(`has ${dir.count} entries; at most ${limits.maxEntries} are accepted`);
  if (dir.size > limits.maxDirectoryBytes) fail(`has a central directory of ${bytesText(dir.size)}, over the ${bytesText(limits.maxDirectoryBytes)} limit`);
  const cd = await bytesAt(blob, dir.offset, dir.end);
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let total = 0;
  let p = 0;
  const lossy = new TextDecoder('utf-8');
  while (p < cd.length) {
    const index = entries.length + 1;
    if (entries.length >= limits.maxEntries) fail(`has more than ${limits.maxEntries} entries`);
    if (p + CENTRAL_SIZE > cd.length || u32(cd, p) !== SIG_CENTRAL) damaged(`record ${index} at byte ${dir.offset + p} is not a directory entry`);
    const flags = u16(cd, p + 8);
    const method = u16(cd, p + 10);
    const crc = u32(cd, p + 16);
    let compressedSize = u32(cd, p + 20);
    let size = u32(cd, p + 24);
    const nameLen = u16(cd, p + 28);
    const extraLen = u16(cd, p + 30);
    const commentLen = u16(cd, p + 32);
    const disk = u16(cd, p + 34);
    let localOffset = u32(cd, p + 42);
    const next = p + CENTRAL_SIZE + nameLen + extraLen + commentLen;
    if (next > cd.length) damaged(`record ${index} runs past the directory's end`);
    const raw = cd.subarray(p + CENTRAL_SIZE, p + CENTRAL_SIZE + nameLen);
    const extra = cd.subarray(p + CENTRAL_SIZE + nameLen, p + CENTRAL_SIZE + nameLen + extraLen);
    const decoded = decodeEntryName(raw, flags, extra);
    if ('problem' in decoded) fail(`entry ${index} (${shownName(lossy.decode(raw))}): its name ${decoded.problem}`);
    const name = (decoded as { name: string }).name;
    const shown = shownName(name);
    const unsafe = unsafeEntryName(name);
    if (unsafe) fail(`entry ${shown} ${unsafe}; refusing the archive (path traversal)`);
    if (names.has(name)) fail(`contains the entry ${shown} twice`);
    names.add(name);
    if (disk !== 0 && disk !== 0xffff) fail(`entry ${shown} is on another disk of a multi-part archive`);
    if (flags & ENCRYPTION_FLAGS) fail(`entry ${shown} is encrypted; encrypted zips are not supported (unpack it with its password and zip it again without one)`);
    if (compressedSize === MAX_U32 || size === MAX_U32 || localOffset === MAX_U32) {
      const big = zip64Fields(extra, { size: size === MAX_U32, compressed: compressedSize === MAX_U32, offset: localOffset === MAX_U32 });
      if (!big) damaged(`entry ${shown} marks its sizes as zip64 but has no zip64 field`);
      size = big!.size ?? size;
      compressedSize = big!.compressed ?? compressedSize;
      localOffset = big!.offset ?? localOffset;
    }
    if (method !== 0 && method !== 8) fail(`entry ${shown} uses compression method ${method}; only stored (0) and deflate (8) are supported`);
    if (method === 0 && compressedSize !== size) fail(`entry ${shown} is stored but declares ${compressedSize} bytes stored and ${size} bytes of content`);
    if (size > limits.maxEntryBytes) fail(`entry ${shown} declares ${size} bytes, over the ${limits.maxEntryBytes} byte limit per entry`);
    if (method === 8 && size > ENTRY_RATIO_FLOOR && size > compressedSize * limits.maxEntryRatio) {
      fail(`entry ${shown} would expand ${Math.round(size / Math.max(1, compressedSize))}:1, which looks like a zip bomb`);
    }
    total += size;
    // The ratio over the whole archive first: a bomb should be called a bomb even when it also passes the total.
    if (total > ARCHIVE_RATIO_FLOOR && total > blob.size * limits.maxArchiveRatio) {
      fail(
        `looks like a zip bomb: its first ${index} entries alone declare ${bytesText(total)} of content in a ${bytesText(blob.size)} file ` +
          `(over ${limits.maxArchiveRatio}:1; images and text compress far less). Nothing was unpacked`,
      );
    }
    if (total > limits.maxTotalBytes) fail(`declares more than ${bytesText(limits.maxTotalBytes)} of content in total (limit); nothing was unpacked`);
    if (localOffset + LOCAL_SIZE + nameLen + compressedSize > dir.offset) fail(`entry ${shown} lies outside the archive's data; it is truncated or corrupt`);
    entries.push({ name, method, crc, compressedSize, size, localOffset, nameBytes: nameLen, limit: dir.offset });
    p = next;
  }
  if (dir.zip64 ? entries.length !== dir.count : entries.length % 0x10000 !== dir.count) {
    damaged(`the end record counts ${dir.count} entries but the directory lists ${entries.length}`);
  }
  // No two entries may share bytes: overlapping entries are how the densest zip bombs are built.
  const byOffset = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  for (let i = 0; i < byOffset.length; i++) {
    const e = byOffset[i];
    const limit = i + 1 < byOffset.length ? byOffset[i + 1].localOffset : dir.offset;
    if (e.localOffset + LOCAL_SIZE + e.nameBytes + e.compressedSize > limit) fail(`entry ${shownName(e.name)} overlaps the next entry; the archive is corrupt or a zip bomb`);
    e.limit = limit;
  }
  return entries;
}
