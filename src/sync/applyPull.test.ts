import { afterEach, describe, expect, it } from 'vitest';
import { decodeLayer, parseLayer } from '../masks/layers';
import type { SpocDb } from '../store/db';
import { updateClip } from '../store/clips';
import { snapshot, storePool } from '../testing/storeFixtures';
import { CursorLog, linkedProject, Painter, SERVER } from '../testing/syncFixtures';
import type { Clip } from '../store/types';
import { applyPullPage } from './applyPull';
import { collectOutbox } from './outbox';
import { recordOutcomes } from './push';
import { newLink, readFingerprints, readImageRefs, readLink, writeLink } from './syncState';
import { storeFetchedImage } from './frameImages';
import { restoreClip, trashClip, listTrashedClips } from '../store/trash';
import { purgeClipsHere, teamTrashRefusal } from './teamTrash';

const pool = storePool();
afterEach(() => pool.closeAll());

const SERVER_PROJECT = 'srv-project-1';

async function push(db: SpocDb, projectId: string, log: CursorLog, by: string) {
  const link = (await readLink(db, projectId))!;
  const box = await collectOutbox(db, link, await readFingerprints(db, projectId), await readImageRefs(db, projectId));
  const uploaded = new Set(box.entries.flatMap((e) => (e.image?.bytes ? [e.image.ref.sha256] : [])));
  await recordOutcomes(db, projectId, box, log.accept(box.entries.map((e) => e.change), by), uploaded);
  return box;
}

async function pull(db: SpocDb, projectId: string, log: CursorLog, limit?: number) {
  const rebuilt: string[] = [];
  for (;;) {
    const page = log.page((await readLink(db, projectId))!.cursor, limit);
    const r = await applyPullPage(db, projectId, page);
    rebuilt.push(...r.rebuilt.map((f) => `${f.source}:${f.frameIndex}`));
    if (!page.more && !r.restart) return rebuilt;
  }
}

/** A second browser that opened the server project: a fresh store linked under the server's id. */
async function openOnB(log: CursorLog): Promise<SpocDb> {
  const b = await pool.open();
  await b.transaction('rw', b.meta, () => writeLink(b, newLink(SERVER_PROJECT, SERVER, SERVER_PROJECT, 'client-b', false)));
  await pull(b, SERVER_PROJECT, log);
  return b;
}

const labels = async (db: SpocDb, clipId: string, frame: number) => {
  const layer = await db.layers.get([clipId, 'gt', frame]);
  return layer ? Array.from(decodeLayer(parseLayer(layer)).data) : null;
};

