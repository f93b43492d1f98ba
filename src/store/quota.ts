/**
 * Storage persistence and quota. Browsers may evict a site's IndexedDB under storage pressure unless
 * the site is "persisted"; annotation work must not vanish, so the app asks once and keeps an eye on
 * how full the quota is before large imports.
 */

/** The part of navigator.storage we use; injectable so tests and odd environments can supply it. */
export interface StorageLike {
  persist?: () => Promise<boolean>;
  persisted?: () => Promise<boolean>;
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
}

function defaultStorage(): StorageLike | undefined {
  // Not `navigator.storage` directly: Node (tests, CLI) and some webviews have no navigator or no storage.
  return (globalThis as { navigator?: { storage?: StorageLike } }).navigator?.storage;
}

/** Asks the browser not to evict our data. Returns whether it is (now) persisted; never throws. */
export async function requestPersistence(storage: StorageLike | undefined = defaultStorage()): Promise<boolean> {
  if (!storage?.persist) return false;
  try {
    if (storage.persisted && (await storage.persisted())) return true;
    return await storage.persist();
  } catch {
    // Some browsers reject in private mode or sandboxed iframes: treat as "not persisted".
    return false;
  }
}

export interface QuotaInfo {
  /** Bytes used by this origin, 0 when unknown. */
  usage: number;
  /** Bytes this origin may use, 0 when unknown. */
  quota: number;
  persisted: boolean;
  /** False when the browser exposes no estimate; usage/quota are then 0 and mean "unknown". */
  known: boolean;
}

export async function readQuota(storage: StorageLike | undefined = defaultStorage()): Promise<QuotaInfo> {
  let persisted: boolean;
  try {
    persisted = storage?.persisted ? await storage.persisted() : false;
  } catch {
    persisted = false;
  }
  try {
    const est = storage?.estimate ? await storage.estimate() : undefined;
    if (est && typeof est.quota === 'number' && est.quota > 0) {
      return { usage: est.usage ?? 0, quota: est.quota, persisted, known: true };
    }
  } catch {
    // fall through to "unknown"
  }
  return { usage: 0, quota: 0, persisted, known: false };
}

export interface QuotaWarning {
  level: 'warn' | 'critical';
  message: string;
}

export const QUOTA_WARN_RATIO = 0.8;
export const QUOTA_CRITICAL_RATIO = 0.95;

/**
 * Whether storage is getting full, counting `incomingBytes` about to be written (an import).
 * warn from 80 %, critical from 95 % or when the incoming bytes would not fit at all. Returns null when
 * all is well or the quota is unknown (0): an unknown quota must not block imports.
 */
export function quotaWarning(usage: number, quota: number, incomingBytes = 0): QuotaWarning | null {
  if (!(quota > 0) || !Number.isFinite(quota)) return null;
  const used = Math.max(0, usage);
  const incoming = Math.max(0, incomingBytes);
  const after = used + incoming;
  const free = Math.max(0, quota - used);
  if (incoming > 0 && after > quota) {
    return {
      level: 'critical',
      message: `Not enough storage: this needs ${formatBytes(incoming)} but only ${formatBytes(free)} is free. Delete clips or free disk space first.`,
    };
  }
  const ratio = after / quota;
  const pct = Math.round(ratio * 100);
  const what = incoming > 0 ? `Storage will be ${pct}% full after this` : `Storage is ${pct}% full`;
  if (ratio >= QUOTA_CRITICAL_RATIO) {
    return {
      level: 'critical',
      message: `${what} (${formatBytes(after)} of ${formatBytes(quota)}). Delete clips or export a bundle before saving more.`,
    };
  }
  if (ratio >= QUOTA_WARN_RATIO) {
    return {
      level: 'warn',
      message: `${what} (${formatBytes(after)} of ${formatBytes(quota)}). Consider deleting clips you no longer need.`,
    };
  }
  return null;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${bytes} B`;
}

const MB = 1024 * 1024;

/** Sizes in megabytes with one decimal, as import refusals state them ("45.2 MB"). */
export function formatMB(bytes: number): string {
  return `${(Math.max(0, bytes) / MB).toFixed(1)} MB`;
}

/**
 * Headroom asked on top of an import's own bytes: IndexedDB stores each row with keys, a
 * structured-clone header and index entries, and LevelDB holds a write twice until it compacts.
 */
export const IMPORT_MARGIN = 0.1;

/**
 * Why an import of `incomingBytes` must be refused before anything is decoded or written, or null
 * when it fits: it needs its bytes plus IMPORT_MARGIN of free space (quota − usage). An unknown
 * quota (0) never refuses — better a clear quota error later than blocking every import.
 */
export function importRoomProblem(incomingBytes: number, usage: number, quota: number): string | null {
  if (!(quota > 0) || !Number.isFinite(quota) || !(incomingBytes > 0)) return null;
  const free = Math.max(0, quota - Math.max(0, usage));
  const needed = incomingBytes * (1 + IMPORT_MARGIN);
  if (needed <= free) return null;
  return (
    `needs about ${formatMB(needed)} of storage (${formatMB(incomingBytes)} of images and data plus ${Math.round(IMPORT_MARGIN * 100)} %) ` +
    `but only ${formatMB(free)} is free (${formatMB(usage)} of ${formatMB(quota)} used). Delete clips or export and remove a project first`
  );
}

/** One reading of navigator.storage.estimate() usage, for the write-rate estimate. */
export interface UsageSample {
  at: number;
  usage: number;
}

/**
 * The least we expect an hour of work to write, whatever this session has shown so far: an hour of
 * busy painting is ~600 strokes, each appending a revision (the stroke's box before and after) and
 * rewriting the frame's layer row, ~20 KB together in LevelDB's log before compaction — ~12 MB; twice
 * that leaves room for a small import or a proposal run.
 */
export const HOURLY_WRITES_FLOOR = 25 * MB;

/** A session's first minutes are extrapolated as if they had lasted at least this long. */
export const MIN_OBSERVED_MS = 15 * 60_000;

/**
 * Bytes the next hour is expected to write: this session's pace (the growth of usage between
 * readings, shrinkage ignored because deletes and compaction are not writes we can count on
 * repeating) scaled to an hour, never below HOURLY_WRITES_FLOOR. The observed time is taken as at
 * least MIN_OBSERVED_MS so one import in the first minute reads as a busy hour, not as 60 imports.
 */
export function expectedHourlyWrites(samples: readonly UsageSample[]): number {
  let written = 0;
  for (let i = 1; i < samples.length; i++) written += Math.max(0, samples[i].usage - samples[i - 1].usage);
  const span = samples.length > 1 ? samples[samples.length - 1].at - samples[0].at : 0;
  const pace = (written / Math.max(span, MIN_OBSERVED_MS)) * 3_600_000;
  return Math.max(HOURLY_WRITES_FLOOR, pace);
}

/** The meter's warning when free space is below what the next hour is expected to write; null otherwise or when unknown. */
export function lowSpaceWarning(usage: number, quota: number, hourlyWrites: number): QuotaWarning | null {
  if (!(quota > 0) || !Number.isFinite(quota)) return null;
  const free = Math.max(0, quota - Math.max(0, usage));
  if (free >= hourlyWrites) return null;
  return {
    level: free < hourlyWrites / 4 ? 'critical' : 'warn',
    message:
      `Only ${formatMB(free)} of storage is free, less than the next hour of work is expected to write (about ${formatMB(hourlyWrites)}). ` +
      'Export a bundle and delete clips you no longer need before saves start to fail.',
  };
}
