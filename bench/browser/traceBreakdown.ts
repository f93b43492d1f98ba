/**
 * Node side of the browser benches: records a Chromium trace around a scripted run and sums where the
 * time went, per thread kind (the page's main thread, its compositor, raster workers, the GPU /
 * display process) and per kind of work (script, style, layout, paint, raster, image decode, GC,
 * commit), counting each trace event's self time (its thread CPU time minus its children's: on this
 * shared 2-core machine wall time also counts the waits for a core). Opt-in with
 * SPOC_BENCH_TRACE=<dir> (bench/run.ts): the raw trace is kept there for chrome://tracing / Perfetto.
 * Trace totals barely move when other processes load the machine, unlike wall-clock percentiles.
 */
import { writeFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'blink',
  'cc',
  'viz',
  'gpu',
  'v8',
  'disabled-by-default-v8.gc',
  'toplevel',
].join(',');

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** CPU time of the thread during the event: unlike `dur`, it leaves out time the thread waited for a core. */
  tdur?: number;
  tts?: number;
  args?: { name?: string };
}

/** What a trace event's self time counts as (by its name; unknown names land in `other`). */
export function kindOf(name: string): string {
  if (/^(FunctionCall|EvaluateScript|v8\.|V8\.(?!GC)|RunMicrotasks|TimerFire|FireAnimationFrame|EventDispatch|ParseHTML|XHR)/.test(name) && !/GC/.test(name)) return 'script';
  if (/GC|Oilpan|BlinkGC/i.test(name)) return 'gc';
  if (/^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|Document::updateStyle|StyleRecalc)/.test(name)) return 'style';
  if (/^(Layout|LayoutShift|IntersectionObserverController)/.test(name)) return 'layout';
  if (/Decode|ImageDecode/i.test(name)) return 'image decode';
  if (/^(Paint|PaintImage|PrePaint|Layerize|UpdateLayer|CompositeLayers|PaintArtifactCompositor|LocalFrameView::RunPaint|HitTest)/.test(name)) return 'paint';
  if (/Raster|TileManager|RasterBufferProvider|PlaybackImage|DisplayItemList/i.test(name)) return 'raster';
  if (/Commit|ActivateLayerTree|ProxyImpl|LayerTreeHost|BeginMainFrame|ScheduledActionCommit/i.test(name)) return 'commit';
  if (/Draw|Display|Surface|Viz|SkiaOutputSurface|SwapBuffers|Gpu|Submit|Aggregat/i.test(name)) return 'draw (viz)';
  return 'other';
}

export function threadKind(threadName: string): string {
  if (threadName === 'CrRendererMain') return 'main';
  if (threadName === 'Compositor') return 'compositor';
  if (/CompositorTileWorker|RasterWorker/i.test(threadName)) return 'raster workers';
  if (/VizCompositor|CrGpuMain|GpuMemory|DrDc/i.test(threadName)) return 'gpu / display';
  return 'other threads';
}

export interface Breakdown {
  /** ms of self time, per thread kind, per work kind. */
  byThread: Map<string, Map<string, number>>;
  /** The names with the most self time on the main thread (ms). */
  topMain: [string, number][];
}

