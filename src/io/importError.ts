/**
 * Every rejected input is reported as "<file>: <problem>" so the user knows which file to fix.
 * Import code throws ImportError; the UI shows `message` as is.
 */
export class ImportError extends Error {
  readonly fileName: string;
  readonly problem: string;

  constructor(fileName: string, problem: string) {
    super(`${fileName}: ${problem}`);
    this.name = 'ImportError';
    this.fileName = fileName;
    this.problem = problem;
  }
}

/** Thrown when the user cancels an import; the UI treats it as silence, not as an error. */
export class ImportCancelled extends Error {
  constructor() {
    super('Import cancelled; nothing was saved.');
    this.name = 'ImportCancelled';
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ImportCancelled();
}
