/**
 * The project's evaluation table, laid out like SPOC Table 2: a chosen source (a prediction) against
 * gt over every clip of the project, per verb and on average, with seen / novel / transition
 * splits; exportable as CSV and Markdown. Same counting and aggregation as `spoc-studio eval`
 * (countProject + evaluateSpoc + spocTableRows), so the numbers match the CLI on the same data.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { listLayerSources } from '../../store/layers';
import type { Clip, LayerSource, Project } from '../../store/types';
import { type Convention, evaluateSpoc } from '../spoc';
import { CountCache, type FrameSelection, type ProjectCounts, countProject } from './projectEval';
import { usePanelView } from './panelView';
import { VALUE_COLUMNS, formatValue, rowLabel, spocTableRows, tableToCsv, tableToMarkdown } from '../spocTable';

const CONVENTIONS: { value: Convention; label: string; title: string }[] = [
  { value: 'clip-pooled', label: 'clip-pooled (default)', title: 'Per clip, I and U summed over its evaluated frames, clip IoU = I/U; mean over clips.' },
  { value: 'per-frame', label: 'per-frame', title: 'Per clip, mean of the frame IoUs; mean over clips.' },
  { value: 'dataset-pooled', label: 'dataset-pooled', title: 'I and U summed over every evaluated frame of every clip; one I/U.' },
];

export function ProjectMetricsPanel({ project, clips }: { project: Project; clips: readonly Clip[] }) {
  const open = usePanelView((s) => s.project);
  const set = usePanelView((s) => s.set);
  return (
    <section className="mt-4 rounded border border-zinc-800 bg-zinc-900/60" aria-label="Evaluation" data-testid="project-metrics">
      <button className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm font-medium hover:bg-zinc-800" aria-expanded={open} onClick={() => set({ project: !open })}>
        <span className="w-3 text-zinc-500">{open ? '▾' : '▸'}</span>
        Evaluation: SPOC table (mIoU per verb, a source against gt)
      </button>
      {open && <ProjectMetricsBody project={project} clips={clips} />}
    </section>
  );
}

interface Computed {
  key: string;
  counts: ProjectCounts | null;
  error: string | null;
}

function ProjectMetricsBody({ project, clips }: { project: Project; clips: readonly Clip[] }) {
  const db = useDb();
  const clipKey = clips.map((c) => `${c.id}@${c.updatedAt}`).join(',');
  const sources = useLiveQuery(
    async (): Promise<string[]> => {
      const all = await Promise.all(clips.map((c) => listLayerSources(db, c.id)));
      return [...new Set(all.flat())].filter((s) => s !== 'gt').sort();
    },
    // clipKey changes whenever a clip's layers or frames change (the store touches the clip).
    [db, clipKey],
  );
  const [chosen, setChosen] = useState<string | null>(null);
  const [convention, setConvention] = useState<Convention>('clip-pooled');
  const [selection, setSelection] = useState<FrameSelection>('all');
  const source = chosen !== null && sources?.includes(chosen) ? chosen : (sources?.find((s) => s.startsWith('pred:')) ?? sources?.[0] ?? null);

  const cache = useMemo(() => new CountCache(), []);
  const key = source === null ? null : `${source}|${selection}|${clipKey}`;
  const [computed, setComputed] = useState<Computed | null>(null);
  const [progress, setProgress] = useState<{ key: string; done: number; total: number } | null>(null);
  const latestClips = useRef(clips);
  useEffect(() => {
    latestClips.current = clips;
  });
  useEffect(() => {
    if (key === null || source === null) return;
    const ac = new AbortController();
    countProject(db, latestClips.current, source as LayerSource, {
      cache,
      frames: selection,
      signal: ac.signal,
      onProgress: (done, total) => setProgress({ key, done, total }),
    }).then(
      (counts) => setComputed({ key, counts, error: null }),
      (err: unknown) => {
        if (!ac.signal.aborted) setComputed({ key, counts: null, error: err instanceof Error ? err.message : String(err) });
      },
    );
    return () => ac.abort();
  }, [db, cache, key, source, selection]);

  const current = computed && computed.key === key ? computed : null;
  const report = useMemo(() => (current?.counts ? evaluateSpoc(current.counts.clips, convention) : null), [current, convention]);
  const rows = useMemo(() => (report && current?.counts ? spocTableRows(report, current.counts.clips) : null), [report, current]);

  if (sources === undefined) return <p className="px-3 pb-3 text-sm text-zinc-500">Looking for sources…</p>;
  if (sources.length === 0) {
    return (
      <p className="px-3 pb-3 text-sm text-zinc-500" data-testid="project-metrics-empty">
        No clip of this project has a source other than gt. Import predictions (pred:…) to score them here: for the whole project under Predictions for the whole project above, or for one clip in its review panel (Predictions).
      </p>
    );
  }
  const notes = report
    ? [
        `Source ${source} against gt, ${convention} convention, ${selection === 'all' ? 'all frames' : 'annotated frames only'}.`,
        `${report.coverage.clips} clips, ${report.coverage.evaluatedFrames} evaluated frames (${report.coverage.ignoredFrames} ignored, ${report.coverage.missingPredictions} without a prediction, scored as empty).`,
        'mIoU = (mIoU_act + mIoU_trf)/2; w/o OSC = both states fused; seen / novel = mIoU over clips of seen / novel objects; transition = mIoU over frames whose phase is transitioning; Mean (verbs) = mean of the verb rows. Blank = undefined (state absent, or no such clip / frame).',
      ]
    : [];
  const fileBase = `spoc-table-${slug(project.name)}-${slug(source ?? '')}-${convention}`;
  const computing = key !== null && !current;
  const shownProgress = progress && progress.key === key ? progress : null;
  return (
    <div className="flex flex-col gap-2 px-3 pb-3 text-sm" data-testid="project-metrics-body" data-state={computing ? 'computing' : current?.error ? 'error' : 'done'}>
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex items-center gap-1 text-zinc-400">
          source
          <select className="rounded bg-zinc-950 px-2 py-1 text-zinc-100" value={source ?? ''} onChange={(e) => setChosen(e.target.value)} data-testid="project-metrics-source">
            {sources.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          <span>vs gt</span>
        </label>
        <label className="flex items-center gap-1 text-zinc-400" title={CONVENTIONS.find((c) => c.value === convention)?.title}>
          convention
          <select
            className="rounded bg-zinc-950 px-2 py-1 text-zinc-100"
            value={convention}
            onChange={(e) => setConvention(e.target.value as Convention)}
            data-testid="project-metrics-convention"
          >
            {CONVENTIONS.map((c) => (
              <option key={c.value} value={c.value} title={c.title}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1 text-zinc-400" title="All frames: a frame without gt paint is an empty gt (as an exported empty mask). Annotated: only frames with gt pixels or marked reviewed.">
          frames
          <select className="rounded bg-zinc-950 px-2 py-1 text-zinc-100" value={selection} onChange={(e) => setSelection(e.target.value as FrameSelection)}>
            <option value="all">all frames</option>
            <option value="annotated">annotated only</option>
          </select>
        </label>
        <span className="flex-1" />
        <button
          className="rounded bg-zinc-700 px-2 py-1 text-xs hover:bg-zinc-600 disabled:opacity-40"
          disabled={!rows}
          onClick={() => rows && download(`${fileBase}.csv`, tableToCsv(rows), 'text/csv')}
        >
          Download CSV
        </button>
        <button
          className="rounded bg-zinc-700 px-2 py-1 text-xs hover:bg-zinc-600 disabled:opacity-40"
          disabled={!rows}
          onClick={() => rows && download(`${fileBase}.md`, tableToMarkdown(rows, { notes }), 'text/markdown')}
        >
          Download Markdown
        </button>
      </div>
      {computing && (
        <p className="text-xs text-zinc-400" data-testid="project-metrics-progress">
          counting… {shownProgress ? `${shownProgress.done} / ${shownProgress.total} frames` : ''}
        </p>
      )}
      {current?.error && <p className="text-xs text-red-400">Could not evaluate: {current.error}</p>}
      {rows && (
        <table className="w-full max-w-4xl text-right tabular-nums" data-testid="spoc-table">
          <thead className="text-xs text-zinc-400">
            <tr>
              <th className="py-1 text-left font-normal" />
              <th className="px-2 font-normal">clips</th>
              {VALUE_COLUMNS.map((c) => (
                <th key={c.key} className="px-2 font-normal" title={c.title}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const id = r.row === 'verb' ? `verb:${r.verb}` : r.row;
              return (
                <tr key={id} className={`border-t border-zinc-800 ${r.row === 'mean_over_verbs' ? 'font-semibold' : r.row === 'mean_over_clips' ? 'text-zinc-400' : ''}`} data-row={id}>
                  <td className="py-1 pr-2 text-left">{rowLabel(r)}</td>
                  <td className="px-2" data-col="clips">
                    {r.clips}
                  </td>
                  {VALUE_COLUMNS.map((c) => (
                    <td key={c.key} className="px-2" data-col={c.key} data-testid="spoc-cell">
                      {formatValue(r[c.key], 3)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {report && current?.counts && (
        <div className="text-xs text-zinc-500" data-testid="project-metrics-notes">
          {notes.slice(0, 2).map((n) => (
            <p key={n}>{n}</p>
          ))}
          {current.counts.withoutSource.length > 0 && (
            <p className="text-amber-400">
              {current.counts.withoutSource.length} clip(s) have no {source} layer, so every frame counts as an empty prediction:{' '}
              {current.counts.withoutSource.join(', ')}.
            </p>
          )}
        </div>
      )}
    </div>
  );
}

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'untitled';
}

function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
