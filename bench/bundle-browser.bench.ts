/**
 * Project bundle export and import in real Chromium on the real IndexedDB (the page side is
 * bench/bundleBrowserPage.ts). Default 30 clips x 20 frames at 640x360; BUNDLE_BENCH_CLIPS=300 for
 * the 300-clip project. Run: npx tsx bench/bundle-browser.bench.ts
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'vite';
import { chromium } from '@playwright/test';
import type { BundleBenchRow } from './bundleBrowserPage';

const clips = Number(process.env.BUNDLE_BENCH_CLIPS ?? 30);
const frames = Number(process.env.BUNDLE_BENCH_FRAMES ?? 20);
const port = Number(process.env.BUNDLE_BENCH_PORT ?? 4398);

const server = await createServer({
  server: { port, host: '127.0.0.1', strictPort: true },
  logLevel: 'error',
  optimizeDeps: { include: ['dexie', 'fflate', 'jpeg-js'] },
});
await server.listen();
const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
// A persistent profile, as a user's browser has: Chromium then keeps large blobs on disk. (An
// incognito-like context, Playwright's default, holds every blob in memory and breaks them past
// a few hundred MB.)
const profile = mkdtempSync(path.join(os.tmpdir(), 'spoc-bundle-bench-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--enable-precise-memory-info'],
});
try {
  const page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() === 'log' && !m.text().startsWith('[vite]') && !m.text().includes('React DevTools')) console.log(m.text());
  });
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForLoadState('networkidle');
  console.log(`bundle (Chromium, IndexedDB): ${clips} clips x ${frames} frames, 640x360 JPEG`);
  const rows = await page.evaluate(
    async ({ clips, frames }) => {
      const m = await import('/bench/bundleBrowserPage.ts' as string);
      return (m.runBundleBench as (c: number, f: number, log: (s: string) => void) => Promise<BundleBenchRow[]>)(clips, frames, (s) => console.log(s));
    },
    { clips, frames },
  );
  console.log('');
  for (const r of rows) console.log(`| ${r.name} | ${r.value} | ${r.note ?? ''} |`);
} finally {
  await browser.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
}
