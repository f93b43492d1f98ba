/**
 * Progress curves of gt and of every prediction (`pred:*`) and second annotation (`ann:*`) of the
 * clip on one chart, with a legend, phases shaded, the current frame marked and a click jumping to
 * a frame. gt uses the dock's live areas (a stroke moves its curve); other sources their stored
 * areas, read from index keys (no decoding). τ, end_σ and end_L2 per source below.
 */
import { useLayoutEffect, useMemo, useRef } from 'react';
import type uPlot from 'uplot';
import { useLiveQuery } from 'dexie-react-hooks';
import type { SpocDb } from '../../store/db';
import { layerAreas, listLayerSources } from '../../store/layers';
import type { LayerSource } from '../../store/types';
import { type ChartMarks, clickToPick, drawBands, frameAxis, frameNumbers, frameScale, gaps, show, valueAxis } from './chartParts';
import { progressBySource, sourceColour } from './progressCompare';
import type { FrameAreas, FrameMeta } from './progressSeries';
import { DEFINITIONS } from './ProgressPanel';
import { type ChartOptions, UPlotChart } from './UPlotChart';

interface Props {
  db: SpocDb;
  clipId: string;
  frameCount: number;
  frames: readonly FrameMeta[];
  /** gt areas, live-merged as in the progress panel. */
  gtAreas: FrameAreas;
  current: number;
  onPick: (k: number) => void;
}

const isCompared = (s: string) => s.startsWith('pred:') || s.startsWith('ann:');

export function ProgressComparePanel({ db, clipId, frameCount, frames, gtAreas, current, onPick }: Props) {
  const others = useLiveQuery(async () => {
    const sources = (await listLayerSources(db, clipId)).filter(isCompared).sort() as LayerSource[];
    return Promise.all(sources.map(async (source) => ({ source, rows: await layerAreas(db, clipId, source) })));
  }, [db, clipId]);
  const series = useMemo(() => progressBySource(frameCount, frames, gtAreas, others ?? []), [frameCount, frames, gtAreas, others]);
  const names = series.map((s) => s.source).join('|');
  const data = useMemo<uPlot.AlignedData>(() => [frameNumbers(frameCount), ...series.map((s) => gaps(s.r))], [frameCount, series]);

  const marks = useRef<ChartMarks>({ frames, current });
  const pick = useRef(onPick);
  useLayoutEffect(() => {
    marks.current = { frames, current };
    pick.current = onPick;
  });

  // One chart per set of sources (a new source adds a series, which uPlot takes only at creation).
  const options = useMemo<ChartOptions>(
    () => ({
      scales: { x: frameScale(frameCount), r: { range: [0, 1] } },
      axes: [frameAxis(), valueAxis('r', 3, (v) => v.toFixed(1))],
      series: [
        { label: 'frame' },
        ...names.split('|').map((label, i) => ({
          label,
          scale: 'r',
          stroke: sourceColour(i),
          width: i === 0 ? 2.5 : 1.5,
          points: { show: true, size: 4 },
          value: (_u: uPlot, v: number | null) => show(v ?? NaN),
        })),
      ],
      cursor: { drag: { x: false, y: false }, points: { size: 6 } },
      legend: { live: true },
      hooks: {
        ready: [(u) => clickToPick(u, (k) => pick.current(k))],
        drawClear: [(u) => drawBands(u, marks.current)],
      },
    }),
    [frameCount, names],
  );

  return (
    <div className="flex flex-col gap-1" data-testid="progress-compare" data-series={names}>
      <UPlotChart options={options} data={data} height={160} redrawKey={frames} marker={current >= 0 ? current + 1 : undefined} testId="progress-compare-chart" />
      <table className="text-xs tabular-nums">
        <thead>
          <tr className="text-left text-zinc-400">
            <th className="font-normal">source</th>
            <th className="font-normal" title={DEFINITIONS.r}>
              R_t
            </th>
            <th className="font-normal" title={DEFINITIONS.tau}>
              τ
            </th>
            <th className="font-normal" title={DEFINITIONS.endSigma}>
              end_σ
            </th>
            <th className="font-normal" title={DEFINITIONS.endL2}>
              end_L2
            </th>
          </tr>
        </thead>
        <tbody>
          {series.map((s, i) => (
            <tr key={s.source} data-testid="progress-compare-row" data-source={s.source}>
              <td className="max-w-[9rem] truncate" title={s.source}>
                <span style={{ color: sourceColour(i) }}>■</span> {s.source}
              </td>
              <td data-testid="progress-compare-r">{current >= 0 && current < frameCount ? show(s.r[current]) : '—'}</td>
              <td>{show(s.tau)}</td>
              <td>{show(s.end.sigma)}</td>
              <td>{show(s.end.l2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {series.length === 1 && <p className="text-[11px] text-zinc-500">Import predictions or a second annotation (review panel) to compare their curves with gt.</p>}
    </div>
  );
}
