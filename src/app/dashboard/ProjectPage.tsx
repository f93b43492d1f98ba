import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { getProject } from '../../store/projects';
import { listClips } from '../../store/clips';
import { lastActors } from '../../store/clipEvents';
import { projectStats } from '../../store/progress';
import { ImportPanel } from '../import/ImportPanel';
import { IncompleteImports } from '../import/IncompleteImports';
import { ProjectTransfer } from './ProjectTransfer';
import { LabelSchemaPanel } from '../labels/LabelSchemaPanel';
import { ExportAnnotations, type ExportScope } from '../export/ExportAnnotations';
import { ClipFilters } from './ClipFilters';
import { AssignmentBoard } from './AssignmentBoard';
import { MembersPanel } from '../team/MembersPanel';
import { SyncProblems } from '../team/SyncProblems';
import { readLink } from '../../sync';
import { useServerProject } from '../team/useServerProject';
import type { ServerMember } from '../../workspace/teamServer';
import { ClipCard } from './ClipCard';
import { ClipTrash } from './ClipTrash';
import { ProjectHeader, TrashedProjectNotice } from './ProjectHeader';
import type { Clip } from '../../store/types';
import { filterClips, NO_FILTER, type ClipFilter } from './clipFilter';
import { ProjectMetricsPanel } from '../../metrics/panels/ProjectMetricsPanel';
import { ProjectPredictionImport } from '../../review/ui/ProjectPredictionImport';

export function ProjectPage({ projectId }: { projectId: string }) {
  const db = useDb();
  const project = useLiveQuery(() => getProject(db, projectId), [db, projectId], null);
  const clips = useLiveQuery(() => listClips(db, projectId), [db, projectId]);
  const stats = useLiveQuery(() => projectStats(db, projectId), [db, projectId]);
  const [filter, setFilter] = useState<ClipFilter>(NO_FILTER);
  const [exportScope, setExportScope] = useState<ExportScope>({ kind: 'all' });
  // Asked again once the project is linked (shared from here, or opened from the server).
  const linked = useLiveQuery(async () => (await readLink(db, projectId)) !== undefined, [db, projectId], false);
  const serverProject = useServerProject(projectId, linked ? 1 : 0);
  const [members, setMembers] = useState<ServerMember[]>([]);
  const lastActor = useLiveQuery(async () => lastActors(db, (await listClips(db, projectId)).map((c) => c.id)), [db, projectId]);

  if (project === null) return null;
  if (project === undefined) return <p className="p-6 text-zinc-400">This project does not exist (it may have been deleted).</p>;
  if (project.deletedAt !== undefined) return <TrashedProjectNotice project={project} />;
  const shown = clips ? filterClips(clips, filter, lastActor) : [];
  const exportClip = (clip: Clip) => {
    setExportScope({ kind: 'clip', clipId: clip.id });
    document.getElementById('export-annotations')?.scrollIntoView({ block: 'center' });
  };
  return (
    <div className="p-6">
      <nav className="text-sm text-zinc-500">
        <a href="#/" className="hover:underline">
          Projects
        </a>{' '}
        /
      </nav>
      <ProjectHeader project={project} />
      {stats && (
        <p className="mt-1 text-sm text-zinc-400" data-testid="project-stats">
          {stats.clips} clips · {stats.frames.total} frames · {stats.frames.annotated} annotated · {stats.frames.ignored} ignored ·{' '}
          {stats.frames.remaining} remaining
        </p>
      )}
      <ImportPanel project={project} />
      <LabelSchemaPanel project={project} />
      <IncompleteImports projectId={projectId} />
      <ProjectTransfer project={project} />
      <ExportAnnotations project={project} clips={clips ?? []} shown={shown} scope={exportScope} onScope={setExportScope} />
      <ProjectPredictionImport clips={clips ?? []} />
      <ProjectMetricsPanel project={project} clips={clips ?? []} />
      <SyncProblems projectId={projectId} clipNames={new Map((clips ?? []).map((c) => [c.id, c.name]))} />
      {serverProject && <MembersPanel project={serverProject} onMembers={setMembers} />}
      <AssignmentBoard clips={clips ?? []} shown={shown} people={serverProject ? members.filter((m) => m.role === 'annotator').map((m) => m.username) : []} onFilter={setFilter} />
      <ClipFilters clips={clips ?? []} filter={filter} onChange={setFilter} lastActor={lastActor} />
      <p className="mt-2 text-xs text-zinc-500" data-testid="clip-count">
        {shown.length} of {clips?.length ?? 0} clips
      </p>
      <ul className="mt-3 grid grid-cols-[repeat(auto-fill,minmax(16rem,1fr))] gap-4">
        {shown.map((c) => (
          <ClipCard key={c.id} clip={c} progress={stats?.perClip[c.id]} onExport={exportClip} />
        ))}
      </ul>
      <ClipTrash projectId={projectId} />
    </div>
  );
}
