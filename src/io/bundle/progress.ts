/** Progress and cancellation shared by bundle export and import. */

export interface BundleProgress {
  /** What is happening, for people ("Exporting "peel 01"", "Checking entries", "Saving"). */
  stage: string;
  done: number;
  total: number;
  /** Bytes written (export) or read (import) so far. */
  bytes: number;
}

/** Thrown when the user cancels; the UI treats it as silence, not as an error. */
export class BundleCancelled extends Error {
  constructor(readonly operation: 'export' | 'import') {
    super(operation === 'export' ? 'Export cancelled.' : 'Import cancelled; nothing was saved.');
    this.name = 'BundleCancelled';
  }
}

export function throwIfCancelled(signal: AbortSignal | undefined, operation: 'export' | 'import'): void {
  if (signal?.aborted) throw new BundleCancelled(operation);
}
