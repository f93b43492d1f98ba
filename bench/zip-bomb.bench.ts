/**
 * Zip bombs and legit zips through the hardened reader (src/io/files/zip*.ts), measured where users
 * meet them:
 * - the app: the many-entry bomb (4,250 entries of ~1 MB of zeros, ~4.5 MB on disk, 4.2 GB
 *   declared) imported through the real import UI in Chromium (Vite dev server, Playwright): time to
 *   the error, the longest stall of a 20 ms page timer, JS heap growth, and the RSS growth of all
 *   of Chromium's processes, sampled from /proc;
 * - the CLI: `spoc-studio convert` spawned on the bomb and on a tiny valid zip, peak RSS from
 *   /usr/bin/time -v (the difference is what the bomb costs);
 * - in Node: readZip on the bomb, and throughput on a legit zip of 400 real 1280x720 JPEGs,
 *   deflated and stored, to show what the CRC-32 and streaming inflate cost a real import.
 * Before the fix (docs/formats.md, zip bombs): the tab froze 34 s and inflated 7 GB; the CLI took 31 s and 8 GB RSS.
 * Run: npx tsx bench/zip-bomb.bench.ts   (ZIP_BENCH_PORT picks the dev server's port)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createServer } from 'vite';
import { chromium } from '@playwright/test';
import { encode as encodeJpeg } from 'jpeg-js';
import { createDemoClip } from '../src/demo';
import { readZip } from '../src/io/files/zipArchive';
import { entry, forgeZip, manyEntryBomb } from '../src/testing/zips';

const port = Number(process.env.ZIP_BENCH_PORT ?? 4396);
const here = path.dirname(new URL(import.meta.url).pathname);
const mb = (b: number) => (b / 2 ** 20).toFixed(1);
const rows: [string, string][] = [];
const row = (name: string, value: string) => {
  rows.push([name, value]);
  console.log(`  ${name}: ${value}`);
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'spoc-zip-bench-'));
const bombPath = path.join(dir, 'bomb.zip');
const bomb = manyEntryBomb({ name: (i) => `chopping_onion/JPEGImages_1fps/v1/frame${String(i).padStart(5, '0')}.jpg` });
writeFileSync(bombPath, bomb);
console.log(`bomb: ${bomb.length} bytes on disk, 4250 entries declaring ${mb(4250 * 999_000)} MB`);

/** RSS of every process descended from this one (Chromium's browser, renderer, GPU and utility processes). */
function descendantsRss(): number {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (mine.has(ppid) && !mine.has(pid)) {
        mine.add(pid);
        grew = true;
      }
    }
  }
  let total = 0;
  for (const pid of mine) {
    if (pid === process.pid) continue;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      total += m ? Number(m[1]) * 1024 : 0;
    } catch {
      // ended
    }
  }
  return total;
}

async function appBench(): Promise<void> {
  console.log('\napp (Chromium, import UI):');
  const server = await createServer({ server: { port, host: '127.0.0.1', strictPort: true }, logLevel: 'error' });
  await server.listen();
  const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--enable-precise-memory-info'],
  });
  try {
    const page = await browser.newPage();
    // tsx keeps function names with an `__name` helper that does not exist inside the page.
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.getByLabel('New project name').fill('Zip bomb bench');
    await page.getByRole('button', { name: 'New project' }).click();
    await page.getByTestId('project-name').waitFor();
    await page.waitForLoadState('networkidle');
    const rssBase = descendantsRss();
    let rssPeak = rssBase;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, descendantsRss())), 50);
    const heapBase = await page.evaluate(() => {
      const w = window as unknown as { __gap: number; __heap: number; __probe: number };
      const heap = () => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize;
      let last = performance.now();
      w.__gap = 0;
      w.__heap = heap();
      w.__probe = window.setInterval(() => {
        const now = performance.now();
        w.__gap = Math.max(w.__gap, now - last);
        w.__heap = Math.max(w.__heap, heap());
        last = now;
      }, 20);
      return heap();
    });
    const t = performance.now();
    await page.getByTestId('import-zip').setInputFiles(bombPath);
    const alert = page.getByRole('alert').filter({ hasText: 'looks like a zip bomb' });
    await alert.waitFor({ timeout: 120_000 });
    const ms = performance.now() - t;
    clearInterval(sampler);
    const probe = await page.evaluate(() => {
      const w = window as unknown as { __gap: number; __heap: number; __probe: number };
      window.clearInterval(w.__probe);
      return { gap: w.__gap, heap: w.__heap };
    });
    row('app: bomb refused after (file chosen -> error shown)', `${ms.toFixed(0)} ms`);
    row('app: longest stall of a 20 ms page timer meanwhile', `${probe.gap.toFixed(0)} ms`);
    row('app: JS heap growth (peak - before)', `${mb(probe.heap - heapBase)} MB`);
    row("app: Chromium processes' RSS growth (peak - before)", `${mb(rssPeak - rssBase)} MB`);
    row('app: message', (await alert.textContent())!.slice(0, 140));
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Peak RSS of `spoc-studio convert` on `zip`, from /usr/bin/time -v. */
function cliRun(zip: string): { ms: number; peak: number; code: number | null; stderr: string } {
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, path.join(here, '../cli/spoc-studio.mjs'), 'convert', '--from', 'wtc', '--to', 'coco', zip, path.join(dir, 'out.json')], {
    encoding: 'utf8',
  });
  const peak = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1] ?? 0) * 1024;
  return { ms: performance.now() - t, peak, code: r.status, stderr: r.stderr.split('\n').find((l) => l.includes('error')) ?? '' };
}

