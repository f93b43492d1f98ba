/**
 * The one error type the store throws on purpose. `message` is written for the person using the app
 * (the UI shows it as is); `code` is for code that wants to react (offer to free space, reload, ...);
 * `cause` keeps the original Dexie/DOM error for the console.
 */
export type StoreErrorCode = 'quota' | 'invalid' | 'not_found' | 'newer_schema' | 'failed';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * True when `err`, or any error it wraps, is a quota failure. Browsers and Dexie report it in
 * different shapes: a DOMException named QuotaExceededError (Firefox formerly
 * NS_ERROR_DOM_QUOTA_REACHED, legacy code 22), wrapped by Dexie as `inner` of an AbortError when the
 * transaction aborts at commit, or inside a BulkError's `failures` when a bulkAdd hits it.
 */
export function isQuotaError(err: unknown, depth = 0): boolean {
  if (depth > 5 || err === null || typeof err !== 'object') return false;
  const e = err as {
    name?: unknown;
    code?: unknown;
    inner?: unknown;
    cause?: unknown;
    failures?: unknown;
  };
  if (e.name === 'QuotaExceededError' || e.name === 'NS_ERROR_DOM_QUOTA_REACHED') return true;
  if (e.name !== 'StoreError' && e.code === 22) return true;
  if (isQuotaError(e.inner, depth + 1) || isQuotaError(e.cause, depth + 1)) return true;
  if (Array.isArray(e.failures)) return e.failures.some((f) => isQuotaError(f, depth + 1));
  if (e.failures && typeof e.failures === 'object') {
    return Object.values(e.failures).some((f) => isQuotaError(f, depth + 1));
  }
  return false;
}

/** Short human reason from any thrown value, for "could not ...: <reason>" messages. */
export function reasonOf(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

export function notFound(what: string): StoreError {
  return new StoreError('not_found', `${what} was not found; it may have been deleted in another tab.`);
}
