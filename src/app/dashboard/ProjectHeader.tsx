/**
 * The project page's title: rename the project in place, or move it (with everything under it) to
 * the trash; and what the page shows instead when the project is in the trash.
 */
import { useState } from 'react';
import { useDb } from '../../workspace/db';
import { navigate } from '../../workspace/router';
import { messageOf, notify } from '../../workspace/notices';
import { updateProject } from '../../store/projects';
import { restoreProject } from '../../store/trash';
import type { Project } from '../../store/types';
import { moveProjectToTrash } from './clipActions';
import { ShareToServer } from '../team/ShareToServer';

const button = 'rounded border border-zinc-700 px-2 py-0.5 text-xs text-zinc-300 hover:bg-zinc-800';

export function ProjectHeader({ project }: { project: Project }) {
  const db = useDb();
  const [renaming, setRenaming] = useState<string | null>(null);

  const rename = async (name: string) => {
    try {
      await updateProject(db, project.id, { name });
      setRenaming(null);
    } catch (err) {
      notify('error', messageOf(err));
    }
  };
  const trash = async () => {
    try {
      await moveProjectToTrash(db, project.id);
      notify('info', `Moved the project "${project.name}" to the trash; restore it from the trash on the projects page.`);
      navigate({ name: 'projects' });
    } catch (err) {
      notify('error', messageOf(err));
    }
  };

  if (renaming !== null) {
    return (
      <form
        className="mt-1 flex items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void rename(renaming);
        }}
      >
        <input aria-label="Project name" autoFocus className="rounded bg-zinc-900 px-2 py-1 text-xl" value={renaming} onChange={(e) => setRenaming(e.target.value)} />
        <button className="rounded bg-sky-700 px-3 py-1 text-sm hover:bg-sky-600">Save name</button>
        <button type="button" className={button} onClick={() => setRenaming(null)}>
          Cancel
        </button>
      </form>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <h1 className="text-2xl font-semibold" data-testid="project-name">
        {project.name}
      </h1>
      <button className={button} onClick={() => setRenaming(project.name)}>
        Rename project
      </button>
      <button className={button} onClick={() => void trash()}>
        Move project to trash
      </button>
      <ShareToServer project={project} />
    </div>
  );
}

/** Shown instead of the project page while the project is in the trash. */
export function TrashedProjectNotice({ project }: { project: Project }) {
  const db = useDb();
  const restore = async () => {
    try {
      await restoreProject(db, project.id);
    } catch (err) {
      notify('error', messageOf(err));
    }
  };
  return (
    <div className="p-6" data-testid="trashed-project">
      <p className="text-zinc-200">The project "{project.name}" is in the trash: its clips are kept, but it is not listed, counted or exported.</p>
      <div className="mt-3 flex gap-3 text-sm">
        <button className="rounded bg-sky-700 px-3 py-1 hover:bg-sky-600" onClick={() => void restore()}>
          Restore project
        </button>
        <a href="#/" className="self-center text-sky-400 hover:underline">
          Back to the projects
        </a>
      </div>
    </div>
  );
}
