/**
 * Reads a zip into VirtualFiles for the app's and the CLI's imports, through the same hardened
 * reader as project bundles: the central directory is checked as a whole first (zipDirectory.ts:
 * entry sizes, the archive's total and ratio, names, encryption), then only the wanted entries are
 * read, one at a time, each stopped at its declared size and checked against its CRC-32
 * (zipEntry.ts). Stored entries become slices of the zip (nothing copied); deflated ones are
 * inflated into memory.
 */
import { ImportError } from '../importError';
import { isJunkPath, normalisePath, type VirtualFile } from './virtualFile';
import { readZipDirectory, type ZipLimits } from './zipDirectory';
import { RangeReader, readEntry } from './zipEntry';

export type { ZipLimits } from './zipDirectory';

/**
 * Limits for zips of frames, WhereToChange exports and annotation folders (app and CLI).
 * - 100,000 entries: a WhereToChange export at 1 fps is thousands of frames and masks, not more.
 * - 256 MB per entry: far over any frame image; a big COCO JSON fits.
 * - 4 GB in total: what a tab can hold before the frames are committed.
 * - 200:1 per entry over 1 MB, 100:1 over the whole archive once it declares 64 MB: JPEG, PNG and
 *   WebP frames are already compressed (about 1:1), JSON and masks reach 10-20:1, while bombs sit
 *   near deflate's ceiling of 1032:1. Per-entry checks alone let thousands of 1 MB entries through.
 * - 64 MB of central directory: ~100 bytes per entry, so the entry limit binds first.
 */
export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 100_000,
  maxEntryBytes: 256 * 2 ** 20,
  maxTotalBytes: 4 * 2 ** 30,
  maxEntryRatio: 200,
  maxArchiveRatio: 100,
  maxDirectoryBytes: 64 * 2 ** 20,
};

const MIME_BY_EXT: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  bmp: 'image/bmp',
  json: 'application/json',
};

export function mimeFor(path: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return MIME_BY_EXT[ext] ?? 'application/octet-stream';
}

/**
 * The files of a zip, paths normalised, folders, OS clutter and unwanted paths left out (and never
 * inflated). Throws an ImportError naming `zipName` and the problem.
 */
export async function readZip(
  zip: Blob,
  zipName: string,
  wanted: (path: string) => boolean = () => true,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<VirtualFile[]> {
  const entries = await readZipDirectory(zip, zipName, limits);
  const source = new RangeReader(zip);
  const seen = new Set<string>();
  const out: VirtualFile[] = [];
  for (const entry of entries) {
    if (entry.name.endsWith('/') || entry.name.endsWith('\\')) continue; // a folder
    const path = normalisePath(entry.name);
    if (isJunkPath(path) || !wanted(path)) continue;
    // "a/b.jpg" and "a\b.jpg" are different names but one path.
    if (seen.has(path)) throw new ImportError(zipName, `contains "${path}" twice`);
    seen.add(path);
    const { bytes, start, end } = await readEntry(source, entry, zipName);
    const type = mimeFor(path);
    out.push({ path, blob: entry.method === 0 ? zip.slice(start, end, type) : new Blob([bytes as Uint8Array<ArrayBuffer>], { type }) });
  }
  return out;
}
