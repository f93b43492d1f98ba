import { describe, expect, it } from 'vitest';
import { commitClipImport } from '../importCommit';
import { listRevisions } from '../revisions';
import { saveFrameEdits, type FrameEdits } from '../layers';
import { createProject } from '../projects';
import { freshDb, H, importDraft, rleWithArea, W } from '../../testing/storeFixtures';
import { MemoryFiles } from './journalFiles';
import { PENDING_DIR, RESERVE_DIR } from './journal';
import { ensureReserve, keepPendingEdits, replayPendingEdits, RESERVE_BYTES } from './pendingEdits';

function edit(clipId: string, frameIndex: number, area: number, at: number): FrameEdits {
  const rle = rleWithArea(H, W, area);
  return {
    layer: { clipId, frameIndex, source: 'gt', act: rle, trf: rleWithArea(H, W, 0), provenance: { kind: 'manual', by: 'ann', at } },
    revisions: [{ clipId, frameIndex, source: 'gt', author: 'ann', at, action: 'brush', box: { x: 0, y: 0, w: W, h: H }, before: rleWithArea(H, W, 0), after: rle }],
  };
}

async function setup() {
  const db = await freshDb();
  const project = await createProject(db, { name: 'p' });
  const clip = await commitClipImport(db, importDraft(project.id, 3));
  return { db, clip, files: new MemoryFiles() };
}

describe('edits kept while saves fail', () => {
  it('are saved at the next start and then forgotten', async () => {
    const { db, clip, files } = await setup();
    await keepPendingEdits(files, clip.id, [edit(clip.id, 2, 5, 100), edit(clip.id, 1, 3, 101)]);
    const replayed = await replayPendingEdits(db, files);
    expect(replayed).toEqual([{ clipId: clip.id, frames: 2, revisions: 2 }]);
    expect((await db.layers.get([clip.id, 'gt', 2]))?.actArea).toBe(5);
    expect(await listRevisions(db, clip.id, 'gt', 2)).toHaveLength(1);
    expect(await files.list(PENDING_DIR)).toEqual([]);
  });

  it('a revision that did get saved before the page went away is not stored twice', async () => {
    const { db, clip, files } = await setup();
    const e = edit(clip.id, 0, 4, 200);
    await saveFrameEdits(db, [e]);
    await keepPendingEdits(files, clip.id, [e]);
    const replayed = await replayPendingEdits(db, files);
    expect(replayed[0].revisions).toBe(0);
    expect(await listRevisions(db, clip.id, 'gt', 0)).toHaveLength(1);
  });

  it('on a full disk the reserve is given up so the edits can still be written', async () => {
    const { clip, files } = await setup();
    await ensureReserve(files);
    expect((await files.read(RESERVE_DIR, 'space.bin'))?.size).toBe(RESERVE_BYTES);
    // The first write hits the quota; giving up the reserve makes room for the second.
    const original = files.write.bind(files);
    let calls = 0;
    files.write = async (dir, name, data) => {
      if (dir === PENDING_DIR && calls++ === 0) throw new DOMException('full', 'QuotaExceededError');
      return original(dir, name, data);
    };
    await keepPendingEdits(files, clip.id, [edit(clip.id, 0, 1, 300)]);
    expect(await files.read(RESERVE_DIR, 'space.bin')).toBeNull();
    expect(await files.list(PENDING_DIR)).toHaveLength(1);
  });

  it('edits of a clip deleted meanwhile are dropped, not written', async () => {
    const { db, files } = await setup();
    await keepPendingEdits(files, 'gone', [edit('gone', 0, 1, 1)]);
    expect(await replayPendingEdits(db, files)).toEqual([]);
    expect(await files.list(PENDING_DIR)).toEqual([]);
  });
});
