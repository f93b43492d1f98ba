/**
 * Per-frame IoU of another source of the clip (a prediction, the proposals) against `gt`: actionable,
 * transformed and fused object, with the clip's clip-pooled scores. Click a point to go to that
 * frame. Counting runs in the background in small chunks (CompareModel); after an edit only the
 * current frame is recounted, from the editor's live map.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type uPlot from 'uplot';
import { recordPerf } from '../../annotator/ui/perfProbe';
import type { SpocDb } from '../../store/db';
import { getLayer, layerAreas, listLayerSources } from '../../store/layers';
import type { LayerSource } from '../../store/types';
import { decodeLayer, parseLayer } from '../../masks/layers';
import type { StateAreas } from '../progress';
import { type CountedClip, scoreClips } from '../spoc';
import { COLOURS, type ChartMarks, clickToPick, drawBands, frameAxis, frameNumbers, frameScale, gaps, show, valueAxis } from './chartParts';
import { frameIoUs } from './compareCounts';
import { CompareModel } from './compareModel';
import type { LiveAreaStore, LiveSnapshot, PanelSession } from './liveStore';
import type { FrameAreas, FrameMeta } from './progressSeries';
import { type ChartOptions, UPlotChart } from './UPlotChart';

const DEFINITIONS = {
  iou: 'IoU = |source ∩ gt| / |source ∪ gt| per state, pixel counts of this frame (SPOC counting: gt labels 4, 5, 255 excluded). Undefined (—) when the state is in neither.',
  obj: 'w/o OSC: IoU of the object with both states fused (an actionable/transformed swap still counts as a hit).',
  clip: 'Clip-pooled (the default convention): per state, I and U summed over the clip’s non-ignored frames, IoU = I/U; mIoU = (act + trf)/2. Missing frames of the source count as empty predictions.',
};

export interface CompareClip {
  id: string;
  width: number;
  height: number;
  frameCount: number;
  verb: string;
  noun: string;
  subset: 'seen' | 'novel';
}

interface Props {
  db: SpocDb;
  session: PanelSession;
  store: LiveAreaStore;
  live: LiveSnapshot;
  clip: CompareClip;
  frames: readonly FrameMeta[];
  /** GT areas per frame as the editor knows them (stored, live for frames edited here). */
  gtAreas: FrameAreas;
  current: number;
  onPick: (k: number) => void;
}

