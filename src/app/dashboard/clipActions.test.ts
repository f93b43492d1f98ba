/**
 * Deleting (to the trash or for good) and editing a clip open in another tab's editor are refused
 * with a message naming the clip and nothing written; once that tab lets go, they go through.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { commitClipImport } from '../../store/importCommit';
import { createProject, listProjects } from '../../store/projects';
import { freshDb, importDraft, snapshot } from '../../testing/storeFixtures';
import { listTrashedClips } from '../../store/trash';
import type { Clip, Project } from '../../store/types';
import { ClipBusyError } from '../../workspace/clipWriteLock';
import type { ClipHold } from '../../workspace/clipLocks';
import { settle, twoTabs } from '../../testing/locks';
import { newLink, readLink, writeLink } from '../../sync/syncState';
import { deleteClipsForGood, deleteProjectsForGood, editClip, emptyClipTrash, moveClipToTrash, moveProjectToTrash, restoreClipFromTrash } from './clipActions';

let db: SpocDb;
let project: Project;
let clip: Clip;
let tabs: ReturnType<typeof twoTabs>;
beforeEach(async () => {
  db = await freshDb();
  project = await createProject(db, { name: 'P' });
  clip = await commitClipImport(db, importDraft(project.id, 2));
  tabs = twoTabs();
});
afterEach(() => {
  tabs.restore();
  db.close();
});

const busy = (what: string) => `${what}: "peel banana 01" is open for editing in another tab; close it there (or finish) and try again. Nothing was changed.`;

async function refused(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ClipBusyError);
  return (err as Error).message;
}

describe('while another tab edits the clip', () => {
  let editor: ClipHold | null;
  beforeEach(async () => {
    editor = await tabs.elsewhere.tryAcquire(clip.id);
    expect(editor).not.toBeNull();
  });

  it('moving it or its project to the trash, and editing it, are refused; nothing is written', async () => {
    const before = await snapshot(db);
    expect(await refused(moveClipToTrash(db, clip.id))).toBe(busy('Cannot move it to the trash'));
    expect(await refused(moveProjectToTrash(db, project.id))).toBe(busy('Cannot move the project to the trash'));
    expect(await refused(editClip(db, clip.id, { name: 'renamed' }))).toBe(busy('Cannot change it'));
    expect(await snapshot(db)).toEqual(before);
  });

  it('goes through once the other tab closes the clip', async () => {
    editor?.release();
    await settle();
    await moveClipToTrash(db, clip.id);
    expect((await listTrashedClips(db, project.id)).map((c) => c.id)).toEqual([clip.id]);
    await restoreClipFromTrash(db, clip.id);
    expect(await listTrashedClips(db, project.id)).toEqual([]);
  });
});

describe('deleting for good', () => {
  it('is refused for a trashed clip that a tab still holds, and empties the trash otherwise', async () => {
    await moveClipToTrash(db, clip.id);
    const hold = await tabs.elsewhere.tryAcquire(clip.id);
    const before = await snapshot(db);
    expect(await refused(deleteClipsForGood(db, [clip.id]))).toBe(busy('Cannot delete it for good'));
    expect(await snapshot(db)).toEqual(before);
    hold?.release();
    await settle();
    expect(await emptyClipTrash(db, project.id)).toBe(1);
    expect(await db.clips.get(clip.id)).toBeUndefined();
  });

  it('removes a trashed project with its clips', async () => {
    await moveProjectToTrash(db, project.id);
    expect(await listProjects(db)).toEqual([]);
    expect(await deleteProjectsForGood(db, [project.id])).toBe(1);
    expect(await db.projects.count()).toBe(0);
    expect(await db.frames.count()).toBe(0);
  });
});

describe('a clip of a team project (docs/sync.md "Deletions")', () => {
  beforeEach(() => db.transaction('rw', db.meta, () => writeLink(db, newLink(project.id, 'http://team.test', project.id, 'client-1', false))));

  it('only a manager moves it to the trash or restores it; anyone else is told why and nothing is written', async () => {
    const before = await snapshot(db);
    await expect(moveClipToTrash(db, clip.id, async () => 'annotator')).rejects.toThrow(/^Only a project manager may move a clip of a team project to the trash .*you are annotator/);
    await expect(moveClipToTrash(db, clip.id, async () => null)).rejects.toThrow(/sign in to the team server/);
    expect(await snapshot(db)).toEqual(before);
    await moveClipToTrash(db, clip.id, async () => 'manager');
    await expect(restoreClipFromTrash(db, clip.id, async () => 'reviewer')).rejects.toThrow(/^Only a project manager may restore a clip of a team project .*you are reviewer/);
    expect((await listTrashedClips(db, project.id)).map((c) => c.id)).toEqual([clip.id]);
    await restoreClipFromTrash(db, clip.id, async () => 'manager');
    expect(await listTrashedClips(db, project.id)).toEqual([]);
  });

  it('deleting it for good is this browser\'s own act: anyone may, and the link remembers the clip', async () => {
    await moveClipToTrash(db, clip.id, async () => 'manager');
    expect(await deleteClipsForGood(db, [clip.id])).toBe(1);
    expect(await db.clips.get(clip.id)).toBeUndefined();
    expect((await readLink(db, project.id))!.purgedClips).toEqual([clip.id]);
  });
});
