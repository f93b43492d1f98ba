import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { notify, messageOf } from '../../workspace/notices';
import { listClips } from '../../store/clips';
import { listLayerSources } from '../../store/layers';
import type { LayerSource, Project } from '../../store/types';
import type { FormatId } from '../../io/formats';
import { EXPORT_FORMATS, exportAnnotations } from './exportAnnotations';

/** Export a project's annotations (any source) as WhereToChange, DAVIS, COCO or VISOR. */
export function ExportAnnotations({ project }: { project: Project }) {
  const db = useDb();
  const sources = useLiveQuery(async () => {
    const all = new Set<LayerSource>(['gt']);
    for (const c of await listClips(db, project.id)) for (const s of await listLayerSources(db, c.id)) all.add(s);
    return [...all];
  }, [db, project.id]);
  const [format, setFormat] = useState<FormatId>('wtc');
  const [source, setSource] = useState<LayerSource>('gt');
  const [images, setImages] = useState(true);
  const [busy, setBusy] = useState<string | null>(null);

  const run = async () => {
    setBusy('0%');
    try {
      const { blob, fileName } = await exportAnnotations(db, {
        projectId: project.id,
        projectName: project.name,
        format,
        source,
        images,
        onProgress: (d, t) => setBusy(`${Math.round((100 * d) / Math.max(1, t))}%`),
      });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = fileName;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
    } catch (err) {
      notify('error', `Export failed: ${messageOf(err)}`);
    } finally {
      setBusy(null);
    }
  };

  const field = 'rounded bg-zinc-950 px-2 py-1 text-sm';
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 text-sm" aria-label="Export annotations">
      <span className="text-zinc-400">Export annotations as</span>
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
  );
}
