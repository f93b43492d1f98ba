/**
 * Project bundles are read through the app's one hardened zip reader (src/io/files/zipDirectory.ts
 * and zipEntry.ts: directory checks before anything is inflated, sizes and CRC-32 verified); only
 * their limits differ, because a bundle is a whole project.
 */
import type { ZipLimits } from '../files/zipDirectory';

export type ZipReadLimits = ZipLimits;

/**
 * A bundle holds every frame of a project (hundreds of MB to GB of stored JPEGs, ratio ~1) and its
 * JSON (deflated, 5-20:1). So: more entries and a larger total than a frame zip; the same ratio
 * limits, which no real bundle comes near and every bomb passes.
 */
export const DEFAULT_ZIP_READ_LIMITS: ZipReadLimits = {
  maxEntries: 500_000,
  maxEntryBytes: 512 * 2 ** 20,
  maxTotalBytes: 16 * 2 ** 30,
  maxEntryRatio: 200,
  maxArchiveRatio: 100,
  maxDirectoryBytes: 64 * 2 ** 20,
};
