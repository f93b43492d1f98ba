/** Helpers for the CLI tests: run `main` in-process and write tiny mask folders. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decodeIndexedPng, encodeIndexedPng } from '../src/io/indexedPng';
import type { LabelMap } from '../src/masks/labelMap';
import { main } from './main';
// main.ts loads each command on first use; the tests load them with this file instead, so a test's
// first command does not spend its timeout compiling the command's modules.
import './commands/eval';
import './commands/demo';
import './commands/convert';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(argv: readonly string[], cwd: string): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd,
  });
  return { code, stdout, stderr };
}

export async function tempDir(prefix = 'spoc-cli-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A label map from rows of digits, e.g. ["0011", "0022"]; "F" stands for 255. */
export function mapOf(rows: readonly string[]): LabelMap {
  const height = rows.length;
  const width = rows[0].length;
  const data = new Uint8Array(width * height);
  rows.forEach((r, y) => {
    for (let x = 0; x < width; x++) data[y * width + x] = r[x] === 'F' ? 255 : Number.parseInt(r[x], 16);
  });
  return { width, height, data };
}

/** A 256-colour palette so any label value can be encoded (encodeIndexedPng needs one entry per value). */
export const FULL_PALETTE: [number, number, number][] = Array.from({ length: 256 }, (_, i) => [i, i, i]);

export async function writeMask(file: string, map: LabelMap): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, encodeIndexedPng(map, FULL_PALETTE));
}

export async function readMask(file: string): Promise<LabelMap> {
  return decodeIndexedPng(new Uint8Array(await readFile(file)), { fileName: file });
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}
