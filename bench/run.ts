/**
 * npm run bench: every benchmark, printed as tables. Node benches run as child processes (one core
 * each, sequentially); browser benches run in real Chromium against a production build, so they
 * time the same code paths (WebCodecs, workers, IndexedDB) the app uses.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { build, preview } from 'vite';
import { chromium } from '@playwright/test';
import type { BenchRow } from './browser/importBench';
import { runPanelBench } from './browser/panelDriver';
import { paintStrokes, percentile as pct, startRecording, stopRecording } from './browser/scriptedPainting';
import { formatBreakdown, startTrace } from './browser/traceBreakdown';

const here = new URL('.', import.meta.url).pathname;
const only = process.argv[2];
// Overridable so two checkouts (or helpers) can bench side by side.
const PORT = Number(process.env.SPOC_BENCH_PORT ?? 4399);
/** A folder: trace the editor benches' timed runs with Chromium's tracing and print where the time went (traceBreakdown.ts). */
const TRACE_DIR = process.env.SPOC_BENCH_TRACE;

function nodeBenches(): void {
  const files = readdirSync(here).filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only))).sort();
  for (const f of files) {
    console.log(`\n## ${f}`);
    // --expose-gc: benches that report memory collect before they sample it.
    const r = spawnSync('npx', ['tsx', '--expose-gc', `${here}${f}`], { stdio: 'inherit' });
    if (r.status !== 0) console.log(`(${f} exited with ${r.status})`);
  }
}

