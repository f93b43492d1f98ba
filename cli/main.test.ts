import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli, tempDir } from './testing';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeFile(path.join(dir, 'a-file.txt'), 'x');
});
afterAll(() => cleanup());

describe('spoc-studio top level', () => {
  it('prints help on --help and help COMMAND with exit 0', async () => {
    const top = await runCli(['--help'], dir);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('spoc-studio eval --gt DIR --pred DIR');
    const evalHelp = await runCli(['help', 'eval'], dir);
    expect(evalHelp.code).toBe(0);
    expect(evalHelp.stdout).toContain('--convention NAME');
    const demoHelp = await runCli(['demo', '--help'], dir);
    expect(demoHelp.code).toBe(0);
    expect(demoHelp.stdout).toContain('--pred-noise P');
  });

  it('prints the version', async () => {
    const r = await runCli(['--version'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^spoc-studio \d+\.\d+\.\d+/);
  });

  it.each([
    [[], 'Usage:'],
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['--gt', 'x'], 'expected a command before --gt'],
    [['help', 'nope'], 'no help for "nope"'],
    [['eval'], '--gt is required'],
    [['eval', '--gt', 'g'], '--pred is required'],
    [['eval', '--gt', 'g', '--pred', 'p', '--bogus'], "Unknown option '--bogus'"],
    [['eval', '--gt', 'g', '--pred', 'p', 'extra'], "Unexpected argument 'extra'"],
    [['eval', '--gt', 'g', '--pred', 'p', '--convention', 'mean'], '--convention must be one of clip-pooled, per-frame, dataset-pooled'],
    [['eval', '--gt', 'missing-dir', '--pred', 'p'], '--gt missing-dir: no such folder'],
    [['eval', '--gt', 'a-file.txt', '--pred', 'p'], 'is a file, not a folder'],
    [['eval', '--gt', '.', '--pred', 'p', '--json'], "Option '--json <value>' argument missing"],
    [['demo'], '--out is required'],
    [['demo', '--out', 'o', '--size', '640by360'], '--size must look like WIDTHxHEIGHT'],
    [['demo', '--out', 'o', '--size', '0x10'], '--size sides must be between 1'],
    [['demo', '--out', 'o', '--frames', '0'], '--frames must be between 1 and'],
    [['demo', '--out', 'o', '--frames', '2.5'], '--frames must be an integer'],
    [['demo', '--out', 'o', '--kind', 'juggling'], '--kind must be one of grating, peeling, slicing'],
    [['demo', '--out', 'o', '--pred-noise', '0.5'], '--pred-noise needs --pred-out'],
    [['demo', '--out', 'o', '--pred-out', 'p', '--pred-noise', '1.5'], '--pred-noise must be a number between 0 and 1'],
  ])('usage error %j exits 2', async (argv, message) => {
    const r = await runCli(argv, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });

  it('points usage errors at the right help', async () => {
    const r = await runCli(['eval', '--gt', 'x'], dir);
    expect(r.stderr).toContain('Run "spoc-studio eval --help" for usage.');
  });
});

describe('the spoc-studio.mjs shim', () => {
  it('runs the TypeScript CLI under plain node, with its exit codes', async () => {
    const { execFile } = await import('node:child_process');
    const shim = path.resolve(__dirname, 'spoc-studio.mjs');
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [shim, ...args], { cwd: dir }, (err, stdout, stderr) => {
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
        });
      });
    const version = await run(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^spoc-studio \d/);
    const bad = await run(['eval', '--gt', 'nowhere', '--pred', 'nowhere']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--gt nowhere: no such folder');
  });
});