export function ComparePanel({ db, session, store, live, clip, frames, gtAreas, current, onPick }: Props) {
  const sources = useLiveQuery(async (): Promise<string[]> => (await listLayerSources(db, clip.id)).filter((s) => s !== 'gt').sort(), [db, clip.id]);
  const [chosen, setChosen] = useState<string | null>(null);
  const source = chosen !== null && sources?.includes(chosen) ? chosen : (sources?.find((s) => s.startsWith('pred:')) ?? sources?.[0] ?? null);
  const predAreas = useLiveQuery(
    async () => (source ? await layerAreas(db, clip.id, source as LayerSource) : []),
    [db, clip.id, source],
  );

  const model = useMemo(
    () =>
      new CompareModel({
        frameCount: clip.frameCount,
        loadGt: (k) => session.loadMap(k),
        loadPred: async (src, k) => {
          const layer = await getLayer(db, clip.id, src as LayerSource, k);
          return layer ? decodeLayer(parseLayer(layer), { width: clip.width, height: clip.height }) : null;
        },
        onRecount: (ms) => recordPerf('compare recount (current frame)', ms),
      }),
    [db, session, clip.id, clip.frameCount, clip.width, clip.height],
  );
  useEffect(() => () => model.stop(), [model]);
  useEffect(() => model.setGtAreas(gtAreas), [model, gtAreas]);

  // A new source, or its stored layers changed: count every frame again (in the background).
  const predKey = predAreas ? `${source}|${predAreas.map((a) => `${a.frameIndex}:${a.actArea}:${a.trfArea}`).join(',')}` : null;
  useEffect(() => {
    if (predKey === null || predAreas === undefined) return;
    const m = new Map<number, StateAreas>(predAreas.map((a) => [a.frameIndex, { act: a.actArea, trf: a.trfArea }]));
    void model.start(source, m);
    // predAreas is read through predKey, which changes exactly when its content does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [model, predKey]);

  // An edit in the editor: recount the frame it changed, from the live map.
  useEffect(() => {
    const map = store.map;
    if (live.boxWork > 0 && map && live.frameIndex >= 0) void model.recountLive(live.frameIndex, map);
  }, [model, store, live]);

  const snap = useSyncExternalStore(model.subscribe, model.getSnapshot);
  const ignored = useMemo(() => {
    const s = new Set<number>();
    for (const f of frames) if (f.ignored) s.add(f.index);
    return s;
  }, [frames]);
  const ious = useMemo(() => snap.counts.map((c, k) => (ignored.has(k) ? frameIoUs(null) : frameIoUs(c))), [snap, ignored]);
  const data = useMemo<uPlot.AlignedData>(
    () => [frameNumbers(clip.frameCount), gaps(ious.map((v) => v?.act ?? NaN)), gaps(ious.map((v) => v?.trf ?? NaN)), gaps(ious.map((v) => v?.obj ?? NaN))],
    [clip.frameCount, ious],
  );
  const clipScore = useMemo(() => {
    if (snap.source === null || snap.done < snap.total) return null;
    const phase = new Map(frames.map((f) => [f.index, f.phase]));
    const predFrames = new Set(predAreas?.map((a) => a.frameIndex));
    const counted: CountedClip = {
      id: clip.id,
      verb: clip.verb,
      noun: clip.noun,
      subset: clip.subset,
      frames: snap.counts.map((c, k) => ({ counts: ignored.has(k) ? null : (c ?? null), phase: phase.get(k), missingPred: !predFrames.has(k) })),
    };
    return scoreClips([counted], 'clip-pooled');
  }, [snap, frames, ignored, predAreas, clip.id, clip.verb, clip.noun, clip.subset]);

  const marks = useRef<ChartMarks>({ frames, current });
  const pick = useRef(onPick);
  // Layout effect: uPlot draws in a microtask after the commit, and must see this render's marks.
  useLayoutEffect(() => {
    marks.current = { frames, current };
    pick.current = onPick;
  });
  const options = useMemo<ChartOptions>(
    () => ({
      scales: { x: frameScale(clip.frameCount), iou: { range: [0, 1] } },
      axes: [frameAxis(), valueAxis('iou', 3, (v) => v.toFixed(1))],
      series: [
        { label: 'frame' },
        { label: 'IoU_act', scale: 'iou', stroke: COLOURS.act, width: 1.5, points: { show: true, size: 4 }, value: (_u, v) => show(v ?? NaN) },
        { label: 'IoU_trf', scale: 'iou', stroke: COLOURS.trf, width: 1.5, points: { show: true, size: 4 }, value: (_u, v) => show(v ?? NaN) },
        { label: 'w/o OSC', scale: 'iou', stroke: COLOURS.obj, width: 1, dash: [4, 3], value: (_u, v) => show(v ?? NaN) },
      ],
      cursor: { drag: { x: false, y: false }, points: { size: 6 } },
      legend: { live: true },
      hooks: {
        ready: [(u) => clickToPick(u, (k) => pick.current(k))],
        drawClear: [(u) => drawBands(u, marks.current)],
      },
    }),
    [clip.frameCount],
  );

  if (sources === undefined) return <p className="text-xs text-zinc-500">Looking for sources…</p>;
  if (sources.length === 0) {
    return (
      <p className="text-xs text-zinc-500" data-testid="compare-empty">
        This clip has no other source to compare with gt. Import predictions (pred:…) or run an assist to add one.
      </p>
    );
  }
  const k = current;
  const here = k >= 0 && k < ious.length && ious[k] ? ious[k] : frameIoUs(null);
  const computing = snap.source !== null && snap.done < snap.total;
  return (
    <div className="flex flex-col gap-1" data-testid="compare-panel" data-state={computing ? 'computing' : snap.error ? 'error' : 'done'}>
      <label className="flex items-center gap-2 text-xs text-zinc-400">
        source
        <select
          className="min-w-0 flex-1 rounded bg-zinc-900 px-1 py-0.5 text-zinc-100"
          value={source ?? ''}
          onChange={(e) => setChosen(e.target.value)}
          data-testid="compare-source"
        >
          {sources.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <span>vs gt</span>
      </label>
      <UPlotChart options={options} data={data} height={130} redrawKey={frames} marker={current >= 0 ? current + 1 : undefined} testId="compare-chart" />
      {snap.error && <p className="text-xs text-red-400">Could not compare: {snap.error}</p>}
      <div className="flex flex-wrap gap-x-3 text-xs tabular-nums">
        <span className="text-zinc-400">frame {k + 1}</span>
        <span className="cursor-help" title={DEFINITIONS.iou}>
          <span className="text-zinc-400">IoU_act</span>{' '}
          <span className="text-red-400" data-testid="compare-act">
            {show(here.act)}
          </span>
        </span>
        <span className="cursor-help" title={DEFINITIONS.iou}>
          <span className="text-zinc-400">IoU_trf</span>{' '}
          <span className="text-emerald-400" data-testid="compare-trf">
            {show(here.trf)}
          </span>
        </span>
        <span className="cursor-help" title={DEFINITIONS.obj}>
          <span className="text-zinc-400">w/o OSC</span> <span data-testid="compare-obj">{show(here.obj)}</span>
        </span>
      </div>
      <p className="text-xs text-zinc-400" title={DEFINITIONS.clip} data-testid="compare-clip">
        {computing ? (
          <>
            counting… {snap.done} / {snap.total} frames
          </>
        ) : clipScore ? (
          <>
            clip (clip-pooled): mIoU <span data-testid="compare-clip-miou">{show(clipScore.miou)}</span> · act {show(clipScore.act)} · trf{' '}
            {show(clipScore.trf)} · w/o OSC {show(clipScore.object)}
          </>
        ) : null}
      </p>
    </div>
  );
}
