import { Suspense } from 'react';
import { useRoute, viewKey } from '../workspace/router';
import { Notices } from './Notices';
import { StorageMeter } from './StorageMeter';
import { UserName } from './UserName';
import { AccountMenu } from './account/AccountMenu';
import { SyncIndicator } from './team/SyncIndicator';
import { ProjectsPage } from './dashboard/ProjectsPage';
import { ProjectPage } from './dashboard/ProjectPage';
import { EditorPage } from './editor/EditorPage';
import { ErrorBoundary } from './ErrorBoundary';
import { InsecureContextBanner } from './InsecureContextBanner';
import { JournalGate } from './journal/JournalGate';

export function App() {
  const route = useRoute();
  return (
    <div className="flex min-h-screen flex-col">
      <InsecureContextBanner />
      <header className="flex items-center gap-4 border-b border-zinc-800 px-4 py-2">
        <a href="#/" className="font-semibold tracking-tight">
          SPOC Studio
        </a>
        <span className="flex-1" />
        <Suspense fallback={null}>
          <SyncIndicator />
          <UserName />
          <AccountMenu />
        </Suspense>
        <StorageMeter />
      </header>
      <main className="flex-1">
        {/* One boundary per view, not per frame: moving between frames must not remount the editor. */}
        <ErrorBoundary key={viewKey(route)}>
          <Suspense fallback={<p className="p-6 text-zinc-500">Opening the project store…</p>}>
            <JournalGate>
              {route.name === 'projects' && <ProjectsPage />}
              {route.name === 'project' && <ProjectPage projectId={route.projectId} />}
              {route.name === 'clip' && <EditorPage clipId={route.clipId} frame={route.frame} />}
            </JournalGate>
          </Suspense>
        </ErrorBoundary>
      </main>
      <Notices />
    </div>
  );
}