function cliBench(): void {
  console.log('\nCLI (spoc-studio convert, spawned):');
  if (!existsSync('/usr/bin/time')) return console.log('  /usr/bin/time is missing (apt-get install time); skipped');
  const tiny = path.join(dir, 'tiny.zip');
  writeFileSync(tiny, forgeZip([entry('chopping_onion/JPEGImages_1fps/v1/frame00001.jpg', new Uint8Array(100))]));
  const base = cliRun(tiny);
  const run = cliRun(bombPath);
  row('CLI: bomb refused, wall time including start-up (exit code)', `${run.ms.toFixed(0)} ms (${run.code})`);
  row('CLI: tiny valid zip, wall time (start-up alone)', `${base.ms.toFixed(0)} ms`);
  row('CLI: peak RSS, bomb / tiny zip / growth', `${mb(run.peak)} / ${mb(base.peak)} / ${mb(run.peak - base.peak)} MB`);
  row('CLI: message', run.stderr.slice(0, 140));
}

async function nodeBench(): Promise<void> {
  console.log('\nNode (readZip in-process):');
  const rss = process.memoryUsage().rss;
  let t = performance.now();
  const err = await readZip(new Blob([bomb]), 'bomb.zip').catch((e: Error) => e);
  row('node: readZip refuses the bomb after', `${(performance.now() - t).toFixed(1)} ms, RSS +${mb(process.memoryUsage().rss - rss)} MB (${err instanceof Error ? 'refused' : 'ACCEPTED'})`);
  // A legit zip: real 1280x720 JPEG frames (demo scenes), as a zip tool writes them: deflated (ratio
  // ~1, the common case) or stored (as bundles do).
  const clip = createDemoClip({ seed: 4, kind: 'slicing', width: 1280, height: 720, durationSec: 8 });
  const jpegs = Array.from({ length: 8 }, (_, i) => new Uint8Array(encodeJpeg({ ...clip.renderAt(i, { frameIndex: i }), width: 1280, height: 720 }, 90).data));
  for (const method of [8, 0] as const) {
    const legit = forgeZip(Array.from({ length: 400 }, (_, i) => entry(`clip/frame${String(i).padStart(4, '0')}.jpg`, jpegs[i % 8], method)));
    t = performance.now();
    const files = await readZip(new Blob([legit]), 'legit.zip');
    const s = (performance.now() - t) / 1000;
    row(`node: legit zip, ${files.length} 1280x720 JPEGs, ${method === 8 ? 'deflated' : 'stored'}`, `${(legit.length / 2 ** 20 / s).toFixed(0)} MB/s (${s.toFixed(2)} s for ${mb(legit.length)} MB)`);
  }
}

try {
  await nodeBench();
  cliBench();
  await appBench();
  console.log('\n| zip bomb benchmark | result |\n|---|---|');
  for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
