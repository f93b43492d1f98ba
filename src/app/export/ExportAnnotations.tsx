import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { notify, messageOf } from '../../workspace/notices';
import { listLayerSources } from '../../store/layers';
import type { Clip, LayerSource, Project } from '../../store/types';
import type { FormatId } from '../../io/formats';
import { EXPORT_FORMATS, exportAnnotations, type ExportResult } from './exportAnnotations';

/** Which clips an export takes: all listed clips, the ones the dashboard filters show, or one. */
export type ExportScope = { kind: 'all' } | { kind: 'shown' } | { kind: 'clip'; clipId: string };

interface Props {
  project: Project;
  /** The project's listed clips (trash and incomplete imports left out). */
  clips: readonly Clip[];
  /** The clips the dashboard's search and filters show. */
  shown: readonly Clip[];
  scope: ExportScope;
  onScope: (scope: ExportScope) => void;
}

/** Export a project's annotations (any source) as WhereToChange, DAVIS, COCO or VISOR. */
export function ExportAnnotations({ project, clips, shown, scope, onScope }: Props) {
  const db = useDb();
  // The ids stand for `clips` as the query's dependency: the array is a new one on every render.
  const ids = clips.map((c) => c.id).join(',');
  const sources = useLiveQuery(async () => {
    const all = new Set<LayerSource>(['gt']);
    for (const id of ids.split(',').filter(Boolean)) for (const s of await listLayerSources(db, id)) all.add(s);
    return [...all];
  }, [db, ids]);
  const [format, setFormat] = useState<FormatId>('wtc');
  const [source, setSource] = useState<LayerSource>('gt');
  const [images, setImages] = useState(true);
  const [busy, setBusy] = useState<string | null>(null);
  const [summary, setSummary] = useState<ExportResult | null>(null);

  // A clip picked from its card and trashed since is no longer listed: fall back to all clips.
  const picked = scope.kind === 'clip' ? clips.find((c) => c.id === scope.clipId) : undefined;
  const effective: ExportScope = scope.kind === 'clip' && !picked ? { kind: 'all' } : scope;
  const clipIds = effective.kind === 'all' ? undefined : effective.kind === 'shown' ? shown.map((c) => c.id) : [effective.clipId];

  const run = async () => {
    setBusy('0%');
    setSummary(null);
    try {
      const result = await exportAnnotations(db, {
        projectId: project.id,
        projectName: project.name,
        format,
        source,
        images,
        clipIds,
        onProgress: (d, t) => setBusy(`${Math.round((100 * d) / Math.max(1, t))}%`),
      });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(result.blob);
      a.download = result.fileName;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
      setSummary(result);
    } catch (err) {
      notify('error', `Export failed: ${messageOf(err)}`);
    } finally {
      setBusy(null);
    }
  };

  const field = 'rounded bg-zinc-950 px-2 py-1 text-sm';
  return (
    <div className="mt-3 text-sm" aria-label="Export annotations" id="export-annotations">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-zinc-400">Export</span>
        <select
          aria-label="Export which clips"
          className={field}
          value={effective.kind}
          onChange={(e) => onScope(e.target.value === 'shown' ? { kind: 'shown' } : { kind: 'all' })}
        >
          <option value="all">all {clips.length} clips</option>
          <option value="shown">the {shown.length} clips shown by the filters</option>
          {picked && <option value="clip">only "{picked.name}"</option>}
        </select>
        <span className="text-zinc-400">as</span>
        <select aria-label="Export format" className={field} value={format} onChange={(e) => setFormat(e.target.value as FormatId)}>
          {EXPORT_FORMATS.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </select>
        <select aria-label="Export source" className={field} value={source} onChange={(e) => setSource(e.target.value as LayerSource)}>
          {(sources ?? ['gt']).map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        {(format === 'wtc' || format === 'davis') && (
          <label className="flex items-center gap-1 text-xs text-zinc-400">
            <input type="checkbox" checked={images} onChange={(e) => setImages(e.target.checked)} /> with frame images
          </label>
        )}
        <button className="rounded bg-sky-800 px-3 py-1 hover:bg-sky-700 disabled:opacity-50" disabled={busy !== null} onClick={() => void run()}>
          {busy ? `Exporting… ${busy}` : 'Export'}
        </button>
      </div>
      {summary && <ExportSummary result={summary} onClose={() => setSummary(null)} />}
    </div>
  );
}

/** What the last export wrote, and every name it had to rewrite to write it. */
function ExportSummary({ result, onClose }: { result: ExportResult; onClose: () => void }) {
  return (
    <div className="mt-2 rounded border border-zinc-800 bg-zinc-900 px-3 py-2" data-testid="export-summary">
      <div className="flex items-start justify-between gap-3">
        <p>
          Exported {result.clipCount} clip{result.clipCount === 1 ? '' : 's'} to {result.fileName}.
          {result.notes.length > 0 && ` ${result.notes.length} name${result.notes.length === 1 ? ' was' : 's were'} rewritten so every file could be written:`}
        </p>
        <button className="text-zinc-400 hover:text-white" aria-label="Close the export summary" onClick={onClose}>
          ×
        </button>
      </div>
      {result.notes.length > 0 && (
        <ul className="mt-1 list-disc pl-5 text-xs text-amber-300">
          {result.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
