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

const here = new URL('.', import.meta.url).pathname;
const only = process.argv[2];

function nodeBenches(): void {
  const files = readdirSync(here).filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only))).sort();
  for (const f of files) {
    console.log(`\n## ${f}`);
    const r = spawnSync('npx', ['tsx', `${here}${f}`], { stdio: 'inherit' });
    if (r.status !== 0) console.log(`(${f} exited with ${r.status})`);
  }
}

async function browserBenches(): Promise<void> {
  console.log('\n## browser: import and storage (Chromium)');
  // Measure the production build (React in production mode, minified), plus a benchmark entry page.
  const outDir = 'bench/results/dist';
  await build({
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, sourcemap: false, rollupOptions: { input: { main: 'index.html', bench: 'bench/browser/bench.html' } } },
  });
  const server = await preview({ preview: { port: 4399, host: '127.0.0.1', strictPort: true }, build: { outDir }, logLevel: 'error' });
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
    await page.goto('http://127.0.0.1:4399/bench/browser/bench.html');
    await page.waitForFunction(() => 'spocBench' in window);
    const rows = await page.evaluate(() => {
      const b = (window as unknown as { spocBench: { runImportBench: (log: (s: string) => void) => Promise<BenchRow[]> } }).spocBench;
      return b.runImportBench((s) => console.log(s));
    });
    printTable(rows);
    await editorBench(page);
    console.log('\n## browser: metric panels (Chromium, 1400x900 window)');
    printTable(await runPanelBench(page, 'http://127.0.0.1:4399'));
  } finally {
    await browser.close();
    await server.close();
  }
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** Painting on 1080p and switching frames on a 300-frame 720p clip, with the real mouse and keyboard. */
async function editorBench(page: import('@playwright/test').Page): Promise<void> {
  console.log('\n## browser: editor (Chromium, 1400x900 window)');
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('http://127.0.0.1:4399/bench/browser/bench.html');
  await page.waitForFunction(() => 'spocBench' in window);
  const ids = await page.evaluate(() =>
    (window as unknown as { spocBench: { seedEditorBench: () => Promise<{ paintClip: string; switchClip: string }> } }).spocBench.seedEditorBench(),
  );
  const rows: BenchRow[] = [];

  // Painting: 20 strokes across a 1920x1080 frame at 1:1, sampled by rAF and the editor's probes.
  await page.goto(`http://127.0.0.1:4399/#/c/${ids.paintClip}/0`);
  const canvas = page.getByTestId('editor-canvas');
  await canvas.waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-canvas"]')?.getAttribute('data-frame') === '0');
  await page.getByRole('button', { name: 'Actual pixels (1:1)' }).click();
  await page.evaluate(() => {
    const w = window as unknown as { __spocPerf: [string, number][]; __frames: number[]; __long: number[]; __stop: boolean };
    w.__spocPerf = [];
    w.__frames = [];
    w.__long = [];
    w.__stop = false;
    let last = performance.now();
    const tick = (t: number) => {
      w.__frames.push(t - last);
      last = t;
      if (!w.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__long.push(e.duration))).observe({ type: 'longtask', buffered: false });
  });
  const box = (await canvas.boundingBox())!;
  await page.keyboard.press('1');
  for (let i = 0; i < 20; i++) {
    if (i === 10) await page.keyboard.press('2');
    const y = box.y + 60 + i * 28;
    await page.mouse.move(box.x + 40, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 40, y + 10, { steps: 60 });
    await page.mouse.up();
  }
  const paint = await page.evaluate(() => {
    const w = window as unknown as { __spocPerf: [string, number][]; __frames: number[]; __long: number[]; __stop: boolean };
    w.__stop = true;
    return { perf: w.__spocPerf, frames: w.__frames.slice(2), long: w.__long };
  });
  const by = (name: string) => paint.perf.filter(([n]) => n === name).map(([, ms]) => ms);
  rows.push({ name: 'paint 1080p: animation-frame interval p95 (20 strokes, 1200 moves)', value: `${pct(paint.frames, 95).toFixed(1)} ms`, note: 'target <= 16.7 ms' });
  rows.push({ name: 'paint 1080p: pointer-move handling p95 / max', value: `${pct(by('pointermove'), 95).toFixed(2)} / ${Math.max(...by('pointermove')).toFixed(2)} ms` });
  rows.push({ name: 'paint 1080p: mask repaint (dirty rectangle) p95', value: `${pct(by('mask repaint'), 95).toFixed(2)} ms` });
  rows.push({ name: 'paint 1080p: commit on pointer-up (patch + RLE encode) p95', value: `${pct(by('pointerup (commit)'), 95).toFixed(2)} ms` });
  rows.push({ name: 'paint 1080p: long tasks > 50 ms', value: `${paint.long.length}`, note: paint.long.length ? `max ${Math.max(...paint.long).toFixed(0)} ms` : 'target 0' });

  // Frame switching: ArrowRight through a 300-frame 1280x720 clip, timed from key to the frame shown.
  await page.goto(`http://127.0.0.1:4399/#/c/${ids.switchClip}/0`);
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-canvas"]')?.getAttribute('data-frame') === '0');
  const heapBefore = await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0);
  const times: number[] = [];
  for (let k = 1; k < 300; k++) {
    const t = await page.evaluate(
      (next) =>
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
          window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
        }),
      k,
    );
    times.push(t);
  }
  const heapAfter = await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0);
  rows.push({ name: 'switch frames, 300-frame 1280x720 clip: p50 / p95', value: `${pct(times, 50).toFixed(1)} / ${pct(times, 95).toFixed(1)} ms`, note: 'target p95 <= 50 ms' });
  rows.push({ name: 'JS heap after 299 frame switches (before -> after)', value: `${(heapBefore / 2 ** 20).toFixed(0)} -> ${(heapAfter / 2 ** 20).toFixed(0)} MB`, note: 'decoded pictures: at most 7 at a time' });
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
