/**
 * The trash of a team project (docs/sync.md "Deletions"). Moving a clip to the trash or out of it is
 * the clip row's `deletedAt`, which syncs: only managers may change it (the server refuses anyone
 * else), so the app asks `teamTrashRefusal` first. Deleting for good stays this browser's own act:
 * the server keeps every row, and the link remembers the clip so its later rows are not pulled in
 * without the ones deleted here (applyPull.ts).
 */
import { clipTables } from '../store/clips';
import type { SpocDb } from '../store/db';
import { purgeClips } from '../store/trash';
import { readLink, writeLink } from './syncState';

/** A role on the team server (server/auth/permissions.ts), or null when it cannot be known now. */
export type TeamRole = 'manager' | 'annotator' | 'reviewer';

/**
 * Why this browser may not move a clip of a project to the trash, or restore it: null for a local
 * project (anyone may) and for a team project's manager. `roleOf` is asked only for a linked project.
 */
export async function teamTrashRefusal(db: SpocDb, clipId: string, what: 'trash' | 'restore', roleOf: (serverProjectId: string) => Promise<TeamRole | null>): Promise<string | null> {
  const clip = await db.clips.get(clipId);
  const link = clip && (await readLink(db, clip.projectId));
  if (!clip || !link) return null;
  const role = await roleOf(link.serverProjectId).catch(() => null);
  if (role === 'manager') return null;
  const act = what === 'trash' ? 'move a clip of a team project to the trash' : 'restore a clip of a team project';
  const why = role === null ? 'sign in to the team server so it can tell your role, and try again' : `you are ${role} on "${clip.name}"'s project; ask a manager`;
  return `Only a project manager may ${act} (it is moved for everyone): ${why}. Nothing was changed.`;
}

/**
 * Deletes trashed clips for good in this browser (store/trash.ts purgeClips), and for those of a
 * team project notes them in its link, in the same transaction. The server's rows stay.
 */
export async function purgeClipsHere(db: SpocDb, clipIds: readonly string[]): Promise<number> {
  return db.transaction('rw', [...clipTables(db), db.projects, db.meta], async () => {
    const clips = (await db.clips.bulkGet([...clipIds])).filter((c) => c !== undefined);
    const n = await purgeClips(db, clipIds);
    for (const projectId of new Set(clips.map((c) => c.projectId))) {
      const link = await readLink(db, projectId);
      if (!link) continue;
      const ids = clips.filter((c) => c.projectId === projectId).map((c) => c.id);
      link.purgedClips = [...new Set([...(link.purgedClips ?? []), ...ids])];
      await writeLink(db, link);
    }
    return n;
  });
}
