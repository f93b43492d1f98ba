/**
 * The sync engines of this page, one per project linked to the team server the page came from
 * (docs/sync.md "The browser client"). Started when the user is signed in, stopped on sign-out;
 * the header's indicator, the project page and the editor read them from here. Engines of links
 * to another server (a project shared from elsewhere) are left alone: this page's session cannot
 * speak for them.
 */
import { create } from 'zustand';
import type { SpocDb } from '../store/db';
import { setMissingFrameImageSource } from '../store/frames';
import { fetchTransport, listLinks, openServerProject, shareProject, startSync, type SyncEngine, type SyncStatus, type SyncTransport } from '../sync';
import type { TeamServer } from './teamServer';

interface SyncRegistry {
  engines: Record<string, SyncEngine>;
  /** Each engine's status, kept here so one subscription re-renders the header. */
  statuses: Record<string, SyncStatus>;
}

export const useProjectSync = create<SyncRegistry>(() => ({ engines: {}, statuses: {} }));

const unsubscribes = new Map<string, () => void>();

function origin(): string {
  return typeof location === 'object' ? location.origin : '';
}

export function transportFor(server: TeamServer): SyncTransport {
  return fetchTransport({ csrfToken: () => server.csrfToken || null });
}

function register(projectId: string, engine: SyncEngine): void {
  unsubscribes.get(projectId)?.();
  const off = engine.subscribe((status) => useProjectSync.setState((s) => ({ statuses: { ...s.statuses, [projectId]: status } })));
  unsubscribes.set(projectId, off);
  useProjectSync.setState((s) => ({ engines: { ...s.engines, [projectId]: engine }, statuses: { ...s.statuses, [projectId]: engine.status } }));
}

/** The running engine of a project, if it syncs here. */
export function engineOf(projectId: string): SyncEngine | null {
  return useProjectSync.getState().engines[projectId] ?? null;
}

/** Starts an engine for every project linked to this page's server (those already running stay). */
export async function startLinkedProjects(db: SpocDb, server: TeamServer): Promise<void> {
  const transport = transportFor(server);
  for (const link of await listLinks(db)) {
    if (link.server !== origin() || engineOf(link.projectId)) continue;
    register(link.projectId, startSync(db, link.projectId, transport));
  }
  // A pulled frame's picture comes from the server the first time someone looks at it.
  setMissingFrameImageSource(db, async (clipId, index) => {
    const clip = await db.clips.get(clipId);
    const engine = clip ? engineOf(clip.projectId) : null;
    return engine ? engine.ensureFrameImage(clipId, index) : false;
  });
}

/** Stops every engine (signed out): local work goes on and is pushed at the next sign-in. */
export function stopAllSync(db: SpocDb): void {
  for (const [projectId, engine] of Object.entries(useProjectSync.getState().engines)) {
    engine.stop();
    unsubscribes.get(projectId)?.();
    unsubscribes.delete(projectId);
  }
  setMissingFrameImageSource(db, null);
  useProjectSync.setState({ engines: {}, statuses: {} });
}

/**
 * "Share to server": makes the server project under the local project's id, uploads the whole
 * project (its history keeps its authors; the server audits the upload as the signed-in manager's),
 * then keeps it in sync.
 */
export async function shareToServer(db: SpocDb, server: TeamServer, projectId: string, name: string): Promise<SyncStatus> {
  await server.createProject(name, projectId);
  const transport = transportFor(server);
  const status = await shareProject(db, projectId, transport, { server: origin(), serverProjectId: projectId });
  register(projectId, startSync(db, projectId, transport));
  return status;
}

/** Opens a server project here: a local copy, pulled now (frame pictures on demand), then kept in sync. */
export async function openFromServer(db: SpocDb, server: TeamServer, serverProjectId: string, name: string): Promise<string> {
  const transport = transportFor(server);
  const projectId = await openServerProject(db, transport, { server: origin(), serverProjectId, name });
  if (!engineOf(projectId)) register(projectId, startSync(db, projectId, transport));
  return projectId;
}

/** One line for the header over every engine: the worst state wins. */
export function combinedStatus(statuses: readonly SyncStatus[]): SyncStatus | null {
  const running = statuses.filter((s) => s.state !== 'stopped');
  if (running.length === 0) return statuses.length > 0 ? statuses[0] : null;
  const error = running.find((s) => s.state === 'error');
  if (error) return error;
  const offline = running.filter((s) => s.state === 'offline');
  if (offline.length > 0) return offline.reduce((a, b) => (a.state === 'offline' && b.state === 'offline' && b.since < a.since ? b : a));
  const pending = running.filter((s): s is Extract<SyncStatus, { state: 'pending' }> => s.state === 'pending');
  if (pending.length > 0) return { state: 'pending', count: pending.reduce((n, s) => n + s.count, 0) };
  return running.reduce((a, b) => (a.state === 'synced' && b.state === 'synced' && b.at < a.at ? b : a));
}
