import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assignClips,
  deleteClip,
  getClip,
  getThumbnail,
  listClips,
  listClipsByStatus,
  putThumbnail,
  setClipStatus,
  takenClipNames,
  updateClip,
} from './clips';
import type { SpocDb } from './db';
import { commitClipImport } from './importCommit';
import { saveLayerEdit } from './layers';
import { createProject } from './projects';
import { H, W, freshDb, importDraft, rleWithArea, snapshot, storeRejection } from '../testing/storeFixtures';
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

describe('editing a clip\'s names (they become paths in every export)', () => {
  const osc = { verb: 'peel', noun: 'banana', actionable: 'unpeeled banana', transformed: 'peeled banana' };

  it('refuses an empty or multi-word verb, an object with "/", and empty descriptions, changing nothing', async () => {
    const clip = await commitClipImport(db, importDraft(project.id));
    const cases: [typeof osc, RegExp][] = [
      [{ ...osc, verb: '' }, /^The verb is empty; type one word/],
      [{ ...osc, verb: 'cut up' }, /^The verb "cut up" must be one word/],
      [{ ...osc, noun: 'a/b' }, /^The object "a\/b" contains a character not allowed in file names/],
      [{ ...osc, noun: '  ' }, /^The object is empty/],
      [{ ...osc, actionable: '' }, /^The actionable description is empty/],
    ];
    for (const [bad, message] of cases) {
      const err = await storeRejection(updateClip(db, clip.id, { osc: bad }));
      expect(err.message).toMatch(message);
      expect(err.message).toMatch(/Nothing was changed\.$/);
    }
    expect((await getClip(db, clip.id))?.osc).toEqual(clip.osc);
  });

  it('fixes a verb and object stored before the rules, and edits other fields of such a clip', async () => {
    const draft = importDraft(project.id);
    draft.clip.osc = { ...osc, verb: '', noun: 'a/b' }; // as the old import form stored them
    const clip = await commitClipImport(db, draft);
    // Unchanged legacy names do not block other edits...
    expect(await updateClip(db, clip.id, { subset: 'novel', osc: { ...draft.clip.osc, actionable: 'raw' } })).toMatchObject({
      subset: 'novel',
      osc: { verb: '', noun: 'a/b', actionable: 'raw' },
    });
    // ...and the names themselves can be fixed.
    const fixed = await updateClip(db, clip.id, { osc: { ...osc, verb: ' Mashing ', noun: 'potato' } });
    expect(fixed.osc).toEqual({ ...osc, verb: 'mashing', noun: 'potato' });
  });

  it('renames only to a file-safe name no other clip of the project holds (trash included)', async () => {
    const a = await commitClipImport(db, importDraft(project.id));
    const draft = importDraft(project.id);
    draft.clip.name = 'second';
    const b = await commitClipImport(db, draft);
    const err = await storeRejection(updateClip(db, b.id, { name: 'PEEL banana 01' }));
    expect(err.message).toBe('Another clip of this project is already named "peel banana 01"; pick another name. Nothing was changed.');
    expect((await storeRejection(updateClip(db, b.id, { name: 'a/b' }))).message).toMatch(/^The clip name "a\/b" contains a character not allowed/);
    await db.clips.update(a.id, { deletedAt: 5 });
    expect((await storeRejection(updateClip(db, b.id, { name: 'peel banana 01' }))).message).toMatch(/^Another clip in this project's trash is already named/);
    expect(await updateClip(db, b.id, { name: 'third' })).toMatchObject({ name: 'third' });
    // Keeping one's own name (another field edited) is no conflict.
    expect(await updateClip(db, b.id, { name: 'third', subset: 'novel' })).toMatchObject({ name: 'third', subset: 'novel' });
  });

  it('lets clips that share a name (stored before the rules) be renamed apart', async () => {
    const a = await commitClipImport(db, importDraft(project.id));
    const b = await commitClipImport(db, importDraft(project.id));
    expect(a.name).toBe(b.name);
    expect(await updateClip(db, b.id, { name: 'peel banana 02' })).toMatchObject({ name: 'peel banana 02' });
    expect(await takenClipNames(db, project.id)).toEqual(new Set(['peel banana 01', 'peel banana 02']));
  });

  it('assigns clips in bulk in one transaction, counting only the clips that change hands', async () => {
    const a = await commitClipImport(db, importDraft(project.id));
    const draft = importDraft(project.id);
    draft.clip.name = 'another';
    const b = await commitClipImport(db, draft);
    await updateClip(db, a.id, { assignee: 'ann' });
    expect(await assignClips(db, [a.id, b.id], ' ann ')).toBe(1);
    expect((await getClip(db, b.id))?.assignee).toBe('ann');
    expect(await assignClips(db, [a.id, b.id], '')).toBe(2);
    expect((await getClip(db, a.id))?.assignee).toBeUndefined();

    // An unknown clip in the batch: nothing is assigned at all.
    const before = await snapshot(db);
    await expect(assignClips(db, [a.id, 'no-such-clip'], 'bo')).rejects.toThrow(/was not found/);
    expect(await snapshot(db)).toEqual(before);
  });
});
