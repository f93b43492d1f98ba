/**
 * `spoc-studio eval` on a generated set: 10 clips x 20 frames at 854x480, predictions degraded on
 * 30 % of the frames. Runs the real command in-process (output discarded) and prints wall seconds.
 * Run: npx tsx bench/cli-eval.bench.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeDemo } from '../cli/commands/demo';
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
} finally {
  await rm(dir, { recursive: true, force: true });
}
