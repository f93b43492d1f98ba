/**
 * The browser half of sync (docs/sync.md "The browser client"). What the app calls:
 *
 *   const transport = fetchTransport({ csrfToken: () => session.csrfToken });
 *
 *   // Share a local project (a manager): create the server project under the local id first
 *   // (POST /api/projects {name, id: projectId}), then upload its whole history with `upload: true`.
 *   await shareProject(db, projectId, transport, { server: location.origin, serverProjectId: projectId });
 *
 *   // Open a server project here (a member): a fresh local project, pulled; returns its local id.
 *   const localId = await openServerProject(db, transport, { server: location.origin, serverProjectId });
 *
 *   // Keep a linked project in sync while the app is open (one engine per project):
 *   const engine = startSync(db, projectId, transport);
 *   useSyncExternalStore(engine.subscribe, () => engine.status);   // synced | pending | offline | error | stopped
 *   engine.onApplied((round) => ...round.rebuilt);                  // frames whose layer a pull rewrote
 *   engine.setOpenClip(clipId);                                     // presence
 *   engine.stop();
 *
 *   await engine.ensureFrameImage(clipId, index);                    // before showing a pulled frame
 *   (await readLink(db, projectId))?.refusals;                       // what the server refused, to show
 *   await listLinks(db);  await unlinkProject(db, projectId);
 *
 *   // The team's trash (docs/sync.md "Deletions"): managers only; deleting for good is local.
 *   await teamTrashRefusal(db, clipId, 'trash', roleOf);             // null, or why not
 *   await purgeClipsHere(db, clipIds);
 *
 * The local user name (store/meta.ts) must be the server account's user name: the server refuses
 * rows whose author is anyone else (docs/sync.md "Who may push what").
 */
import type { SpocDb } from '../store/db';
import { DEFAULT_PROJECT_SETTINGS } from '../store/projects';
import type { Project } from '../store/types';
import { baselineClip } from './baseline';
import { SyncEngine, type SyncEngineOptions } from './engine';
import { pullAll } from './pull';
import { clientId, listLinks, newLink, readFingerprints, readLink, rowKey, writeFingerprints, writeLink } from './syncState';
import type { SyncTransport } from './transport';
import { fingerprint, toWireRow } from './wireRows';

export { SyncEngine, type SyncEngineOptions, type SyncStatus } from './engine';
export { ensureFrameImage } from './frameImages';
export { fetchTransport, type FetchTransportOptions } from './fetchTransport';
export { listLinks, readLink, unlinkProject, type SyncLink, type SyncProblem, type SyncRefusal } from './syncState';
export { purgeClipsHere, teamTrashRefusal, type TeamRole } from './teamTrash';
export { SyncHttpError, type SyncTransport } from './transport';

export interface ServerProject {
  /** The server's origin ("https://annotate.lab.example"). */
  server: string;
  /** The project's id on the server. */
  serverProjectId: string;
}

/** Starts the sync loop of a linked project. */
export function startSync(db: SpocDb, projectId: string, transport: SyncTransport, options?: SyncEngineOptions): SyncEngine {
  const engine = new SyncEngine(db, projectId, transport, options);
  engine.start();
  return engine;
}

/**
 * Links a local project to a (new, empty) server project and uploads all of it: every clip, frame
 * image, revision, step, verdict, comment and dismissal, with `upload: true` so rows keep the authors
 * who wrote them. Runs until everything is pushed and pulled back, and returns the final status:
 * `synced`, or `offline` / `error` when it could not finish (the link stays, and the next sync
 * resumes where this one stopped).
 */
export async function shareProject(db: SpocDb, projectId: string, transport: SyncTransport, target: ServerProject) {
  if (!(await db.projects.get(projectId))) throw new Error('There is no such local project.');
  const existing = await readLink(db, projectId);
  if (existing && (existing.server !== target.server || existing.serverProjectId !== target.serverProjectId)) {
    throw new Error(`This project already syncs with ${existing.server} (project ${existing.serverProjectId}).`);
  }
  if (!existing) {
    const id = await clientId(db);
    await db.transaction('rw', db.meta, () => writeLink(db, newLink(projectId, target.server, target.serverProjectId, id, true)));
  }
  for (const clip of await db.clips.where('projectId').equals(projectId).toArray()) if (clip.importing === undefined) await baselineClip(db, clip.id);
  const engine = new SyncEngine(db, projectId, transport, { events: null });
  await engine.syncNow();
  return engine.status;
}

/**
 * Makes a local copy of a server project and pulls it (frame images come later, on demand:
 * ensureFrameImage). The local project takes the server project's id; opening one that is already
 * linked here only pulls. `name` names the local project if the server holds no project row yet.
 */
export async function openServerProject(db: SpocDb, transport: SyncTransport, target: ServerProject & { name?: string }): Promise<string> {
  const linked = (await listLinks(db)).find((l) => l.server === target.server && l.serverProjectId === target.serverProjectId);
  const projectId = linked?.projectId ?? target.serverProjectId;
  if (!linked) {
    if (await db.projects.get(projectId)) throw new Error('A local project with this id exists and is not linked to this server.');
    const id = await clientId(db);
    await db.transaction('rw', db.meta, () => writeLink(db, newLink(projectId, target.server, target.serverProjectId, id, false)));
  }
  await pullAll(db, transport, projectId);
  if (!(await db.projects.get(projectId))) {
    // No project row on the server yet: a local one, recorded as agreed so it is not pushed back.
    const now = Date.now();
    const row: Project = { id: projectId, name: target.name ?? 'Shared project', createdAt: now, updatedAt: now, settings: { ...DEFAULT_PROJECT_SETTINGS } };
    await db.transaction('rw', [db.projects, db.meta], async () => {
      await db.projects.put(row);
      const link = (await readLink(db, projectId))!;
      const prints = await readFingerprints(db, projectId);
      prints[rowKey('project', target.serverProjectId)] = fingerprint('project', toWireRow('project', row, link));
      await writeFingerprints(db, projectId, prints);
    });
  }
  return projectId;
}