async function browserBenches(): Promise<void> {
  console.log('\n## browser: import and storage (Chromium)');
  // Measure the production build (React in production mode, minified), plus a benchmark entry page.
  const outDir = process.env.SPOC_BENCH_DIST ?? 'bench/results/dist';
  await build({
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, sourcemap: false, rollupOptions: { input: { main: 'index.html', bench: 'bench/browser/bench.html' } } },
  });
  const server = await preview({ preview: { port: PORT, host: '127.0.0.1', strictPort: true }, build: { outDir }, logLevel: 'error' });
  const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    // tsx keeps function names with an `__name` helper that does not exist inside the page.
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
    page.on('console', (m) => {
      if (m.type() === 'log' && !m.text().startsWith('[vite]') && !m.text().includes('React DevTools')) console.log(`  ${m.text()}`);
    });
    await page.goto(`http://127.0.0.1:${PORT}/bench/browser/bench.html`);
    await page.waitForFunction(() => 'spocBench' in window);
    if (only === 'browser-inference') return await inferenceBench(page);
    // The editor alone (painting, frame switching): quick enough to A/B two builds.
    if (only === 'browser-editor') return await editorBench(page);
    // The metric panels alone (their updates, and painting with both open).
    if (only === 'browser-panels') return printTable(await runPanelBench(page, `http://127.0.0.1:${PORT}`, TRACE_DIR));
    const rows = await page.evaluate(() => {
      const b = (window as unknown as { spocBench: { runImportBench: (log: (s: string) => void) => Promise<BenchRow[]> } }).spocBench;
      return b.runImportBench((s) => console.log(s));
    });
    printTable(rows);
    await editorBench(page);
    console.log('\n## browser: metric panels (Chromium, 1400x900 window)');
    printTable(await runPanelBench(page, `http://127.0.0.1:${PORT}`, TRACE_DIR));
    await page.goto(`http://127.0.0.1:${PORT}/bench/browser/bench.html`);
    await page.waitForFunction(() => 'spocBench' in window);
    await inferenceBench(page);
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Painting on 1080p and switching frames on a 300-frame 720p clip, with the real mouse and keyboard. */
async function editorBench(page: import('@playwright/test').Page): Promise<void> {
  console.log('\n## browser: editor (Chromium, 1400x900 window)');
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`http://127.0.0.1:${PORT}/bench/browser/bench.html`);
  await page.waitForFunction(() => 'spocBench' in window);
  const ids = await page.evaluate(() =>
    (window as unknown as { spocBench: { seedEditorBench: () => Promise<{ paintClip: string; switchClip: string }> } }).spocBench.seedEditorBench(),
  );
  const objectsClip = await page.evaluate(() => (window as unknown as { spocBench: { seedObjectsBench: () => Promise<string> } }).spocBench.seedObjectsBench());
  const rows: BenchRow[] = [];

  // Painting: 20 strokes across a 1920x1080 frame at 1:1, sampled by rAF and the editor's probes.
  await page.goto(`http://127.0.0.1:${PORT}/#/c/${ids.paintClip}/0`);
  const canvas = page.getByTestId('editor-canvas');
  await canvas.waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-canvas"]')?.getAttribute('data-frame') === '0');
  await page.getByRole('button', { name: 'Actual pixels (1:1)' }).click();
  const stopPaintTrace = TRACE_DIR ? await startTrace(page.context().browser()!, page, `${TRACE_DIR}/paint.json`) : null;
  await startRecording(page);
  await paintStrokes(page);
  const paint = await stopRecording(page);
  if (stopPaintTrace) for (const line of formatBreakdown(await stopPaintTrace(), 20, 'stroke')) console.log(`  ${line}`);
  const by = paint.probe;
  rows.push({ name: 'paint 1080p: animation-frame interval p95 (20 strokes, 1200 moves)', value: `${pct(paint.frames, 95).toFixed(1)} ms`, note: 'target <= 16.7 ms' });
  rows.push({ name: 'paint 1080p: pointer-move handling p95 / max', value: `${pct(by('pointermove'), 95).toFixed(2)} / ${Math.max(...by('pointermove')).toFixed(2)} ms` });
  rows.push({ name: 'paint 1080p: mask repaint (dirty rectangle) p95', value: `${pct(by('mask repaint'), 95).toFixed(2)} ms` });
  rows.push({ name: 'paint 1080p: commit on pointer-up (patch + RLE encode) p95', value: `${pct(by('pointerup (commit)'), 95).toFixed(2)} ms` });
  rows.push({ name: 'paint 1080p: long tasks > 50 ms', value: `${paint.long.length}`, note: paint.long.length ? `max ${Math.max(...paint.long).toFixed(0)} ms` : 'target 0' });

  // The same strokes in an objects project's clip with 20 objects on the frame (docs/objects.md).
  await page.goto(`http://127.0.0.1:${PORT}/#/c/${objectsClip}/0`);
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-canvas"]')?.getAttribute('data-frame') === '0');
  await page.getByTestId('object-row').first().waitFor();
  await page.getByRole('button', { name: 'Actual pixels (1:1)' }).click();
  await startRecording(page);
  await paintStrokes(page);
  const objects = await stopRecording(page);
  rows.push({ name: 'paint 1080p, 20 objects: animation-frame interval p95', value: `${pct(objects.frames, 95).toFixed(1)} ms`, note: 'target <= 16.7 ms' });
  rows.push({ name: 'paint 1080p, 20 objects: pointer-move / mask repaint / commit p95', value: ['pointermove', 'mask repaint', 'pointerup (commit)'].map((p) => pct(objects.probe(p), 95).toFixed(2)).join(' / ') + ' ms' });
  rows.push({ name: 'paint 1080p, 20 objects: long tasks > 50 ms', value: `${objects.long.length}`, note: objects.long.length ? `max ${Math.max(...objects.long).toFixed(0)} ms` : 'target 0' });

  // Frame switching: ArrowRight through a 300-frame 1280x720 clip, timed from key to the frame shown.
  await page.goto(`http://127.0.0.1:${PORT}/#/c/${ids.switchClip}/0`);
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-canvas"]')?.getAttribute('data-frame') === '0');
  // Live heap = the sum of a heap snapshot's objects (the snapshot runs a full GC first). Chromium's
  // usedJSHeapSize also counts array-buffer memory awaiting release, which swings by tens of MB.
  const cdp = await page.context().newCDPSession(page);
  const heap = async (): Promise<number> => {
    const chunks: string[] = [];
    const onChunk = (e: { chunk: string }) => chunks.push(e.chunk);
    cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
    const snap = JSON.parse(chunks.join('')) as { snapshot: { meta: { node_fields: string[] } }; nodes: number[] };
    const fields = snap.snapshot.meta.node_fields;
    const self = fields.indexOf('self_size');
    let total = 0;
    for (let i = self; i < snap.nodes.length; i += fields.length) total += snap.nodes[i];
    return total;
  };
  const heapBefore = await heap();
  // Main-thread time (script, style, layout, paint) per switch from Chromium's own counters: unlike
  // the wall-clock times it barely moves when other processes load the machine, so two builds compare.
  await cdp.send('Performance.enable');
  const mainThreadMs = async () => {
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    const get = (n: string) => (metrics.find((m) => m.name === n)?.value ?? 0) * 1000;
    return { task: get('TaskDuration'), script: get('ScriptDuration') };
  };
  const cpuBefore = await mainThreadMs();
  const stopTrace = TRACE_DIR ? await startTrace(page.context().browser()!, page, `${TRACE_DIR}/switch-frames.json`) : null;
  /** Presses an arrow key and times it until the canvas shows frame `next`. */
  const step = (key: 'ArrowRight' | 'ArrowLeft', next: number) =>
    page.evaluate(
      ({ key, next }) =>
        new Promise<number>((resolve) => {
          const el = document.querySelector('[data-testid="editor-canvas"]') as HTMLElement;
          const t0 = performance.now();
          const obs = new MutationObserver(() => {
            if (el.dataset.frame === String(next)) {
              obs.disconnect();
              resolve(performance.now() - t0);
            }
          });
          obs.observe(el, { attributes: true, attributeFilter: ['data-frame'] });
          window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
        }),
      { key, next },
    );
  const times: number[] = [];
  for (let k = 1; k < 300; k++) times.push(await step('ArrowRight', k));
  const cpuAfter = await mainThreadMs(); // the forward pass only: the heap snapshot below is not counted
  if (stopTrace) for (const line of formatBreakdown(await stopTrace(), 299, 'switch')) console.log(`  ${line}`);
  const heapForward = await heap();
  // Back to the start: memory that grows again is a leak; memory that stays is a bounded cache.
  for (let k = 298; k >= 0; k--) times.push(await step('ArrowLeft', k));
  const heapAfter = await heap();
  rows.push({ name: 'switch frames, 300-frame 1280x720 clip, 598 switches: p50 / p95', value: `${pct(times, 50).toFixed(1)} / ${pct(times, 95).toFixed(1)} ms`, note: 'target p95 <= 50 ms' });
  const nSwitch = 299;
  rows.push({ name: 'switch frames: main-thread task / script time per switch', value: `${((cpuAfter.task - cpuBefore.task) / nSwitch).toFixed(1)} / ${((cpuAfter.script - cpuBefore.script) / nSwitch).toFixed(1)} ms`, note: 'forward pass; Chromium TaskDuration / ScriptDuration' });
  const mb = (b: number) => (b / 2 ** 20).toFixed(0);
  rows.push({ name: 'live JS heap (heap snapshot): start -> 299 switches forward -> 299 back', value: `${mb(heapBefore)} -> ${mb(heapForward)} -> ${mb(heapAfter)} MB`, note: 'decoded pictures: at most 7 at a time' });
  printTable(rows);
}

/** SAM click pre/post-processing, worker round trip and proposal overhead at 1080p (bench/browser/inferenceBench.ts). */
async function inferenceBench(page: import('@playwright/test').Page): Promise<void> {
  console.log('\n## browser: inference around the model (Chromium, inference worker, tiny models, 1920x1080)');
  const rows = await page.evaluate(() =>
    (window as unknown as { spocBench: { runInferenceBench: (log: (s: string) => void) => Promise<BenchRow[]> } }).spocBench.runInferenceBench((s) => console.log(s)),
  );
  printTable(rows);
}

function printTable(rows: BenchRow[]): void {
  const w = Math.max(...rows.map((r) => r.name.length));
  const v = Math.max(...rows.map((r) => r.value.length));
  console.log(`\n| ${'benchmark'.padEnd(w)} | ${'result'.padEnd(v)} | note |`);
  console.log(`|${'-'.repeat(w + 2)}|${'-'.repeat(v + 2)}|------|`);
  for (const r of rows) console.log(`| ${r.name.padEnd(w)} | ${r.value.padEnd(v)} | ${r.note ?? ''} |`);
}

if (!only || !only.startsWith('browser')) nodeBenches();
if (!only || only.startsWith('browser')) await browserBenches();
