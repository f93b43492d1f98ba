/**
 * A project's trash, below its clips: restore a clip exactly as it was, delete one for good, or
 * empty the trash. Deleting for good asks first; it is the only step here that cannot be undone.
 * In a team project the trash is everyone's (a manager's trash and restore sync), but deleting for
 * good removes this browser's copy only: the team server keeps the clip (docs/sync.md "Deletions").
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { messageOf, notify } from '../../workspace/notices';
import { listTrashedClips } from '../../store/trash';
import { readLink } from '../../sync';
import type { Clip } from '../../store/types';
import { storageChanged } from '../StorageMeter';
import { deleteClipsForGood, emptyClipTrash, restoreClipFromTrash } from './clipActions';

async function attempt(step: () => Promise<string>): Promise<void> {
  try {
    notify('info', await step());
  } catch (err) {
    notify('error', messageOf(err));
  }
}

export function ClipTrash({ projectId }: { projectId: string }) {
  const db = useDb();
  const trashed = useLiveQuery(() => listTrashedClips(db, projectId), [db, projectId]);
  const team = useLiveQuery(async () => (await readLink(db, projectId)) !== undefined, [db, projectId], false);
  if (!trashed || trashed.length === 0) return null;
  const forGood = team
    ? ' from this browser? The team server keeps it, with everyone else\'s copy; only this browser\'s copy is gone, and it comes back here only if a manager restores it on the server.'
    : '? This cannot be undone.';

  const restore = (c: Clip) => attempt(async () => (await restoreClipFromTrash(db, c.id), `Restored "${c.name}".`));
  const purge = (c: Clip) => {
    if (!window.confirm(`Delete "${c.name}" for good, with its frames, masks, history and comments${forGood}`)) return;
    void attempt(async () => {
      await deleteClipsForGood(db, [c.id]);
      storageChanged();
      return `Deleted "${c.name}" for good.`;
    });
  };
  const empty = () => {
    if (!window.confirm(`Delete all ${trashed.length} clips in the trash for good${forGood}`)) return;
    void attempt(async () => {
      const n = await emptyClipTrash(db, projectId);
      storageChanged();
      return `Deleted ${n} clip${n === 1 ? '' : 's'} for good.`;
    });
  };

  return (
    <section className="mt-8 rounded-lg border border-zinc-800 p-4" aria-label="Trash" data-testid="clip-trash">
      <div className="flex items-center justify-between">
        <h2 className="font-semibold">
          Trash{' '}
          <span className="text-sm font-normal text-zinc-500">
            ({trashed.length}) — kept until you empty it; not counted or exported
            {team && '. Team project: managers trash and restore clips for everyone; deleting for good removes only this browser\'s copy (the server keeps it)'}
          </span>
        </h2>
        <button className="rounded border border-red-800 px-3 py-1 text-sm hover:bg-red-950" onClick={empty}>
          Empty trash
        </button>
      </div>
      <ul className="mt-2 divide-y divide-zinc-800 text-sm">
        {trashed.map((c) => (
          <li key={c.id} className="flex items-center gap-3 py-2" data-testid="trashed-clip">
            <span className="flex-1 truncate">
              {c.name} <span className="text-zinc-500">· {c.osc.verb} {c.osc.noun} · {c.frameCount} frames</span>
            </span>
            <span className="text-xs text-zinc-500">deleted {new Date(c.deletedAt ?? 0).toLocaleString()}</span>
            <button aria-label={`Restore ${c.name}`} className="rounded border border-zinc-700 px-3 py-1 hover:bg-zinc-800" onClick={() => void restore(c)}>
              Restore
            </button>
            <button aria-label={`Delete ${c.name} for good`} className="rounded border border-red-800 px-3 py-1 hover:bg-red-950" onClick={() => purge(c)}>
              Delete for good
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
