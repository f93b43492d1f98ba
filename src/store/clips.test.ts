import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deleteClip,
  getClip,
  getThumbnail,
  listClips,
  listClipsByStatus,
  putThumbnail,
  setClipStatus,
  updateClip,
} from './clips';
import type { SpocDb } from './db';
import { commitClipImport } from './importCommit';
import { saveLayerEdit } from './layers';
import { createProject } from './projects';
import { H, W, freshDb, importDraft, rleWithArea, snapshot } from './testFixtures';
import type { Project } from './types';

let db: SpocDb;
let project: Project;
beforeEach(async () => {
  db = await freshDb();
  project = await createProject(db, { name: 'P' });
});
afterEach(() => db.close());

describe('clips', () => {
  it('lists a project\'s clips in import order', async () => {
    const a = await commitClipImport(db, importDraft(project.id));
    await new Promise((r) => setTimeout(r, 2));
    const draft = importDraft(project.id);
    draft.clip.name = 'another';
    const b = await commitClipImport(db, draft);
    const other = await createProject(db, { name: 'other' });
    await commitClipImport(db, importDraft(other.id));
    expect((await listClips(db, project.id)).map((c) => c.id)).toEqual([a.id, b.id]);
  });

  it('updates metadata and status, unassigns, and finds clips by status', async () => {
    const clip = await commitClipImport(db, importDraft(project.id));
    await updateClip(db, clip.id, { assignee: 'ann', name: ' renamed ' });
    expect(await getClip(db, clip.id)).toMatchObject({ assignee: 'ann', name: 'renamed' });
    await setClipStatus(db, clip.id, 'submitted');
    expect((await listClipsByStatus(db, project.id, 'submitted')).map((c) => c.id)).toEqual([clip.id]);
    expect(await listClipsByStatus(db, project.id, 'todo')).toEqual([]);
    const unassigned = await updateClip(db, clip.id, { assignee: undefined });
    expect('assignee' in unassigned).toBe(false);
    await expect(updateClip(db, clip.id, { name: '' })).rejects.toThrow(/needs a name/);
    await expect(updateClip(db, 'missing', { name: 'x' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('ignores undefined fields in a patch instead of erasing them', async () => {
    const clip = await commitClipImport(db, importDraft(project.id));
    const next = await updateClip(db, clip.id, { name: undefined, status: undefined, subset: 'novel' });
    expect(next).toMatchObject({ name: clip.name, status: clip.status, subset: 'novel' });
  });

  it('reads and replaces the thumbnail blob', async () => {
    const clip = await commitClipImport(db, importDraft(project.id));
    expect((await getThumbnail(db, clip.id))?.size).toBe(16);
    await putThumbnail(db, clip.id, new Blob([new Uint8Array(40)], { type: 'image/jpeg' }));
    expect((await getThumbnail(db, clip.id))?.type).toBe('image/jpeg');
    expect(await getThumbnail(db, 'missing')).toBeUndefined();
    await expect(putThumbnail(db, 'missing', new Blob([]))).rejects.toMatchObject({ code: 'not_found' });
  });

  it('deleteClip cascades to frames, images, thumbnail, layers and revisions, and nothing else', async () => {
    const keep = await commitClipImport(db, importDraft(project.id));
    const before = await snapshot(db);
    const gone = await commitClipImport(db, importDraft(project.id, 4));
    await saveLayerEdit(db, {
      layer: {
        clipId: gone.id,
        frameIndex: 3,
        source: 'gt',
        act: rleWithArea(H, W, 2),
        trf: rleWithArea(H, W, 0),
        provenance: { kind: 'manual', by: 'ann', at: 5 },
      },
      revision: {
        clipId: gone.id,
        frameIndex: 3,
        source: 'gt',
        author: 'ann',
        at: 5,
        action: 'brush',
        box: { x: 0, y: 0, w: 2, h: 2 },
        before: rleWithArea(2, 2, 0),
        after: rleWithArea(2, 2, 2),
      },
    });
    expect(await db.revisions.count()).toBe(1);
    await deleteClip(db, gone.id);
    const after = await snapshot(db);
    // Everything of `keep` is as it was; only project.updatedAt moved.
    expect({ ...after, projects: [] }).toEqual({ ...before, projects: [] });
    expect(await getClip(db, keep.id)).toBeDefined();
    // Deleting twice is harmless (another tab may have been first).
    await expect(deleteClip(db, gone.id)).resolves.toBeUndefined();
  });
});
