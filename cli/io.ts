/**
 * What a command needs from the outside world, injected so tests run the real commands in-process:
 * two text sinks and a working directory against which relative paths are resolved.
 */
import path from 'node:path';
import { ImportError } from '../src/io/importError';
import { MaskFormatError } from '../src/masks/errors';

export interface TextSink {
  write(text: string): unknown;
}

export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  /** Relative paths on the command line are resolved against this (default process.cwd()). */
  cwd?: string;
  /** What --password-stdin reads (default process.stdin). */
  stdin?: AsyncIterable<string | Uint8Array>;
  /** Environment (DATABASE_URL) for the server commands (default process.env). */
  env?: Record<string, string | undefined>;
}

/** Exit codes: 0 success, 1 data error (bad or inconsistent input files), 2 usage error. */
export const EXIT = { ok: 0, data: 1, usage: 2 } as const;

/** The command line is wrong: unknown option, bad value, missing argument, path that is not a folder. */
export class UsageError extends Error {
  /** Which command's help to point at ("" for the top level). */
  readonly command: string;
  constructor(message: string, command = '') {
    super(message);
    this.name = 'UsageError';
    this.command = command;
  }
}

/** The data is wrong: unreadable or malformed files, sizes that disagree. The message names the file(s). */
export class DataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataError';
  }
}

/**
 * The one place where input problems become data errors (exit 1): our own DataError, and the
 * errors of the shared readers in src/ (ImportError from the format codecs, MaskFormatError from the
 * PNG and RLE decoders), which name files relative to what they were given. `showFile` turns such
 * a name into the path the user can open (the folder typed on the command line joined with it).
 * Anything else is a bug and stays an internal error.
 */
export function asDataError(err: unknown, showFile: (name: string) => string = (name) => name): DataError | null {
  if (err instanceof DataError) return err;
  if (err instanceof ImportError) return new DataError(`${showFile(err.fileName)}: ${err.problem}`);
  if (err instanceof MaskFormatError) return new DataError(err.fileName === undefined ? err.problem : `${showFile(err.fileName)}: ${err.problem}`);
  return null;
}

/** A file-system failure in plain words (no absolute paths, no errno jargon when a plain word exists). */
export function fsProblem(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e?.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOENT':
      return 'it does not exist (any more)';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
      return 'a part of its path is a file, not a folder';
    case 'EIO':
      return 'input/output error (a failing disk or network share?)';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EROFS':
      return 'the file system is read-only';
    default:
      return e?.message ?? String(err);
  }
}

export function resolvePath(io: CliIo, p: string): string {
  return path.resolve(io.cwd ?? process.cwd(), p);
}

/** A path for messages: as the user typed the root, joined with the part below it (forward slashes). */
export function displayPath(root: string, rel: string): string {
  const joined = rel ? path.join(root, rel) : root;
  return joined.split(path.sep).join('/');
}

/** "evaluating: n/total frames" on a terminal's stderr, every 25 frames and at the end; nothing when stderr is not a terminal. */
export function frameProgress(io: CliIo): ((done: number, total: number) => void) | undefined {
  if ((io.stderr as { isTTY?: boolean }).isTTY !== true) return undefined;
  let lastShown = 0;
  return (done, total) => {
    if (done !== total && done - lastShown < 25) return;
    lastShown = done;
    io.stderr.write(`\revaluating: ${done}/${total} frames`);
    if (done === total) io.stderr.write('\r\x1b[K');
  };
}
