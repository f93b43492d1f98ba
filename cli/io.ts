/**
 * What a command needs from the outside world, injected so tests run the real commands in-process:
 * two text sinks and a working directory against which relative paths are resolved.
 */
import path from 'node:path';

export interface TextSink {
  write(text: string): unknown;
}

export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  /** Relative paths on the command line are resolved against this (default process.cwd()). */
  cwd?: string;
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

export function resolvePath(io: CliIo, p: string): string {
  return path.resolve(io.cwd ?? process.cwd(), p);
}

/** A path for messages: as the user typed the root, joined with the part below it (forward slashes). */
export function displayPath(root: string, rel: string): string {
  const joined = rel ? path.join(root, rel) : root;
  return joined.split(path.sep).join('/');
}
