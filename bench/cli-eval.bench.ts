/**
 * `spoc-studio eval` on a generated set: 10 clips x 20 frames at 854x480, predictions degraded on
 * 30 % of the frames. Runs the real command in-process (output discarded) and prints wall seconds.
 * Then end to end against the reference: the built CLI as a process (start, PNG decoding, J and F
 * of both states on every core) on 300 frames at 854x480, and davis2017-evaluation's numpy
 * re-statement on the same masks, with the ratio.
 * Run: npm run bench cli-eval (or npx tsx bench/cli-eval.bench.ts)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { writeDemo } from '../cli/commands/demo';
import { havePythonNumpy, timeNumpyReference, writeNumpyManifest } from './numpyReference';
import { main } from '../cli/main';
import type { CliIo } from '../cli/io';

const CLIPS = 10;
const FRAMES = 20;
const [W, H] = [854, 480];

const sink = { write: () => true };

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const out = await fn();
  const s = (performance.now() - t) / 1000;
  console.log(`${label.padEnd(44)} ${s.toFixed(2).padStart(6)} s  (${((s * 1000) / (CLIPS * FRAMES)).toFixed(1)} ms/frame)`);
  return out;
}

async function evalRun(dir: string, extra: string[]): Promise<void> {
  let err = '';
  const io: CliIo = { stdout: sink, stderr: { write: (s: string) => (err += s) }, cwd: dir };
  const code = await main(['eval', '--gt', 'set', '--pred', 'set', ...extra], io);
  if (code !== 0) throw new Error(`eval exited ${code}: ${err}`);
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'spoc-cli-bench-'));
try {
  console.log(`spoc-studio eval: ${CLIPS} clips x ${FRAMES} frames, ${W}x${H} (Node ${process.version})`);
  const quiet: CliIo = { stdout: sink, stderr: sink, cwd: dir };
  await timed('generate GT + predictions (demo, masks only)', () =>
    writeDemo({ out: 'set', seed: 1, kind: null, frames: FRAMES, width: W, height: H, clips: CLIPS, predOut: 'set', predNoise: 0.3, skipImages: true }, quiet),
  );
  await timed('eval (first run, cold JIT)', () => evalRun(dir, []));
  await timed('eval', () => evalRun(dir, []));
  await timed('eval --json', () => evalRun(dir, ['--json', 'out.json']));
  await timed('eval --boundary --json', () => evalRun(dir, ['--boundary', '--json', 'out-b.json']));
  const mem = process.memoryUsage();
  console.log(`heap used ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB, rss ${(mem.rss / 2 ** 20).toFixed(0)} MiB after all runs`);
  await versusReference(dir, quiet);
} finally {
  await rm(dir, { recursive: true, force: true });
}

interface ProcessTime {
  wall: number;
  /** User + system CPU seconds of the process and its threads (null without /usr/bin/time). */
  cpu: number | null;
}

/** Wall and CPU seconds of a child process, start to exit. */
function timeProcess(cmd: string, args: readonly string[], cwd: string): ProcessTime {
  const gnuTime = existsSync('/usr/bin/time');
  const t = performance.now();
  const r = gnuTime
    ? spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', cmd, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 })
    : spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const m = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  return { wall, cpu: m ? Number(m[1]) + Number(m[2]) : null };
}

function show(t: ProcessTime): string {
  return `${t.wall.toFixed(2).padStart(7)} s wall${t.cpu === null ? '' : `, ${t.cpu.toFixed(2)} s CPU`}`;
}

/** 300 frames at 854x480: the built CLI as a process against the numpy re-statement of davis2017-evaluation. */
async function versusReference(root: string, quiet: CliIo): Promise<void> {
  const [clips, frames] = [10, 30];
  console.log(`\nend to end, ${clips} clips x ${frames} frames = ${clips * frames} frames at ${W}x${H}, ${os.availableParallelism()} core(s):`);
  const build = spawnSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: new URL('..', import.meta.url).pathname, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
  const bin = new URL('../cli/spoc-studio.mjs', import.meta.url).pathname;
  const dir = path.join(root, 'ref');
  await writeDemo({ out: 'set', seed: 2, kind: null, frames, width: W, height: H, clips, predOut: 'set', predNoise: 0.3, skipImages: true }, { ...quiet, cwd: dir });
  const cli = timeProcess(process.execPath, [bin, 'eval', '--gt', 'set', '--pred', 'set', '--boundary', '--json', 'out.json'], dir);
  console.log(`${'spoc-studio eval --boundary (built, all cores)'.padEnd(52)} ${show(cli)}`);
  const one = timeProcess(process.execPath, [bin, 'eval', '--gt', 'set', '--pred', 'set', '--boundary', '--jobs', '1', '--json', 'out1.json'], dir);
  console.log(`${'spoc-studio eval --boundary --jobs 1'.padEnd(52)} ${show(one)}`);
  if (!havePythonNumpy()) {
    console.log('davis2017 numpy reference: skipped (python3 with numpy and scipy not found), no ratio');
    return;
  }
  await mkdir(path.join(dir, 'np'));
  const manifest = await writeNumpyManifest(path.join(dir, 'set'), path.join(dir, 'np'));
  const ref = timeNumpyReference(manifest);
  console.log(`${'davis2017 numpy re-statement (J and F, 2 objects)'.padEnd(52)} ${show(ref)}`);
  const ratio = (r: ProcessTime, c: ProcessTime): string =>
    `${(r.wall / c.wall).toFixed(1)}x wall${r.cpu !== null && c.cpu !== null ? `, ${(r.cpu / c.cpu).toFixed(1)}x CPU` : ''}`;
  console.log(`ratio reference / CLI: ${ratio(ref, cli)} (--jobs 1: ${ratio(ref, one)})`);
}