/** Self times of complete ('X') and begin/end ('B'/'E') events, summed by thread and kind of work. */
export function breakdown(events: TraceEvent[], rendererPid?: number): Breakdown {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  // Complete events, B/E pairs turned into complete ones, per thread.
  const perThread = new Map<string, { name: string; ts: number; end: number; cpu: number }[]>();
  const open = new Map<string, { name: string; ts: number; tts?: number }[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    const thread = names.get(key) ?? '';
    // Only the page's renderer, plus the GPU / display process.
    if (rendererPid !== undefined && e.pid !== rendererPid && threadKind(thread) !== 'gpu / display') continue;
    if (e.ph === 'X' && e.dur !== undefined) {
      (perThread.get(key) ?? perThread.set(key, []).get(key)!).push({ name: e.name, ts: e.ts, end: e.ts + e.dur, cpu: e.tdur ?? e.dur });
    } else if (e.ph === 'B') {
      (open.get(key) ?? open.set(key, []).get(key)!).push({ name: e.name, ts: e.ts, tts: e.tts });
    } else if (e.ph === 'E') {
      const b = open.get(key)?.pop();
      const cpu = b?.tts !== undefined && e.tts !== undefined ? e.tts - b.tts : e.ts - (b?.ts ?? e.ts);
      if (b) (perThread.get(key) ?? perThread.set(key, []).get(key)!).push({ name: b.name, ts: b.ts, end: e.ts, cpu });
    }
  }
  const byThread = new Map<string, Map<string, number>>();
  const mainNames = new Map<string, number>();
  for (const [key, list] of perThread) {
    const tk = threadKind(names.get(key) ?? '');
    const sums = byThread.get(tk) ?? byThread.set(tk, new Map()).get(tk)!;
    list.sort((a, b) => a.ts - b.ts || b.end - a.end);
    // Self time: walk the nesting (by wall-clock span) with a stack; a child's CPU time is taken from its parent's.
    const stack: { name: string; end: number; self: number }[] = [];
    const close = (n: { name: string; self: number }) => {
      const ms = n.self / 1000;
      const k = kindOf(n.name);
      sums.set(k, (sums.get(k) ?? 0) + ms);
      if (tk === 'main') mainNames.set(n.name, (mainNames.get(n.name) ?? 0) + ms);
    };
    for (const e of list) {
      while (stack.length && stack[stack.length - 1].end <= e.ts) close(stack.pop()!);
      const end = stack.length ? Math.min(e.end, stack[stack.length - 1].end) : e.end;
      if (stack.length) stack[stack.length - 1].self -= e.cpu;
      stack.push({ name: e.name, end, self: e.cpu });
    }
    while (stack.length) close(stack.pop()!);
  }
  const topMain = [...mainNames].sort((a, b) => b[1] - a[1]).slice(0, 14);
  return { byThread, topMain };
}

/** Starts a trace of `page`; the returned function stops it, keeps the raw trace at `file` and returns the breakdown. */
export async function startTrace(browser: Browser, page: Page, file: string): Promise<() => Promise<Breakdown>> {
  await browser.startTracing(page, { categories: CATEGORIES.split(',') });
  return async () => {
    const buf = await browser.stopTracing();
    writeFileSync(file, buf);
    return traceFileBreakdown(buf.toString('utf8'));
  };
}

/** The breakdown of a saved trace (JSON text), for the page's renderer. */
export function traceFileBreakdown(json: string): Breakdown {
  {
    const { traceEvents } = JSON.parse(json) as { traceEvents: TraceEvent[] };
    // The page's renderer: the process whose main thread ran the most script.
    const score = new Map<number, number>();
    const mains = new Set<string>();
    for (const e of traceEvents) if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') mains.add(`${e.pid}:${e.tid}`);
    for (const e of traceEvents) if (e.ph === 'X' && e.dur && mains.has(`${e.pid}:${e.tid}`)) score.set(e.pid, (score.get(e.pid) ?? 0) + e.dur);
    const pid = [...score].sort((a, b) => b[1] - a[1])[0]?.[0];
    return breakdown(traceEvents, pid);
  }
}

/** The breakdown as printable lines, in ms per unit (per frame switch, per stroke). */
export function formatBreakdown(b: Breakdown, units: number, unitName: string): string[] {
  const lines: string[] = [`trace breakdown, ms of thread CPU self time per ${unitName} (n=${units}):`];
  for (const [thread, sums] of [...b.byThread].sort()) {
    const total = [...sums.values()].reduce((a, c) => a + c, 0);
    const parts = [...sums].sort((a, c) => c[1] - a[1]).filter(([, ms]) => ms / units >= 0.05);
    lines.push(`  ${thread.padEnd(14)} ${(total / units).toFixed(1).padStart(6)}: ${parts.map(([k, ms]) => `${k} ${(ms / units).toFixed(1)}`).join(', ')}`);
  }
  lines.push(`  main thread, top events: ${b.topMain.map(([n, ms]) => `${n} ${(ms / units).toFixed(2)}`).join(', ')}`);
  return lines;
}
