import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listClips, listClipsByStatus } from './clips';
import { addComment } from './comments';
import type { SpocDb } from './db';
import { commitClipImport } from './importCommit';
import { saveLayerEdit } from './layers';
import { projectStats } from './progress';
import { createProject, listProjects } from './projects';
import { H, W, freshDb, importDraft, rleWithArea, snapshot, storeRejection } from '../testing/storeFixtures';
import {
  clipIdsOfProjects,
  listTrashedClips,
  listTrashedProjects,
  purgeClips,
  purgeProjects,
  restoreClip,
  restoreProject,
  trashClip,
  trashProject,
} from './trash';
import type { Clip, Project } from './types';

let db: SpocDb;
let project: Project;
let keep: Clip;
let gone: Clip;

/** A clip with rows in every table keyed by it: frames, images, thumbnail, layers, a revision, a comment. */
async function busyClip(projectId: string, name: string): Promise<Clip> {
  const draft = importDraft(projectId, 4);
  draft.clip.name = name;
  const clip = await commitClipImport(db, draft);
  await saveLayerEdit(db, {
    layer: { clipId: clip.id, frameIndex: 3, source: 'gt', act: rleWithArea(H, W, 2), trf: rleWithArea(H, W, 0), provenance: { kind: 'manual', by: 'ann', at: 5 } },
    revision: { clipId: clip.id, frameIndex: 3, source: 'gt', author: 'ann', at: 5, action: 'brush', box: { x: 0, y: 0, w: 2, h: 2 }, before: rleWithArea(2, 2, 0), after: rleWithArea(2, 2, 2) },
  });
  await addComment(db, { clipId: clip.id, frameIndex: 1, x: 2, y: 2, author: 'rev', text: 'check the peel' });
  return clip;
}

/** Every row of the store except the projects' `updatedAt`, which trash and restore move on purpose. */
async function rowsBesidesProjectTimes(): Promise<Record<string, unknown[]>> {
  const all = await snapshot(db);
  return { ...all, projects: (all.projects as Project[]).map(({ updatedAt: _moved, ...rest }) => rest) };
}

/** Ids of the rows keyed by `clipId` in every table that has them. */
async function rowsOf(clipId: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of db.tables) {
    if (t.name === 'meta' || t.name === 'projects') continue;
    const rows = (await t.toArray()) as { clipId?: string; id?: string }[];
    out[t.name] = rows.filter((r) => (t.name === 'clips' ? r.id : r.clipId) === clipId).length;
  }
  return out;
}

beforeEach(async () => {
  db = await freshDb();
  project = await createProject(db, { name: 'P' });
  keep = await busyClip(project.id, 'keep');
  gone = await busyClip(project.id, 'gone');
});
afterEach(() => db.close());

describe('clip trash', () => {
  it('hides a trashed clip from lists, review queues and progress, keeping every row', async () => {
    const rowsBefore = await rowsOf(gone.id);
    expect(rowsBefore).toMatchObject({ clips: 1, frames: 4, frameImages: 4, thumbnails: 1, layers: 3, revisions: 1, comments: 1 });
    const statsBefore = await projectStats(db, project.id);

    await trashClip(db, gone.id, 1234);

    expect((await listClips(db, project.id)).map((c) => c.id)).toEqual([keep.id]);
    // Both were painted, so both are in progress.
    expect((await listClipsByStatus(db, project.id, 'in_progress')).map((c) => c.id)).toEqual([keep.id]);
    const stats = await projectStats(db, project.id);
    expect(stats.clips).toBe(1);
    expect(stats.frames.total).toBe(statsBefore.frames.total - 4);
    expect(stats.perClip[gone.id]).toBeUndefined();
    expect((await listTrashedClips(db, project.id)).map((c) => [c.id, c.deletedAt])).toEqual([[gone.id, 1234]]);
    expect(await rowsOf(gone.id)).toEqual(rowsBefore);
  });

  it('restore brings back every row exactly as it was', async () => {
    const before = await rowsBesidesProjectTimes();
    await trashClip(db, gone.id);
    await trashClip(db, gone.id); // twice: another tab may have been first
    await restoreClip(db, gone.id);
    expect(await rowsBesidesProjectTimes()).toEqual(before);
    expect((await listClips(db, project.id)).map((c) => c.id)).toEqual([keep.id, gone.id]);
  });

  it('deleting for good removes every row keyed by the clip and nothing else', async () => {
    const keptRows = await rowsOf(keep.id);
    await trashClip(db, gone.id);
    expect(await purgeClips(db, [gone.id])).toBe(1);
    expect(Object.values(await rowsOf(gone.id)).every((n) => n === 0)).toBe(true);
    expect(await rowsOf(keep.id)).toEqual(keptRows);
    expect(await listTrashedClips(db, project.id)).toEqual([]);
    // Again (another tab emptied the trash first): nothing to do.
    expect(await purgeClips(db, [gone.id])).toBe(0);
  });

  it('refuses to delete for good a clip that is not in the trash, deleting nothing', async () => {
    await trashClip(db, gone.id);
    const before = await snapshot(db);
    const err = await storeRejection(purgeClips(db, [gone.id, keep.id]));
    expect(err.message).toBe('"keep" is not in the trash (it was restored in the meantime); nothing was deleted.');
    expect(await snapshot(db)).toEqual(before);
  });

  it('refuses to trash an incomplete import (it has its own Remove)', async () => {
    await db.clips.update(gone.id, { importing: { startedAt: 1, framesExpected: 9 } });
    const err = await storeRejection(trashClip(db, gone.id));
    expect(err.message).toMatch(/^"gone" is an incomplete import; remove it with its Remove button instead/);
    expect((await db.clips.get(gone.id))?.deletedAt).toBeUndefined();
  });
});

describe('project trash', () => {
  it('hides a trashed project; restore gives back its clips, and the trash it had, exactly', async () => {
    const other = await createProject(db, { name: 'other' });
    await trashClip(db, gone.id);
    const before = await snapshot(db);

    await trashProject(db, project.id, 99);
    expect((await listProjects(db)).map((p) => p.id)).toEqual([other.id]);
    expect((await listTrashedProjects(db)).map((p) => [p.id, p.deletedAt])).toEqual([[project.id, 99]]);

    await restoreProject(db, project.id);
    expect(await snapshot(db)).toEqual(before);
    expect((await listClips(db, project.id)).map((c) => c.id)).toEqual([keep.id]);
    expect((await listTrashedClips(db, project.id)).map((c) => c.id)).toEqual([gone.id]);
  });

  it('deleting a trashed project for good removes it with every clip row; other projects stay', async () => {
    const other = await createProject(db, { name: 'other' });
    const elsewhere = await busyClip(other.id, 'elsewhere');
    const elsewhereRows = await rowsOf(elsewhere.id);
    await trashProject(db, project.id);
    expect(await clipIdsOfProjects(db, [project.id])).toEqual(expect.arrayContaining([keep.id, gone.id]));

    expect(await purgeProjects(db, [project.id])).toBe(1);
    expect(await db.projects.get(project.id)).toBeUndefined();
    for (const id of [keep.id, gone.id]) expect(Object.values(await rowsOf(id)).every((n) => n === 0)).toBe(true);
    expect(await rowsOf(elsewhere.id)).toEqual(elsewhereRows);
  });

  it('refuses to delete for good a project that is not in the trash', async () => {
    const before = await snapshot(db);
    const err = await storeRejection(purgeProjects(db, [project.id]));
    expect(err.message).toBe('The project "P" is not in the trash (it was restored in the meantime); nothing was deleted.');
    expect(await snapshot(db)).toEqual(before);
  });
});
