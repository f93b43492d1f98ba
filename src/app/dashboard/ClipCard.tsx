import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { getThumbnail } from '../../store/clips';
import type { Clip } from '../../store/types';
import type { ClipProgress } from '../../store/progress';
import { clipNameProblem, nounProblem, verbProblem } from '../../store/clipNames';
import { messageOf, notify } from '../../workspace/notices';
import { STATUS_LABEL } from './clipFilter';
import { ClipEditForm } from './ClipEditForm';
import { moveClipToTrash } from './clipActions';

/** An object URL that lives exactly as long as the blob is shown (created and revoked in one effect, StrictMode-safe). */
export function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) return;
    const u = URL.createObjectURL(blob);
    // The URL is an external resource tied to this effect's lifetime; the state only mirrors it.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setUrl(u);
    return () => {
      URL.revokeObjectURL(u);
      setUrl(undefined);
    };
  }, [blob]);
  return url;
}

/** What exports would have to rewrite about this clip's names (stored before the rules), or null. */
function nameWarning(clip: Clip): string | null {
  return clipNameProblem(clip.name) ?? verbProblem(clip.osc.verb) ?? nounProblem(clip.osc.noun);
}

interface Props {
  clip: Clip;
  progress?: ClipProgress;
  /** Export only this clip (the project page points its export controls at it). */
  onExport: (clip: Clip) => void;
}

export function ClipCard({ clip, progress, onExport }: Props) {
  const db = useDb();
  const thumb = useLiveQuery(() => getThumbnail(db, clip.id), [db, clip.id]);
  const url = useObjectUrl(thumb);
  const [editing, setEditing] = useState(false);
  const warning = nameWarning(clip);
  const trash = async () => {
    try {
      await moveClipToTrash(db, clip.id);
      notify('info', `Moved "${clip.name}" to the trash; restore it from the trash below the clips.`);
    } catch (err) {
      notify('error', messageOf(err));
    }
  };
  const p = progress;
  const pct = (n: number) => (p && p.total > 0 ? `${(100 * n) / p.total}%` : '0%');
  return (
    <li className="overflow-hidden rounded-lg border border-zinc-800 bg-zinc-900" data-testid="clip-card" data-clip-id={clip.id}>
      <a href={`#/c/${clip.id}/0`} className="block hover:opacity-90">
        <div className="aspect-video bg-zinc-950">{url && <img src={url} alt="" className="h-full w-full object-cover" />}</div>
        <div className="p-3">
          <div className="flex items-baseline justify-between gap-2">
            <span className="truncate font-medium" data-testid="clip-name">
              {clip.name}
            </span>
            <span className="shrink-0 rounded bg-zinc-800 px-1.5 py-0.5 text-[11px] text-zinc-300">{STATUS_LABEL[clip.status]}</span>
          </div>
          <p className="mt-0.5 text-sm text-zinc-400">
            {clip.osc.verb} {clip.osc.noun}
            {clip.subset === 'novel' && <span className="ml-2 text-xs text-amber-400">novel</span>}
          </p>
          <p className="mt-0.5 text-xs text-zinc-500" data-testid="clip-frames">
            {clip.frameCount} frames · {clip.width}×{clip.height}
          </p>
          <div className="mt-2 flex h-1.5 overflow-hidden rounded bg-zinc-800" title="annotated / ignored / remaining">
            <span className="bg-emerald-500" style={{ width: pct(p?.annotated ?? 0) }} />
            <span className="bg-zinc-500" style={{ width: pct(p?.ignored ?? 0) }} />
          </div>
          {p && (
            <p className="mt-1 text-[11px] text-zinc-500" data-testid="clip-progress">
              {p.annotated} annotated · {p.ignored} ignored · {p.remaining} remaining
            </p>
          )}
        </div>
      </a>
      {warning && !editing && (
        <p className="px-3 pb-1 text-[11px] text-amber-400" data-testid="clip-name-problem">
          {warning} Exports rewrite it; Edit to fix.
        </p>
      )}
      {editing ? (
        <ClipEditForm clip={clip} onDone={() => setEditing(false)} />
      ) : (
        <div className="flex justify-end gap-1 border-t border-zinc-800 px-2 py-1 text-xs">
          <CardButton label={`Edit ${clip.name}`} onClick={() => setEditing(true)}>
            Edit
          </CardButton>
          <CardButton label={`Export ${clip.name}`} onClick={() => onExport(clip)}>
            Export
          </CardButton>
          <CardButton label={`Move ${clip.name} to the trash`} onClick={() => void trash()}>
            Trash
          </CardButton>
        </div>
      )}
    </li>
  );
}

function CardButton({ label, onClick, children }: { label: string; onClick: () => void; children: string }) {
  return (
    <button type="button" aria-label={label} title={label} className="rounded px-2 py-1 text-zinc-400 hover:bg-zinc-800 hover:text-zinc-100" onClick={onClick}>
      {children}
    </button>
  );
}
