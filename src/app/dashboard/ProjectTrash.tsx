/**
 * Trashed projects, below the project list: restore one exactly as it was, delete one for good with
 * every clip under it, or empty the trash (both ask first).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { messageOf, notify } from '../../workspace/notices';
import { listTrashedProjects, restoreProject } from '../../store/trash';
import type { Project } from '../../store/types';
import { storageChanged } from '../StorageMeter';
import { deleteProjectsForGood, emptyProjectTrash } from './clipActions';

async function attempt(step: () => Promise<string>): Promise<void> {
  try {
    notify('info', await step());
  } catch (err) {
    notify('error', messageOf(err));
  }
}

export function ProjectTrash() {
  const db = useDb();
  const trashed = useLiveQuery(() => listTrashedProjects(db), [db]);
  if (!trashed || trashed.length === 0) return null;

  const restore = (p: Project) => attempt(async () => (await restoreProject(db, p.id), `Restored the project "${p.name}".`));
  const purge = (p: Project) => {
    if (!window.confirm(`Delete the project "${p.name}" for good, with all its clips, masks and history? This cannot be undone.`)) return;
    void attempt(async () => {
      await deleteProjectsForGood(db, [p.id]);
      storageChanged();
      return `Deleted the project "${p.name}" for good.`;
    });
  };
  const empty = () => {
    if (!window.confirm(`Delete all ${trashed.length} projects in the trash for good, with all their clips? This cannot be undone.`)) return;
    void attempt(async () => {
      const n = await emptyProjectTrash(db);
      storageChanged();
      return `Deleted ${n} project${n === 1 ? '' : 's'} for good.`;
    });
  };

  return (
    <section className="mt-8 rounded-lg border border-zinc-800 p-4" aria-label="Project trash" data-testid="project-trash">
      <div className="flex items-center justify-between">
        <h2 className="font-semibold">
          Trash <span className="text-sm font-normal text-zinc-500">({trashed.length}) — kept until you empty it</span>
        </h2>
        <button className="rounded border border-red-800 px-3 py-1 text-sm hover:bg-red-950" onClick={empty}>
          Empty trash
        </button>
      </div>
      <ul className="mt-2 divide-y divide-zinc-800 text-sm">
        {trashed.map((p) => (
          <li key={p.id} className="flex items-center gap-3 py-2" data-testid="trashed-project">
            <span className="flex-1 truncate">{p.name}</span>
            <span className="text-xs text-zinc-500">deleted {new Date(p.deletedAt ?? 0).toLocaleString()}</span>
            <button aria-label={`Restore ${p.name}`} className="rounded border border-zinc-700 px-3 py-1 hover:bg-zinc-800" onClick={() => void restore(p)}>
              Restore
            </button>
            <button aria-label={`Delete ${p.name} for good`} className="rounded border border-red-800 px-3 py-1 hover:bg-red-950" onClick={() => purge(p)}>
              Delete for good
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
