/**
 * Render timing for the demo generator (used by bench/demo-render.bench.ts and a test that prints
 * the numbers). Pure; uses performance.now().
 */
import { createDemoClip, DEMO_KINDS, sampleTimes, type DemoKind } from './generator';

export interface RenderTiming {
  kind: DemoKind;
  width: number;
  height: number;
  /** createDemoClip (noise tiles, sprites). */
  createMs: number;
  /** First renderAt, including the lazily built background. */
  firstFrameMs: number;
  /** Steady-state renderAt, mean and 95th percentile. */
  renderMeanMs: number;
  renderP95Ms: number;
  /** groundTruthAt, mean. */
  groundTruthMeanMs: number;
  frames: number;
}

export function measureRender(kind: DemoKind, width: number, height: number, frames = 60, seed = 1): RenderTiming {
  let t = performance.now();
  const clip = createDemoClip({ seed, kind, width, height });
  const createMs = performance.now() - t;
  t = performance.now();
  clip.renderAt(0);
  const firstFrameMs = performance.now() - t;
  const times = sampleTimes(clip.durationSec, frames / clip.durationSec).slice(0, frames);
  // Warm up the JIT on a few frames first.
  for (const tt of times.slice(0, 5)) clip.renderAt(tt);
  const samples: number[] = [];
  for (const tt of times) {
    const s = performance.now();
    clip.renderAt(tt);
    samples.push(performance.now() - s);
  }
  samples.sort((a, b) => a - b);
  t = performance.now();
  for (const tt of times) clip.groundTruthAt(tt);
  const groundTruthMeanMs = (performance.now() - t) / times.length;
  return {
    kind,
    width,
    height,
    createMs,
    firstFrameMs,
    renderMeanMs: samples.reduce((a, b) => a + b, 0) / samples.length,
    renderP95Ms: samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.95))],
    groundTruthMeanMs,
    frames: times.length,
  };
}

export function measureAll(sizes: readonly (readonly [number, number])[] = [[640, 360], [1280, 720]], frames = 60): RenderTiming[] {
  const out: RenderTiming[] = [];
  for (const [w, h] of sizes) for (const kind of DEMO_KINDS) out.push(measureRender(kind, w, h, frames));
  return out;
}

export function formatTimings(rows: readonly RenderTiming[]): string {
  const head = ['kind', 'size', 'create ms', 'first frame ms', 'render ms/frame', 'p95 ms', 'GT ms/frame'];
  const lines = rows.map((r) => [
    r.kind,
    `${r.width}x${r.height}`,
    r.createMs.toFixed(1),
    r.firstFrameMs.toFixed(1),
    r.renderMeanMs.toFixed(2),
    r.renderP95Ms.toFixed(2),
    r.groundTruthMeanMs.toFixed(2),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  return [fmt(head), ...lines.map(fmt)].join('\n');
}
