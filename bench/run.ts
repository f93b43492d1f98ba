/**
 * npm run bench: every benchmark, printed as tables. Node benches run as child processes (one core
 * each, sequentially); browser benches run in real Chromium against the Vite dev server, so they
 * time the same code paths (WebCodecs, workers, IndexedDB) the app uses.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'vite';
import { chromium } from '@playwright/test';
import type { BenchRow } from './browser/importBench';

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
  // Pre-bundle the dependencies the bench imports, so Vite does not reload the page mid-run.
  const server = await createServer({
    server: { port: 4399, host: '127.0.0.1', strictPort: true },
    logLevel: 'error',
    optimizeDeps: { include: ['mediabunny', 'dexie', 'fflate', 'fast-png'] },
  });
  await server.listen();
  const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'log' && !m.text().startsWith('[vite]') && !m.text().includes('React DevTools')) console.log(`  ${m.text()}`);
    });
    await page.goto('http://127.0.0.1:4399/');
    await page.waitForLoadState('networkidle');
    const rows = await page.evaluate(async () => {
      const m = await import('/bench/browser/importBench.ts' as string);
      return (m.runImportBench as (log: (s: string) => void) => Promise<BenchRow[]>)((s) => console.log(s));
    });
    printTable(rows);
  } finally {
    await browser.close();
    await server.close();
  }
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
