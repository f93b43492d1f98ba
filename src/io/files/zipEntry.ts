/**
 * Reads one zip entry at a time over a Blob (after zipDirectory.ts has checked the directory), so an
 * archive of any size is never loaded whole: stored entries are read as they are, deflated ones are
 * inflated in pieces with fflate's streaming Inflate and cut off the moment they produce more than
 * they declared. fflate's own unzip trusts the declared size and never checks CRC-32; here both are
 * checked, so an entry that lies about its size or content is refused, naming it.
 *
 * The running budget is the declared sizes: each entry is stopped at its declared size and the
 * declared total was limited before the first inflate, so the bytes inflated so far can never pass
 * that total, whatever the archive's deflate streams contain.
 */
import { Inflate } from 'fflate';
import { ImportError } from '../importError';
import { crc32 } from './zipCrc';
import { LOCAL_SIZE, u16, u32, type ZipEntry } from './zipDirectory';

const SIG_LOCAL = 0x04034b50;
/**
 * Deflated bytes handed to Inflate at a time. fflate inflates a whole push before handing the output
 * over, and deflate expands at most ~1032:1, so 64 KB in means at most ~64 MB out before the size
 * check sees it (an entry that lies about its size). Smaller pushes cost throughput: 16 KB pushes
 * of incompressible data (JPEGs) inflate about 3x slower.
 */
const INFLATE_CHUNK = 64 * 2 ** 10;

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

/** Where an entry's data starts and ends, from its local header (checked against the central directory). */
export async function entryDataRange(source: RangeReader, entry: ZipEntry, zipName: string): Promise<{ start: number; end: number }> {
  const fail = (problem: string): never => {
    throw new ImportError(zipName, `entry ${JSON.stringify(entry.name)} ${problem}`);
  };
  const head = await source.read(entry.localOffset, entry.localOffset + LOCAL_SIZE);
  if (head.length < LOCAL_SIZE || u32(head, 0) !== SIG_LOCAL) fail('has no local header where the central directory says; the archive is corrupt');
  if (u16(head, 6) & 1) fail('is encrypted (its local header says so); encrypted zips are not supported');
  if (u16(head, 8) !== entry.method) fail('has a different compression method in its local header than in the central directory; the archive is corrupt');
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
 * The full content of one entry, its size and CRC-32 checked. Deflated entries are inflated in
 * pieces and stopped the moment they exceed their declared size.
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
      for (let at = start; at < end; at += INFLATE_CHUNK) {
        const stop = Math.min(end, at + INFLATE_CHUNK);
        inflate.push(await source.read(at, stop), stop === end);
      }
    } catch (err) {
      if (overflow) fail(`inflates to more than the ${entry.size} bytes it declares; the archive is corrupt or a zip bomb`);
      fail(`cannot be inflated (${err instanceof Error ? err.message : String(err)}); the archive is corrupt`);
    }
    if (pos !== entry.size) fail(`inflates to ${pos} bytes but declares ${entry.size}; the archive is corrupt`);
  }
  if (crc32(out) !== entry.crc) fail('fails its CRC-32 check (its content is not what the archive recorded); the archive is corrupt');
  return { bytes: out, start, end };
}
