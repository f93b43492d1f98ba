/**
 * Progress curve of the clip being painted: actionable and transformed area per frame, R_t on its
 * own axis, phases shaded, the current frame marked; Kendall tau and the end-state statistics
 * below. Areas come from the store (index keys, no decoding) and, for frames edited in this tab,
 * from the live tile counts, so a brush stroke moves the curve while it is being drawn.
 */
import { useLayoutEffect, useMemo, useRef } from 'react';
import type uPlot from 'uplot';
import { recordPerf } from '../../annotator/ui/perfProbe';
import { COLOURS, type ChartMarks, clickToPick, compact, drawBands, frameAxis, frameNumbers, frameScale, gaps, show, valueAxis } from './chartParts';
import type { LiveSnapshot } from './liveStore';
import { type FrameAreas, type FrameMeta, progressFromAreas } from './progressSeries';
import { type ChartOptions, UPlotChart } from './UPlotChart';

export const DEFINITIONS = {
  area: 'A_act, A_trf: pixels labelled actionable (1) and transformed (2) in the frame’s gt.',
  r: 'R_t = A_act / (A_act ∪ A_trf): the share of the object that is still actionable (1 before the change, 0 after). Undefined (—) when neither state is painted or the frame is ignored; undefined points are skipped by every statistic.',
  tau: 'Kendall’s τ of R_t against time, as SPOC defines it: (pairs i < j with R_j > R_i − pairs with R_j ≤ R_i) / pairs, over the frames where R_t is defined. Ties count as non-increasing, so a curve that falls and then stays flat still scores −1. Ideal: −1. (Not scipy’s tau-b.)',
  endSigma: 'end_σ: population standard deviation (numpy std, ddof 0) of R_t over the frames whose phase is “end”. Ideal: 0 (a steady end state).',
  endL2: 'end_L2: Euclidean norm √(Σ R_t²) of R_t over the frames whose phase is “end”. Ideal: 0 (nothing actionable left). It grows with the number of end frames.',
} as const;

interface Props {
  areas: FrameAreas;
  frames: readonly FrameMeta[];
  live: LiveSnapshot;
  current: number;
  onPick: (k: number) => void;
}

export function ProgressPanel({ areas, frames, live, current, onPick }: Props) {
  const frameCount = areas.act.length;
  const series = useMemo(() => progressFromAreas(areas, frames), [areas, frames]);
  const data = useMemo<uPlot.AlignedData>(
    () => [frameNumbers(frameCount), Array.from(areas.act), Array.from(areas.trf), gaps(series.r)],
    [frameCount, areas, series],
  );

  const marks = useRef<ChartMarks>({ frames, current });
  const pick = useRef(onPick);
  const pending = useRef<LiveSnapshot | null>(null);
  // Layout effect: uPlot draws in a microtask after the commit, and must see this render's marks.
  useLayoutEffect(() => {
    marks.current = { frames, current };
    pick.current = onPick;
  });
  // The snapshot that caused this render; the chart's draw hook times the update it triggered.
  useLayoutEffect(() => {
    if (live.boxWork > 0) pending.current = live;
  }, [live]);

  const options = useMemo<ChartOptions>(
    () => ({
      scales: { x: frameScale(frameCount), px: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.05] }, r: { range: [0, 1] } },
      axes: [frameAxis(), valueAxis('px', 3, compact), valueAxis('r', 1, (v) => v.toFixed(1))],
      series: [
        { label: 'frame' },
        { label: 'A_act', scale: 'px', stroke: COLOURS.act, width: 1.5, value: (_u, v) => (v == null ? '—' : String(v)) },
        { label: 'A_trf', scale: 'px', stroke: COLOURS.trf, width: 1.5, value: (_u, v) => (v == null ? '—' : String(v)) },
        { label: 'R_t', scale: 'r', stroke: COLOURS.ratio, width: 2, points: { show: true, size: 4 }, value: (_u, v) => show(v ?? NaN) },
      ],
      cursor: { drag: { x: false, y: false }, points: { size: 6 } },
      legend: { live: true },
      hooks: {
        ready: [(u) => clickToPick(u, (k) => pick.current(k))],
        drawClear: [(u) => drawBands(u, marks.current)],
        draw: [
          () => {
            const p = pending.current;
            if (p) {
              pending.current = null;
              recordPerf('progress panel update', p.boxWork + (performance.now() - p.publishedAt));
            }
          },
        ],
      },
    }),
    [frameCount],
  );

  // Phases and end statistics change the bands and the end-state line; the frame shown moves the marker only.
  const redrawKey = useMemo(() => [frames, series.end.n], [frames, series.end.n]);
  const k = current;
  const inClip = k >= 0 && k < frameCount;
  return (
    <div className="flex flex-col gap-1" data-testid="progress-panel">
      <UPlotChart options={options} data={data} height={150} redrawKey={redrawKey} marker={current >= 0 ? current + 1 : undefined} testId="progress-chart" />
      <div className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs tabular-nums">
        <span className="text-zinc-400">
          frame <span data-testid="progress-frame">{inClip ? k + 1 : '—'}</span>
        </span>
        <Stat label="A_act" title={DEFINITIONS.area} testId="progress-act" tone="text-red-400">
          {inClip ? String(areas.act[k]) : '—'}
        </Stat>
        <Stat label="A_trf" title={DEFINITIONS.area} testId="progress-trf" tone="text-emerald-400">
          {inClip ? String(areas.trf[k]) : '—'}
        </Stat>
        <Stat label="R_t" title={DEFINITIONS.r} testId="progress-r" tone="text-amber-300">
          {inClip ? show(series.r[k]) : '—'}
        </Stat>
      </div>
      <div className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs tabular-nums">
        <span className="text-zinc-500">clip</span>
        <Stat label="Kendall τ" title={DEFINITIONS.tau} testId="progress-tau">
          {show(series.tau)}
        </Stat>
        <Stat label="end_σ" title={`${DEFINITIONS.endSigma} (${series.end.n} end frame(s) with a defined R_t.)`} testId="progress-end-sigma">
          {show(series.end.sigma)}
        </Stat>
        <Stat label="end_L2" title={`${DEFINITIONS.endL2} (${series.end.n} end frame(s) with a defined R_t.)`} testId="progress-end-l2">
          {show(series.end.l2)}
        </Stat>
      </div>
      {series.end.n === 0 && <p className="text-[11px] text-zinc-500">Mark end-state frames (phase “end”) for end_σ and end_L2.</p>}
    </div>
  );
}

function Stat({ label, title, testId, tone, children }: { label: string; title: string; testId: string; tone?: string; children: string }) {
  return (
    <span className="cursor-help" title={title}>
      <span className="text-zinc-400 underline decoration-zinc-600 decoration-dotted">{label}</span>{' '}
      <span className={tone ?? 'text-zinc-100'} data-testid={testId}>
        {children}
      </span>
    </span>
  );
}
