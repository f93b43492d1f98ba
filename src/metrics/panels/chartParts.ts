/** Shared uPlot pieces for the editor's panels: frame axis, phase / ignored bands, click to jump (the current-frame marker is UPlotChart's `marker`). */
import uPlot from 'uplot';
import type { FrameMeta } from './progressSeries';

export const COLOURS = {
  act: '#ef4444',
  trf: '#10b981',
  obj: '#a1a1aa',
  ratio: '#fbbf24',
  current: '#38bdf8',
  axis: '#a1a1aa',
  grid: '#27272a',
};

const PHASE_FILL: Record<string, string> = {
  initial: 'rgba(2, 132, 199, 0.18)',
  transitioning: 'rgba(245, 158, 11, 0.2)',
  end: 'rgba(192, 38, 211, 0.2)',
};
const IGNORED_FILL = 'rgba(113, 113, 122, 0.35)';

export interface ChartMarks {
  frames: readonly FrameMeta[];
  /** 0-based frame shown in the editor. */
  current: number;
}

/** x runs over frame numbers 1..N (as the editor shows them), half a frame of margin each side. */
export function frameScale(frameCount: number): uPlot.Scale {
  return { time: false, range: [0.5, Math.max(1, frameCount) + 0.5] };
}

export function frameAxis(): uPlot.Axis {
  return { stroke: COLOURS.axis, grid: { stroke: COLOURS.grid, width: 1 }, ticks: { stroke: COLOURS.grid }, size: 28, font: '10px sans-serif' };
}

export function valueAxis(scale: string, side: 1 | 3, format?: (v: number) => string): uPlot.Axis {
  return {
    scale,
    side,
    stroke: COLOURS.axis,
    grid: { show: side === 3, stroke: COLOURS.grid, width: 1 },
    ticks: { stroke: COLOURS.grid },
    size: 44,
    font: '10px sans-serif',
    values: format ? (_u, vals) => vals.map((v) => (v == null ? '' : format(v))) : undefined,
  };
}

/** 12000 -> "12k": area axes stay narrow. */
export function compact(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (a >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  return String(+v.toFixed(2));
}

/** Shades each frame's phase (and ignored frames) behind the series. */
export function drawBands(u: uPlot, marks: ChartMarks): void {
  const { ctx } = u;
  const { top, height } = u.bbox;
  const half = Math.abs(u.valToPos(2, 'x', true) - u.valToPos(1, 'x', true)) / 2;
  ctx.save();
  for (const f of marks.frames) {
    const fill = f.ignored ? IGNORED_FILL : f.phase ? PHASE_FILL[f.phase] : undefined;
    if (!fill) continue;
    const x = u.valToPos(f.index + 1, 'x', true);
    ctx.fillStyle = fill;
    ctx.fillRect(x - half, top, 2 * half, height);
  }
  ctx.restore();
}

/** Clicking the plot picks the frame under the cursor (0-based). */
export function clickToPick(u: uPlot, pick: (k: number) => void): void {
  u.over.addEventListener('click', () => {
    const i = u.cursor.idx;
    if (i != null && i >= 0) pick(i);
  });
  u.over.style.cursor = 'pointer';
}

/** NaN -> null, which uPlot draws as a gap. */
export function gaps(values: ArrayLike<number>): (number | null)[] {
  return Array.from(values, (v) => (Number.isFinite(v) ? v : null));
}

export function frameNumbers(frameCount: number): number[] {
  return Array.from({ length: frameCount }, (_, k) => k + 1);
}

/** A value for the read-outs: fixed decimals, "—" when undefined. */
export function show(v: number, decimals = 3): string {
  return Number.isFinite(v) ? v.toFixed(decimals) : '—';
}
