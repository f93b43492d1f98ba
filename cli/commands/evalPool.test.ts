/**
 * `eval --jobs N`: clips evaluated on worker threads (cli/evalPool.ts) give the output of the
 * single-threaded run, byte for byte (tables, JSON, warnings in clip order), and on bad input the
 * error of the first failing clip. The workers here run the TypeScript sources (evalWorkerBoot.mjs).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../testing';
import { writeDemo } from './demo';

let root: string;
let cleanup: () => Promise<void>;
const sink = { write: () => true };

describe('eval --jobs', () => {
  beforeAll(async () => {
    ({ dir: root, cleanup } = await tempDir('spoc-cli-pool-'));
    await writeDemo({ out: 'set', seed: 5, kind: null, frames: 6, width: 64, height: 48, clips: 5, predOut: 'set', predNoise: 0.6, skipImages: true }, { stdout: sink, stderr: sink, cwd: root });
  }, 60_000);
  afterAll(() => cleanup?.());

  it('equals the single-threaded run: report, JSON and warnings', async () => {
    const args = ['eval', '--gt', 'set', '--pred', 'set', '--boundary', '--json', '-'];
    const one = await runCli([...args, '--jobs', '1'], root);
    const three = await runCli([...args, '--jobs', '3'], root);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout).clips.length).toBe(5);
    expect(three).toEqual(one);
    const table = await runCli(['eval', '--gt', 'set', '--pred', 'set', '--jobs', '2'], root);
    expect(table).toEqual(await runCli(['eval', '--gt', 'set', '--pred', 'set', '--jobs', '1'], root));
  }, 120_000);

  it('reports the first failing clip in clip order, as the single-threaded run does', async () => {
    const { dir, cleanup: done } = await tempDir('spoc-cli-pool-bad-');
    try {
      await writeDemo({ out: 'set', seed: 5, kind: null, frames: 4, width: 64, height: 48, clips: 4, predOut: 'set', predNoise: 0, skipImages: true }, { stdout: sink, stderr: sink, cwd: dir });
      const doc = JSON.parse((await runCli(['eval', '--gt', 'set', '--pred', 'set', '--json', '-'], dir)).stdout) as { frames: { pred: string | null }[] };
      const files = doc.frames.map((f) => f.pred).filter((f): f is string => f !== null);
      // Break a mask of the second and of the last clip: the second is the one named.
      const second = files[4];
      const last = files[files.length - 1];
      for (const f of [second, last]) await writeFile(path.join(dir, f), (await readFile(path.join(dir, f))).subarray(0, 40));
      const one = await runCli(['eval', '--gt', 'set', '--pred', 'set', '--jobs', '1'], dir);
      const four = await runCli(['eval', '--gt', 'set', '--pred', 'set', '--jobs', '4'], dir);
      expect(one.code).toBe(1);
      expect(one.stderr).toContain(second);
      expect(four).toEqual(one);
    } finally {
      await done();
    }
  }, 120_000);

  it('refuses a --jobs that is not a whole number from 1 to 256', async () => {
    for (const bad of ['0', 'two', '1.5', '999', '']) {
      const r = await runCli(['eval', '--gt', 'set', '--pred', 'set', '--jobs', bad], root);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(bad === '' ? '--jobs' : '--jobs must be a whole number from 1 to 256');
    }
  });
});