describe('applying pulled pages', () => {
  it('gives a second browser the project, clip, frames (images by reference) and masks', async () => {
    const a = await pool.open();
    const { projectId, clip } = await linkedProject(a);
    const painter = new Painter(a, clip, 'ann');
    await painter.stroke(0, { x: 1, y: 1, w: 3, h: 2 }, 1);
    await painter.stroke(0, { x: 2, y: 2, w: 3, h: 2 }, 2);
    await painter.stroke(0, { x: 0, y: 0, w: 2, h: 2 }, 0);
    await painter.stroke(2, { x: 5, y: 3, w: 2, h: 2 }, 2);
    const log = new CursorLog();
    await push(a, projectId, log, 'ann');
    const b = await openOnB(log);
    expect((await b.projects.get(SERVER_PROJECT))!.name).toBe('P');
    expect((await b.clips.get(clip.id))!.projectId).toBe(SERVER_PROJECT);
    expect(await b.frames.count()).toBe(4);
    expect(await b.frameImages.count()).toBe(0);
    for (const k of [0, 1, 2, 3]) expect(await labels(b, clip.id, k)).toEqual(await labels(a, clip.id, k));
    const bLayer = (await b.layers.get([clip.id, 'gt', 0]))!;
    const aLayer = (await a.layers.get([clip.id, 'gt', 0]))!;
    expect([bLayer.actArea, bLayer.trfArea]).toEqual([aLayer.actArea, aLayer.trfArea]);
    // Its own copy of every revision, with the server's cursor and a local seq.
    expect((await b.revisions.toArray()).map((r) => [r.id, r.cursor])).toEqual((await a.revisions.toArray()).map((r) => [r.id, r.cursor]));
    // Nothing to push back.
    const bLink = (await readLink(b, SERVER_PROJECT))!;
    expect((await collectOutbox(b, bLink, await readFingerprints(b, SERVER_PROJECT), await readImageRefs(b, SERVER_PROJECT))).entries).toEqual([]);

    // The image comes later, checked against the hash its frame names.
    const ref = (await readImageRefs(b, SERVER_PROJECT))[`${clip.id}/1`];
    const bytes = new Uint8Array(await (await a.frameImages.get([clip.id, 1]))!.blob.arrayBuffer());
    await expect(storeFetchedImage(b, clip.id, 1, ref, bytes.map((x) => x ^ 1))).rejects.toThrow(/not the .* its frame names/);
    expect(await b.frameImages.count()).toBe(0);
    await storeFetchedImage(b, clip.id, 1, ref, bytes);
    expect(new Uint8Array(await (await b.frameImages.get([clip.id, 1]))!.blob.arrayBuffer())).toEqual(bytes);
  });

  it('two browsers painting one frame at once converge to the same layer, with both strokes', async () => {
    const a = await pool.open();
    const { projectId, clip } = await linkedProject(a);
    const log = new CursorLog();
    const pa = new Painter(a, clip, 'ann');
    await pa.stroke(0, { x: 0, y: 0, w: 8, h: 1 }, 1); // seen by both
    await push(a, projectId, log, 'ann');
    const b = await openOnB(log);
    const pb = new Painter(b, clip, 'bob');
    // Concurrently, neither seeing the other: A on the left, B on the right, overlapping at x = 3..4.
    await pa.stroke(0, { x: 0, y: 1, w: 5, h: 4 }, 1);
    await pa.stroke(0, { x: 0, y: 0, w: 1, h: 1 }, 0);
    await pb.stroke(0, { x: 3, y: 2, w: 5, h: 4 }, 2);
    await pb.stroke(0, { x: 7, y: 0, w: 1, h: 1 }, 0);
    const fromB = await push(b, SERVER_PROJECT, log, 'bob');
    expect(fromB.entries.filter((e) => e.change.kind === 'revision').map((e) => e.change.base)).toEqual(['7', '7']); // A's first stroke
    await push(a, projectId, log, 'ann');
    expect(await pull(a, projectId, log)).toEqual(['gt:0']);
    expect(await pull(b, SERVER_PROJECT, log)).toEqual(['gt:0']);
    const la = await labels(a, clip.id, 0);
    expect(await labels(b, clip.id, 0)).toEqual(la);
    // Row by row (8 wide): row 0 = the shared stroke minus both erasures; A's 1s on the left, B's 2s on
    // the right; where they overlap (x 3..4, y 2..4) A's stroke, pushed later, wins.
    expect(la).toEqual([
      0, 1, 1, 1, 1, 1, 1, 0,
      1, 1, 1, 1, 1, 0, 0, 0,
      1, 1, 1, 1, 1, 2, 2, 2,
      1, 1, 1, 1, 1, 2, 2, 2,
      1, 1, 1, 1, 1, 2, 2, 2,
      0, 0, 0, 2, 2, 2, 2, 2,
    ]);
  });

  it('applying the same page twice changes nothing', async () => {
    const a = await pool.open();
    const { projectId, clip } = await linkedProject(a);
    await new Painter(a, clip, 'ann').stroke(1, { x: 1, y: 1, w: 2, h: 2 }, 2);
    const log = new CursorLog();
    await push(a, projectId, log, 'ann');
    const b = await pool.open();
    await b.transaction('rw', b.meta, () => writeLink(b, newLink(SERVER_PROJECT, SERVER, SERVER_PROJECT, 'client-b', false)));
    const page = log.page('0');
    await applyPullPage(b, SERVER_PROJECT, page);
    const once = await snapshot(b);
    const again = await applyPullPage(b, SERVER_PROJECT, page);
    expect(again).toEqual({ applied: 0, rebuilt: [], problems: 0 });
    const twice = await snapshot(b);
    delete once.journalMarks;
    delete twice.journalMarks;
    expect(twice).toEqual(once);
  });

  it('leaves a page another tab has already gone past as it is (an older copy never replaces a newer one)', async () => {
    const a = await pool.open();
    const { projectId, clip } = await linkedProject(a);
    const log = new CursorLog();
    await push(a, projectId, log, 'ann');
    const b = await openOnB(log);
    const asked = (await readLink(b, SERVER_PROJECT))!.cursor;
    await updateClip(a, clip.id, { name: 'second' });
    await push(a, projectId, log, 'ann');
    const stale = log.page(asked); // this tab's request, answered before the third name was pushed
    await updateClip(a, clip.id, { name: 'third' });
    await push(a, projectId, log, 'ann');
    await pull(b, SERVER_PROJECT, log); // another tab of b's profile pulls everything meanwhile
    expect((await b.clips.get(clip.id))!.name).toBe('third');
    const before = await snapshot(b);
    expect(await applyPullPage(b, SERVER_PROJECT, stale)).toEqual({ applied: 0, rebuilt: [], problems: 0 });
    expect((await b.clips.get(clip.id))!.name).toBe('third');
    const after = await snapshot(b);
    delete before.journalMarks;
    delete after.journalMarks;
    expect(after).toEqual(before);
  });

  it('replays revisions that came before their clip once the clip arrives (a clip changed later is pulled later)', async () => {
    const a = await pool.open();
    const { projectId, clip } = await linkedProject(a);
    const log = new CursorLog();
    await new Painter(a, clip, 'ann').stroke(2, { x: 0, y: 0, w: 3, h: 3 }, 1);
    await push(a, projectId, log, 'ann');
    await updateClip(a, clip.id, { name: 'renamed' }); // the clip row moves to the newest cursor
    await push(a, projectId, log, 'ann');
    const b = await pool.open();
    await b.transaction('rw', b.meta, () => writeLink(b, newLink(SERVER_PROJECT, SERVER, SERVER_PROJECT, 'client-b', false)));
    expect(log.page('0').changes.at(-1)!.kind).toBe('clip');
    const rebuilt = await pull(b, SERVER_PROJECT, log, 3); // small pages: the revision comes pages before the clip
    expect(rebuilt).toEqual(['gt:2']);
    expect(await labels(b, clip.id, 2)).toEqual(await labels(a, clip.id, 2));
    expect((await b.clips.get(clip.id))!.name).toBe('renamed');
  });

  it('keeps a change made here since the last push over the pulled copy (it is pushed next: last push wins)', async () => {
    const a = await pool.open();
    const { projectId, clip } = await linkedProject(a);
    const log = new CursorLog();
    await push(a, projectId, log, 'ann');
    const b = await openOnB(log);
    await updateClip(a, clip.id, { name: 'from A' });
    await push(a, projectId, log, 'ann');
    await updateClip(b, clip.id, { name: 'from B' });
    await pull(b, SERVER_PROJECT, log);
    expect((await b.clips.get(clip.id))!.name).toBe('from B');
    await push(b, SERVER_PROJECT, log, 'bob');
    await pull(a, projectId, log);
    expect((await a.clips.get(clip.id))!.name).toBe('from B');
  });

  it('leaves out a pulled row that fails the store checks, records why, and stores the rest of the page', async () => {
    const a = await pool.open();
    const { projectId, clip } = await linkedProject(a);
    const log = new CursorLog();
    await new Painter(a, clip, 'ann').stroke(0, { x: 0, y: 0, w: 1, h: 1 }, 1);
    await push(a, projectId, log, 'ann');
    const b = await pool.open();
    await b.transaction('rw', b.meta, () => writeLink(b, newLink(SERVER_PROJECT, SERVER, SERVER_PROJECT, 'client-b', false)));
    const page = log.page('0');
    const bad = { kind: 'revision' as const, id: '01900000-0000-7000-8000-000000000001', cursor: page.cursor, by: 'eve', row: { clipId: clip.id, frameIndex: 99, source: 'gt', author: 'eve', at: 1, action: 'brush', box: { x: 0, y: 0, w: 1, h: 1 } } };
    const r = await applyPullPage(b, SERVER_PROJECT, { ...page, changes: [...page.changes, bad] });
    expect(r.problems).toBe(1);
    expect((await readLink(b, SERVER_PROJECT))!.problems).toMatchObject([{ kind: 'revision', id: bad.id }]);
    expect(await b.revisions.count()).toBe(1);
    expect((await readLink(b, SERVER_PROJECT))!.cursor).toBe(page.cursor);
  });
});

