/** What each durability run reports, and the table the soak runner prints. */
import type { StrokeRecord } from './strokeLedger';

export type RunMode = 'kill' | 'reload' | 'close' | 'quota';

export interface RunResult {
  mode: RunMode;
  seed: number;
  /** Crashes, reloads or closes done (quota: 1 per run). */
  cycles: number;
  /** Every finished stroke painted, with its fate. */
  strokes: StrokeRecord[];
  lost: StrokeRecord[];
  /** beforeunload (or other) dialogs the page raised. */
  dialogs: number;
  ms: number;
  /** Anything else worth reading: storage warnings Chromium logged, quota run steps. */
  notes: string[];
}

export type Log = (line: string) => void;

/** One line per lost stroke, enough to see the pattern (the delay after pointer-up). */
export function describeLost(result: RunResult): string[] {
  return result.lost.map(
    (s) =>
      `  ${result.mode} cycle ${s.cycle}: stroke ${s.spot.n} (frame ${s.spot.frameIndex + 1}, x ${s.spot.x}, y ${s.spot.y})` +
      (s.delayMs === null ? ', painted earlier in the cycle' : `, ${s.delayMs} ms after pointer-up`) +
      (s.lostLater ? ', stored at first and gone later' : ''),
  );
}

export function formatTable(results: RunResult[]): string {
  const head = ['run', 'cycles', 'strokes', 'lost', 'lost at 0 ms', 'dialogs', 'time', 'seed'];
  const rows = results.map((r) => [
    r.mode,
    String(r.cycles),
    String(r.strokes.length),
    String(r.lost.length),
    String(r.lost.filter((s) => s.delayMs === 0).length),
    String(r.dialogs),
    `${(r.ms / 1000).toFixed(1)} s`,
    String(r.seed),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(head), `|${widths.map((w, i) => (i === 0 ? ':' : '-') + '-'.repeat(w) + (i === 0 ? '-' : ':')).join('|')}|`, ...rows.map(line)].join('\n');
}

/** Delay ranges (ms after the last pointer-up) to see where in time strokes are lost. */
const DELAY_BUCKETS: [number, number][] = [
  [0, 0],
  [1, 5],
  [6, 20],
  [21, 40],
  [41, 60],
];

/**
 * Per delay range: how many last strokes before a crash / reload / close that came that long after
 * their pointer-up were lost, out of how many.
 */
export function lossByDelay(result: RunResult): string {
  const cells = DELAY_BUCKETS.map(([lo, hi]) => {
    const inRange = result.strokes.filter((s) => s.delayMs !== null && s.delayMs >= lo && s.delayMs <= hi);
    const label = lo === hi ? `${lo} ms` : `${lo}-${hi} ms`;
    return `${label}: ${inRange.filter((s) => s.status === 'lost').length}/${inRange.length}`;
  });
  return `${result.mode} last strokes lost by delay after pointer-up: ${cells.join(', ')}`;
}
