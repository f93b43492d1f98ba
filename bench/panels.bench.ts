/**
 * The live panels' incremental math, one core (the browser figures, with React and the chart, come
 * from bench/browser/panelDriver.ts in `npm run bench`).
 * Run: npx tsx bench/panels.bench.ts
 *
 * - areas from a changed box: TileAreaCounter.update on brush-dab boxes (a 16 px brush moving a few
 *   pixels per pointer event), versus recounting the whole frame;
 * - the progress panel's per-edit arithmetic on a 300-frame clip: mergeAreas + progressFromAreas
 *   (R_t, Kendall tau over all pairs, end-state statistics).
 */
import { performance } from 'node:perf_hooks';
import { createLabelMap, type LabelMap } from '../src/masks/labelMap';
import { stateAreas } from '../src/metrics';
import { TileAreaCounter } from '../src/metrics/panels/liveAreas';
import { contentBox } from '../src/masks/geometry';
import { mergeAreas, progressFromAreas } from '../src/metrics/panels/progressSeries';

function time(fn: () => void, reps: number): number {
  for (let i = 0; i < Math.min(50, reps); i++) fn();
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) fn();
  return (performance.now() - t0) / reps;
}

function disc(map: LabelMap, cx: number, cy: number, r: number, v: number): void {
  for (let y = Math.max(0, cy - r); y < Math.min(map.height, cy + r); y++) {
    for (let x = Math.max(0, cx - r); x < Math.min(map.width, cx + r); x++) if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) map.data[y * map.width + x] = v;
  }
}

const rows: [string, string][] = [];
for (const [w, h] of [
  [854, 480],
  [1920, 1080],
]) {
  const map = createLabelMap(w, h);
  disc(map, w / 2, h / 2, Math.round(h / 3), 1);
  disc(map, w / 2 + h / 6, h / 2, Math.round(h / 6), 2);
  const counter = new TileAreaCounter(map);
  let x = 40;
  const dab = () => {
    x = x + 3 > w - 40 ? 40 : x + 3;
    disc(map, x, h / 2, 8, 1);
    counter.update({ x: x - 8, y: h / 2 - 8, w: 20, h: 16 });
  };
  const perDab = time(dab, 5000);
  const paintOnly = time(() => {
    x = x + 3 > w - 40 ? 40 : x + 3;
    disc(map, x, h / 2, 8, 1);
  }, 5000);
  const full = time(() => stateAreas(map), 200);
  const rebuild = time(() => new TileAreaCounter(map), 200);
  // The session computes the content box once per switch and hands it to the canvas and the counter (EditorSession.shownContent).
  const scan = time(() => contentBox(map), 200);
  if (counter.areas.act !== stateAreas(map).act) throw new Error('tile counts drifted');
  rows.push([`${w}x${h}: areas from one brush-dab box (tile update)`, `${((perDab - paintOnly) * 1000).toFixed(1)} µs`]);
  rows.push([`${w}x${h}: recount the whole frame instead (stateAreas)`, `${full.toFixed(2)} ms`]);
  rows.push([`${w}x${h}: tile counter built on a frame switch`, `${rebuild.toFixed(2)} ms`]);
  rows.push([`${w}x${h}: content-box scan, once per switch (was twice: canvas and counter)`, `${scan.toFixed(2)} ms`]);
}

for (const n of [300, 3600]) {
  const stored = Array.from({ length: n }, (_, k) => ({ frameIndex: k, actArea: Math.max(0, 5000 - 15 * k), trfArea: 20 * k }));
  const frames = Array.from({ length: n }, (_, k) => ({ index: k, phase: (k < n / 3 ? 'initial' : k < (2 * n) / 3 ? 'transitioning' : 'end') as 'initial' | 'transitioning' | 'end' }));
  const live = new Map([[n / 2, { act: 1234, trf: 567 }]]);
  const perEdit = time(() => progressFromAreas(mergeAreas(n, stored, live), frames), n > 1000 ? 20 : 500);
  rows.push([`${n} frames: progress series per edit (merge + R_t + Kendall tau + end stats)`, `${perEdit.toFixed(3)} ms`]);
}

const wName = Math.max(...rows.map((r) => r[0].length));
console.log(`| ${'case'.padEnd(wName)} | time |`);
console.log(`|${'-'.repeat(wName + 2)}|------|`);
for (const [name, v] of rows) console.log(`| ${name.padEnd(wName)} | ${v} |`);
