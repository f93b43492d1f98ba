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

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

export async function runPanelBench(page: Page, origin: string): Promise<BenchRow[]> {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`${origin}/bench/browser/bench.html`);
  await page.waitForFunction(() => 'spocBench' in window);
  const { clipId } = await page.evaluate(() =>
    (window as unknown as { spocBench: { seedPanelBench: () => Promise<{ clipId: string }> } }).spocBench.seedPanelBench(),
  );
  // Probes and a long-task observer from the first script of every page load.
  await page.addInitScript({
    content: `window.__spocPerf = []; window.__long = [];
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
  await page.evaluate(() => {
    const w = window as unknown as { __spocPerf: [string, number][]; __frames: number[]; __long: number[]; __stop: boolean };
    w.__spocPerf = [];
    w.__long = [];
    w.__frames = [];
    w.__stop = false;
    let last = performance.now();
    const tick = (t: number) => {
      w.__frames.push(t - last);
      last = t;
      if (!w.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const canvas = page.getByTestId('editor-canvas');
  const box = (await canvas.boundingBox())!;
  await page.keyboard.press('1');
  for (let i = 0; i < 20; i++) {
    if (i === 10) await page.keyboard.press('2');
    const y = box.y + 40 + i * Math.min(28, (box.height - 80) / 20);
    await page.mouse.move(box.x + 40, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 40, y + 10, { steps: 60 });
    await page.mouse.up();
  }
  const shownAct = await page.getByTestId('progress-act').textContent();
  const probe = await page.evaluate(() => {
    const w = window as unknown as { __spocPerf: [string, number][]; __frames: number[]; __long: number[]; __stop: boolean };
    w.__stop = true;
    return { perf: w.__spocPerf, frames: w.__frames.slice(2), long: w.__long };
  });
  const by = (name: string) => probe.perf.filter(([n]) => n === name).map(([, ms]) => ms);
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