export type { Clip };

describe('the trash of a team project (docs/sync.md "Deletions")', () => {
  const clipRowsOf = async (db: SpocDb, clipId: string) => ({
    frames: await db.frames.where('[clipId+index]').between([clipId, 0], [clipId, Infinity]).count(),
    revisions: await db.revisions.where('clipId').equals(clipId).count(),
    layers: await db.layers.where('[clipId+source+frameIndex]').between([clipId, '', 0], [clipId, '\uffff', Infinity]).count(),
  });

  it("a manager's trash and restore push the clip row's deletedAt, and reach another browser with every row kept", async () => {
    const a = await pool.open();
    const { projectId, clip } = await linkedProject(a);
    await new Painter(a, clip, 'mgr').stroke(1, { x: 0, y: 0, w: 2, h: 2 }, 1);
    const log = new CursorLog();
    await push(a, projectId, log, 'mgr');
    const b = await openOnB(log);
    const before = await clipRowsOf(b, clip.id);
    expect(before).toEqual({ frames: 4, revisions: 1, layers: 1 });

    const trashed = await trashClip(a, clip.id, 1234);
    const box = await push(a, projectId, log, 'mgr');
    expect(box.entries.map((e) => [e.change.kind, e.change.row.deletedAt])).toEqual([['clip', 1234]]);
    await pull(b, SERVER_PROJECT, log);
    expect((await b.clips.get(clip.id))!.deletedAt).toBe(trashed.deletedAt);
    expect((await listTrashedClips(b, SERVER_PROJECT)).map((c) => c.id)).toEqual([clip.id]);
    expect(await clipRowsOf(b, clip.id)).toEqual(before);
    // B agrees with the server: nothing to push back.
    expect((await collectOutbox(b, (await readLink(b, SERVER_PROJECT))!, await readFingerprints(b, SERVER_PROJECT), await readImageRefs(b, SERVER_PROJECT))).due).toBe(0);

    await restoreClip(a, clip.id);
    const back = await push(a, projectId, log, 'mgr');
    expect(back.entries.map((e) => [e.change.kind, 'deletedAt' in e.change.row])).toEqual([['clip', false]]);
    await pull(b, SERVER_PROJECT, log);
    expect((await b.clips.get(clip.id))!.deletedAt).toBeUndefined();
    expect(await clipRowsOf(b, clip.id)).toEqual(before);
  });

  it('the import marker still never leaves the browser', async () => {
    const a = await pool.open();
    const { projectId, clip } = await linkedProject(a);
    await a.clips.update(clip.id, { deletedAt: 5 });
    const box = await collectOutbox(a, (await readLink(a, projectId))!, {}, {});
    const row = box.entries.find((e) => e.change.kind === 'clip')!.change.row;
    expect([row.deletedAt, 'importing' in row, row.projectId]).toEqual([5, false, 'srv-project-1']);
  });

  it('a clip deleted for good here skips its later rows (nothing half-arrives), and comes back whole when a manager restores it', async () => {
    const a = await pool.open();
    const { projectId, clip } = await linkedProject(a);
    const painter = new Painter(a, clip, 'mgr');
    await painter.stroke(0, { x: 0, y: 0, w: 3, h: 2 }, 1);
    await trashClip(a, clip.id);
    const log = new CursorLog();
    await push(a, projectId, log, 'mgr');
    const b = await openOnB(log);
    expect((await b.clips.get(clip.id))!.deletedAt).toBeDefined();

    expect(await purgeClipsHere(b, [clip.id])).toBe(1);
    expect(await b.clips.get(clip.id)).toBeUndefined();
    expect((await readLink(b, SERVER_PROJECT))!.purgedClips).toEqual([clip.id]);
    // The manager keeps working on the trashed clip: its rows are on the server, not half in B.
    await painter.stroke(2, { x: 1, y: 1, w: 2, h: 2 }, 2);
    await push(a, projectId, log, 'mgr');
    await pull(b, SERVER_PROJECT, log);
    expect(await clipRowsOf(b, clip.id)).toEqual({ frames: 0, revisions: 0, layers: 0 });
    expect((await readLink(b, SERVER_PROJECT))!.problems).toEqual([]);

    await restoreClip(a, clip.id);
    await push(a, projectId, log, 'mgr');
    await pull(b, SERVER_PROJECT, log);
    expect((await b.clips.get(clip.id))!.deletedAt).toBeUndefined();
    expect(await clipRowsOf(b, clip.id)).toEqual(await clipRowsOf(a, clip.id));
    for (const k of [0, 2]) expect(await labels(b, clip.id, k)).toEqual(await labels(a, clip.id, k));
    const link = (await readLink(b, SERVER_PROJECT))!;
    expect([link.purgedClips, link.cursor]).toEqual([[], log.page('0').cursor]);
  });

  it('only a manager may trash or restore a team clip here; a local project asks nobody', async () => {
    const a = await pool.open();
    const { clip } = await linkedProject(a);
    const asked: string[] = [];
    const role = (r: 'manager' | 'annotator' | null) => async (serverProjectId: string) => (asked.push(serverProjectId), r);
    expect(await teamTrashRefusal(a, clip.id, 'trash', role('manager'))).toBeNull();
    expect(await teamTrashRefusal(a, clip.id, 'trash', role('annotator'))).toMatch(/^Only a project manager may move a clip of a team project to the trash .*you are annotator.*Nothing was changed\.$/);
    expect(await teamTrashRefusal(a, clip.id, 'restore', role(null))).toMatch(/^Only a project manager may restore a clip of a team project .*sign in to the team server/);
    expect(await teamTrashRefusal(a, clip.id, 'trash', () => Promise.reject(new Error('offline')))).toMatch(/sign in to the team server/);
    expect(asked).toEqual(['srv-project-1', 'srv-project-1', 'srv-project-1']);
    const local = await pool.open();
    const { clip: localClip } = await linkedProject(local);
    await local.meta.clear();
    expect(await teamTrashRefusal(local, localClip.id, 'trash', role(null))).toBeNull();
  });
});
