/**
 * What a crash in the middle of a chunked import leaves behind — a clip row with the `importing`
 * marker and some of its frames — is seeded here directly, as the browser would have left it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteClip, listClips, listClipsByStatus, listIncompleteImports, removeIncompleteImport } from './clips';
import type { SpocDb } from './db';
import { commitClipImport } from './importCommit';
import { projectStats } from './progress';
import { createProject } from './projects';
import { appendRevisionRow } from './revisions';
import { freshDb, importDraft, snapshot } from '../testing/storeFixtures';
import type { Clip, Project } from './types';

let db: SpocDb;
let project: Project;
let complete: Clip;
beforeEach(async () => {
  db = await freshDb();
  project = await createProject(db, { name: 'P' });
  complete = await commitClipImport(db, importDraft(project.id, 2));
});
afterEach(() => db.close());

/** A clip whose import was cut off after `saved` of `expected` frames, as a crash leaves it. */
async function seedInterrupted(saved: number, expected: number): Promise<Clip> {
  const clip: Clip = {
    ...complete,
    id: 'crashed-clip',
    name: 'big video',
    frameCount: expected,
    createdAt: complete.createdAt + 1,
    importing: { startedAt: 1, framesExpected: expected },
  };
  await db.clips.add(clip);
  for (let i = 0; i < saved; i++) {
    await db.frames.add({ clipId: clip.id, index: i, timestampSec: i });
    await db.frameImages.add({ clipId: clip.id, index: i, blob: new Blob([new Uint8Array(8)]), mime: 'image/jpeg', width: clip.width, height: clip.height });
  }
  return clip;
}

describe('incomplete imports', () => {
  it('are left out of lists and progress, and listed apart with how far they got', async () => {
    await seedInterrupted(64, 600);
    expect((await listClips(db, project.id)).map((c) => c.id)).toEqual([complete.id]);
    expect((await listClipsByStatus(db, project.id, 'todo')).map((c) => c.id)).toEqual([complete.id]);
    const stats = await projectStats(db, project.id);
    expect([stats.clips, stats.frames.total]).toEqual([1, 2]);
    const [inc, ...rest] = await listIncompleteImports(db, project.id);
    expect(rest).toEqual([]);
    expect([inc.clip.id, inc.framesSaved, inc.framesExpected]).toEqual(['crashed-clip', 64, 600]);
  });

  it('removing one deletes the clip and every row keyed by it, and nothing else', async () => {
    const before = await snapshot(db);
    const clip = await seedInterrupted(3, 10);
    await db.thumbnails.add({ clipId: clip.id, blob: new Blob([new Uint8Array(4)]) });
    await db.layers.add({ ...(await db.layers.toArray())[0], clipId: clip.id });
    // A tab that opened the clip anyway could have written history for it.
    const box = { x: 0, y: 0, w: 1, h: 1 };
    const rle = { size: [1, 1] as [number, number], counts: '1' };
    await appendRevisionRow(db, { clipId: clip.id, frameIndex: 0, source: 'gt', author: 'a', at: 1, action: 'brush', box, before: rle, after: rle });
    await removeIncompleteImport(db, clip.id);
    expect(await snapshot(db)).toEqual(before);
  });

  it('refuses to remove a clip whose import has finished, and removing twice is harmless', async () => {
    await expect(removeIncompleteImport(db, complete.id)).rejects.toThrow(
      'The import of clip "peel banana 01" has finished in the meantime; nothing was removed.',
    );
    expect((await listClips(db, project.id)).length).toBe(1);
    const clip = await seedInterrupted(1, 5);
    await removeIncompleteImport(db, clip.id);
    await removeIncompleteImport(db, clip.id);
    await deleteClip(db, clip.id);
    expect(await listIncompleteImports(db, project.id)).toEqual([]);
  });
});
