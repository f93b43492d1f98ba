import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { navigate } from '../../workspace/router';
import { notify, messageOf } from '../../workspace/notices';
import { createProject, listProjects } from '../../store/projects';
import { OpenDemoButton } from '../demo/OpenDemoButton';
import { ImportBundleButton } from './ProjectTransfer';
import { storageChanged } from '../StorageMeter';
import { ProjectTrash } from './ProjectTrash';
import { ServerProjects } from '../team/ServerProjects';
import { moveProjectToTrash } from './clipActions';
import type { Project } from '../../store/types';
import type { ProjectKind } from '../../objects/labelSchema';

export function ProjectsPage() {
  const db = useDb();
  const projects = useLiveQuery(() => listProjects(db), [db]);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ProjectKind>('spoc');

  const create = async () => {
    try {
      // A SPOC project is made as before (no schema row): only an objects project records its kind.
      const p = await createProject(db, { name: name.trim() || 'Untitled project', ...(kind === 'objects' ? { kind } : {}) });
      storageChanged(); // the first project is the first write worth keeping: the meter asks for persistence
      setName('');
      navigate({ name: 'project', projectId: p.id });
    } catch (err) {
      notify('error', messageOf(err));
    }
  };

  const trash = async (p: Project) => {
    try {
      await moveProjectToTrash(db, p.id);
      notify('info', `Moved the project "${p.name}" to the trash; restore it from the trash below.`);
    } catch (err) {
      notify('error', messageOf(err));
    }
  };

  if (!projects) return null;
  return (
    <div className="mx-auto max-w-4xl p-6">
      {projects.length === 0 && (
        <section className="mb-8 rounded-lg border border-zinc-800 bg-zinc-900 p-6" data-testid="welcome">
          <h1 className="text-2xl font-semibold">Welcome to SPOC Studio</h1>
          <p className="mt-2 text-zinc-400">
            Paint, frame by frame, which pixels of an object are still <span className="text-red-400">actionable</span> and which are
            already <span className="text-emerald-400">transformed</span> while a state change unfolds. Everything stays in this
            browser.
          </p>
          <div className="mt-4 flex gap-3">
            <OpenDemoButton />
          </div>
        </section>
      )}
      <div className="flex items-end justify-between">
        <h2 className="text-lg font-semibold">Projects</h2>
        <div className="flex items-center gap-2">
          <ImportBundleButton />
          {projects.length > 0 && <OpenDemoButton subtle />}
        </div>
      </div>
      <form
        className="mt-3 flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <input
          aria-label="New project name"
          placeholder="New project name"
          className="flex-1 rounded bg-zinc-900 px-3 py-2"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <select aria-label="New project kind" className="rounded bg-zinc-900 px-2 py-2 text-sm" value={kind} onChange={(e) => setKind(e.target.value as ProjectKind)}>
          <option value="spoc">SPOC: actionable / transformed</option>
          <option value="objects">Objects: classes, hands, tracks</option>
        </select>
        <button className="rounded bg-sky-700 px-4 py-2 hover:bg-sky-600">New project</button>
      </form>
      <ul className="mt-4 divide-y divide-zinc-800 rounded border border-zinc-800">
        {projects.map((p) => (
          <li key={p.id} className="flex items-center hover:bg-zinc-900" data-testid="project-row">
            <a href={`#/p/${p.id}`} className="flex flex-1 items-center justify-between px-4 py-3">
              <span>{p.name}</span>
              <span className="text-xs text-zinc-500">updated {new Date(p.updatedAt).toLocaleString()}</span>
            </a>
            <button
              aria-label={`Move ${p.name} to the trash`}
              title="Move to the trash (restore it from the trash below)"
              className="mr-2 rounded px-2 py-1 text-xs text-zinc-400 hover:bg-zinc-800 hover:text-zinc-100"
              onClick={() => void trash(p)}
            >
              Trash
            </button>
          </li>
        ))}
        {projects.length === 0 && <li className="px-4 py-3 text-zinc-500">No projects yet.</li>}
      </ul>
      <ServerProjects />
      <ProjectTrash />
    </div>
  );
}
