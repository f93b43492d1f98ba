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
