/**
 * Reads a zip into VirtualFiles with fflate, defensively: the central directory is read first and
 * every entry's declared size is checked before anything is inflated, so zip bombs, absurd entry
 * counts and path-traversal names are refused without allocating their payload. fflate inflates
 * into a buffer of the declared size, so an entry that lies about its size cannot grow past it.
 */
import { unzipSync, type UnzipFileInfo } from 'fflate';
import { ImportError } from '../importError';
import { isJunkPath, normalisePath, type VirtualFile } from './virtualFile';

export interface ZipLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  /** Deflate rarely beats 100:1 on real media; bombs reach 1000:1 and more. */
  maxRatio: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 100_000,
  maxEntryBytes: 256 * 2 ** 20,
  maxTotalBytes: 4 * 2 ** 30,
  maxRatio: 200,
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

export async function readZip(
  zip: Blob,
  zipName: string,
  wanted: (path: string) => boolean = () => true,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<VirtualFile[]> {
  if (zip.size > limits.maxTotalBytes) {
    throw new ImportError(zipName, `is ${(zip.size / 2 ** 30).toFixed(1)} GB; zips up to ${limits.maxTotalBytes / 2 ** 30} GB are accepted`);
  }
  const bytes = new Uint8Array(await zip.arrayBuffer());
  let entries = 0;
  let declaredTotal = 0;
  let refusal: string | null = null;
  const seen = new Set<string>();
  const refuse = (problem: string) => {
    refusal ??= problem;
    return false;
  };

  const filter = (info: UnzipFileInfo): boolean => {
    if (refusal) return false;
    if (++entries > limits.maxEntries) return refuse(`has more than ${limits.maxEntries} entries`);
    const raw = info.name;
    if (raw.endsWith('/')) return false; // directory entry
    const path = normalisePath(raw);
    if (raw.startsWith('/') || /^[a-zA-Z]:/.test(raw) || path.split('/').includes('..')) {
      return refuse(`entry "${raw}" has an unsafe path (absolute or containing "..")`);
    }
    if (isJunkPath(path) || !wanted(path)) return false;
    if (seen.has(path)) return refuse(`contains "${path}" twice`);
    seen.add(path);
    if (info.compression !== 0 && info.compression !== 8) {
      return refuse(`entry "${raw}" uses compression method ${info.compression}; only stored and deflate are supported`);
    }
    if (info.originalSize > limits.maxEntryBytes) {
      return refuse(`entry "${raw}" declares ${info.originalSize} bytes, over the ${limits.maxEntryBytes} byte limit per file`);
    }
    if (info.compression === 8 && info.originalSize > 1_000_000 && info.originalSize > info.size * limits.maxRatio) {
      return refuse(`entry "${raw}" expands ${Math.round(info.originalSize / Math.max(1, info.size))}:1, which looks like a zip bomb`);
    }
    declaredTotal += info.originalSize;
    if (declaredTotal > limits.maxTotalBytes) return refuse(`expands to more than ${limits.maxTotalBytes} bytes in total`);
    return true;
  };

  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter });
  } catch (err) {
    if (refusal) throw new ImportError(zipName, refusal);
    const why = err instanceof Error ? err.message : String(err);
    throw new ImportError(zipName, `is not a readable zip archive (${why}); it may be truncated or corrupt`);
  }
  if (refusal) throw new ImportError(zipName, refusal);

  const out: VirtualFile[] = [];
  for (const [raw, data] of Object.entries(files)) {
    const path = normalisePath(raw);
    out.push({ path, blob: new Blob([data as Uint8Array<ArrayBuffer>], { type: mimeFor(path) }) });
  }
  return out;
}
