/**
 * Node side of the metric-panel benchmark (called from bench/run.ts): opens the seeded 300-frame
 * clip in the production build, times the compare panel's background count of all 300 frames, then
 * paints 20 strokes with the real mouse and reads the panels' probes (src/annotator/ui/perfProbe.ts):
 *   progress areas from box          tile recount of one invalidated box (per pointer move)
 *   progress panel update            box work + series, Kendall tau, end stats and the chart redraw,
 *                                    from the published snapshot to uPlot's draw hook (per edit frame)
 *   compare recount (current frame)  countFrame of the live map against the source, per edit frame
 */
import type { Page } from '@playwright/test';
import type { BenchRow } from './importBench';
import { paintStrokes, percentile as pct, startRecording, stopRecording } from './scriptedPainting';
import { formatBreakdown, startTrace } from './traceBreakdown';

/** `traceDir`: trace the painting run with Chromium's tracing and print where the time went. */
export async function runPanelBench(page: Page, origin: string, traceDir?: string): Promise<BenchRow[]> {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`${origin}/bench/browser/bench.html`);
  await page.waitForFunction(() => 'spocBench' in window);
  const { clipId } = await page.evaluate(() =>
    (window as unknown as { spocBench: { seedPanelBench: () => Promise<{ clipId: string }> } }).spocBench.seedPanelBench(),
  );
  // Probes and a long-task observer from the first script of every page load.
  await page.addInitScript({
    content: `window.__spocPerf = []; window.__long = []; window.__longObserved = true;
      new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: 'longtask', buffered: true });`,
  });
  const rows: BenchRow[] = [];

  // Compare panel: counting 300 frames in the background (both sides decoded on every frame).
  await page.goto(`${origin}/#/c/${clipId}/150`);
  await page.waitForSelector('[data-testid="compare-panel"]');
  const started = await page.evaluate(() => performance.now());
  await page.waitForSelector('[data-testid="compare-panel"][data-state="done"]', { timeout: 120_000 });
  const finished = await page.evaluate(() => performance.now());
  const long = await page.evaluate(() => (window as unknown as { __long: number[] }).__long.slice());
  rows.push({
    name: 'compare panel: count 300 frames 854x480 (decode both + countFrame), in chunks',
    value: `${((finished - started) / 1000).toFixed(2)} s`,
    note: `long tasks > 50 ms during load + count: ${long.length}${long.length ? ` (max ${Math.max(...long).toFixed(0)} ms)` : ''}`,
  });

  // Painting on frame 151 at 1:1: 20 strokes, the panels update live.
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-canvas"]')?.getAttribute('data-frame') === '150');
  await page.getByRole('button', { name: 'Actual pixels (1:1)' }).click();
  const stopTrace = traceDir ? await startTrace(page.context().browser()!, page, `${traceDir}/paint-panels.json`) : null;
  await startRecording(page);
  await paintStrokes(page);
  const shownAct = await page.getByTestId('progress-act').textContent();
  const probe = await stopRecording(page);
  if (stopTrace) for (const line of formatBreakdown(await stopTrace(), 20, 'stroke')) console.log(`  ${line}`);
  const by = probe.probe;
  const update = by('progress panel update');
  const fmt = (xs: number[]) => `${pct(xs, 50).toFixed(2)} / ${pct(xs, 95).toFixed(2)} / ${Math.max(...xs).toFixed(2)} ms`;
  rows.push({
    name: `progress panel update after an edit, 300 frames (p50 / p95 / max, n=${update.length})`,
    value: fmt(update),
    note: 'target <= 16 ms; box + series + tau + end stats + chart redraw',
  });
  const boxes = by('progress areas from box');
  rows.push({ name: `  of which: areas from the invalidated box (p50 / p95 / max, n=${boxes.length})`, value: fmt(boxes) });
  const recount = by('compare recount (current frame)');
  rows.push({ name: `compare panel: recount of the current frame after an edit (p50 / p95 / max, n=${recount.length})`, value: fmt(recount) });
  rows.push({ name: 'painting with both panels open: animation-frame interval p95', value: `${pct(probe.frames, 95).toFixed(1)} ms`, note: `long tasks > 50 ms: ${probe.long.length}; A_act shown ${shownAct}` });
  return rows;
}
