import { afterEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../store/db';
import { addComment } from '../store/comments';
import { setFramePhase } from '../store/frames';
import { storePool } from '../testing/storeFixtures';
import { CursorLog, linkedProject, Painter } from '../testing/syncFixtures';
import type { Clip } from '../store/types';
import { collectOutbox, revisionBases } from './outbox';
import { recordOutcomes } from './push';
import { readFingerprints, readImageRefs, readLink } from './syncState';
import { sha256Hex } from './frameImages';
import { readClipRows } from '../store/clipRows';

const pool = storePool();
afterEach(() => pool.closeAll());

async function outbox(db: SpocDb, projectId: string, limit?: number, maxBytes?: number) {
  const link = (await readLink(db, projectId))!;
  return collectOutbox(db, link, await readFingerprints(db, projectId), await readImageRefs(db, projectId), limit, maxBytes);
}

/** Collects a batch, has `log` accept it, records the outcomes; returns the batch's changes. */
async function pushRound(db: SpocDb, projectId: string, log: CursorLog, by = 'ann', limit?: number) {
  const box = await outbox(db, projectId, limit);
  const outcomes = log.accept(box.entries.map((e) => e.change), by);
  await recordOutcomes(db, projectId, box, outcomes, uploadedBy(box));
  return box;
}

/** What pushOnce uploads before sending the batch: the images whose bytes the batch carries. */
const uploadedBy = (box: Awaited<ReturnType<typeof collectOutbox>>) => new Set(box.entries.flatMap((e) => (e.image?.bytes ? [e.image.ref.sha256] : [])));

const kinds = (box: Awaited<ReturnType<typeof outbox>>) => box.entries.map((e) => e.change.kind);

describe('the outbox', () => {
  it('holds the project, clip and frames (with their image by SHA-256) first; nothing once they are accepted', async () => {
    const db = await pool.open();
    const { projectId, clip } = await linkedProject(db);
    const box = await outbox(db, projectId);
    expect(kinds(box)).toEqual(['project', 'clip', 'frame', 'frame', 'frame', 'frame']);
    expect(box.entries[0].change.id).toBe('srv-project-1'); // the server's id for the project row
    expect(box.entries[1].change.row.projectId).toBe('srv-project-1');
    const image = await db.frameImages.get([clip.id, 2]);
    const bytes = new Uint8Array(await image!.blob.arrayBuffer());
    expect(box.entries[4].change).toMatchObject({ id: `${clip.id}/2`, row: { image: { sha256: await sha256Hex(bytes), mime: 'image/png', size: bytes.length } } });
    expect(box.entries[4].image?.bytes).toEqual(bytes);
    await recordOutcomes(db, projectId, box, new CursorLog().accept(box.entries.map((e) => e.change), 'ann'));
    expect((await outbox(db, projectId)).entries).toEqual([]);
  });

  it('picks up strokes, frame and comment changes, and the clip when its status moved (not for its "last changed" time alone)', async () => {
    const db = await pool.open();
    const { projectId, clip } = await linkedProject(db);
    const log = new CursorLog();
    await pushRound(db, projectId, log);
    const painter = new Painter(db, clip, 'ann');
    await painter.stroke(1, { x: 0, y: 0, w: 2, h: 2 }, 1); // touches the clip (updatedAt, todo -> in_progress)
    expect((await db.clips.get(clip.id))!.status).toBe('in_progress');
    await setFramePhase(db, clip.id, 3, 'end');
    await addComment(db, { clipId: clip.id, frameIndex: 0, x: 1, y: 1, author: 'ann', text: 'look' });
    const box = await outbox(db, projectId);
    expect(kinds(box)).toEqual(['clip', 'frame', 'comment', 'revision']);
    expect(box.entries[1].change.id).toBe(`${clip.id}/3`);
    expect(box.entries[1].image?.bytes).toBeNull(); // the server has the image already
    await recordOutcomes(db, projectId, box, log.accept(box.entries.map((e) => e.change), 'ann'));
    await db.clips.update(clip.id, { updatedAt: Date.now() + 1000 });
    expect((await outbox(db, projectId)).entries).toEqual([]);
  });

  it("leaves out other projects' rows and clips still being imported, and holds the checkpoint below the latter", async () => {
    const db = await pool.open();
    const { projectId, clip } = await linkedProject(db);
    const other = await linkedProject(db, 'srv-2');
    const log = new CursorLog();
    await pushRound(db, projectId, log);
    await new Painter(db, other.clip, 'ann').stroke(0, { x: 0, y: 0, w: 1, h: 1 }, 1);
    await new Painter(db, clip, 'ann').stroke(0, { x: 0, y: 0, w: 1, h: 1 }, 1);
    await db.clips.update(clip.id, { importing: { startedAt: 1, framesExpected: 4 } });
    const box = await outbox(db, projectId);
    expect(box.entries).toEqual([]);
    const firstSeq = (await db.revisions.toArray()).find((r) => r.clipId === clip.id)!.seq;
    expect(box.checkpoint.revisions).toBe(firstSeq - 1);
  });

  it("computes each revision's base: the largest cursor among the frame's earlier revisions, '0' for none", async () => {
    const db = await pool.open();
    const { projectId, clip } = await linkedProject(db);
    const p = new Painter(db, clip, 'ann');
    await p.stroke(0, { x: 0, y: 0, w: 1, h: 1 }, 1);
    await p.stroke(0, { x: 1, y: 0, w: 1, h: 1 }, 1);
    await p.stroke(1, { x: 1, y: 0, w: 1, h: 1 }, 2);
    const [r1, r2, r3] = await db.revisions.orderBy(':id').toArray();
    await db.revisions.update(r1.seq, { cursor: '9' });
    await db.revisions.update(r2.seq, { cursor: '12' });
    await p.stroke(0, { x: 2, y: 0, w: 1, h: 1 }, 1);
    const r4 = (await db.revisions.orderBy(':id').last())!;
    const bases = await revisionBases(db, [r2, r3, r4]);
    expect(bases.get(r2.seq)).toBe('9');
    expect(bases.get(r3.seq)).toBe('0');
    expect(bases.get(r4.seq)).toBe('12');
    const box = await outbox(db, projectId);
    expect(box.entries.filter((e) => e.change.kind === 'revision').map((e) => [e.change.id, e.change.base])).toEqual([
      [r3.id, '0'],
      [r4.id, '12'],
    ]);
  });

  it('keeps a refused row here, lists the refusal, never resends it, and gives accepted rows their cursor', async () => {
    const db = await pool.open();
    const { projectId, clip } = await linkedProject(db);
    const log = new CursorLog();
    await pushRound(db, projectId, log);
    const p = new Painter(db, clip, 'ann');
    await p.stroke(0, { x: 0, y: 0, w: 1, h: 1 }, 1);
    await p.stroke(0, { x: 1, y: 0, w: 1, h: 1 }, 1);
    const [first, second] = await db.revisions.orderBy(':id').toArray();
    const box = await outbox(db, projectId);
    const outcomes = log.accept(box.entries.map((e) => e.change), 'ann', (c) => (c.id === second.id ? 'the clip is submitted' : null));
    expect(await recordOutcomes(db, projectId, box, outcomes)).toEqual({ accepted: 2, refused: 1 }); // the clip (in progress now) and the first stroke
    expect((await db.revisions.get(first.seq))!.cursor).toBeDefined();
    const kept = (await db.revisions.get(second.seq))!;
    expect(kept.cursor).toBeUndefined();
    expect(kept.after).toEqual(second.after);
    expect((await readLink(db, projectId))!.refusals).toMatchObject([{ kind: 'revision', id: second.id, code: 403, error: 'the clip is submitted' }]);
    expect((await outbox(db, projectId)).entries).toEqual([]);
    expect((await readLink(db, projectId))!.pushedSeq.revisions).toBe(second.seq);
  });

  it("a client that painted 500 strokes over 10 frames offline pushes every one exactly once, in batches of at most 500, resending a batch whose answer was lost", async () => {
    const db = await pool.open();
    const project = await linkedProject(db);
    const { projectId } = project;
    // A 10-frame clip instead of the fixture's 4.
    const { commitClipImport } = await import('../store/importCommit');
    const { importDraft } = await import('../testing/storeFixtures');
    const clip: Clip = await commitClipImport(db, importDraft(projectId, 10, { layers: [] }));
    const p = new Painter(db, clip, 'ann');
    let n = 0;
    for (let i = 0; n < 500; i++) {
      const label = i % 3 === 2 ? 0 : (i % 2) + 1;
      if (await p.stroke(i % 10, { x: i % 7, y: (i >> 3) % 5, w: 1 + (i % 2), h: 1 }, label)) n++;
    }
    const ids = (await db.revisions.toArray()).filter((r) => r.clipId === clip.id).map((r) => r.id);
    expect(ids).toHaveLength(500);
    const log = new CursorLog();
    // The first batch reaches the server but its answer is lost: nothing is recorded here.
    const lost = await outbox(db, projectId);
    expect(lost.entries).toHaveLength(500);
    log.accept(lost.entries.map((e) => e.change), 'ann');
    const sent: string[] = [];
    for (let round = 0; round < 10; round++) {
      const box = await pushRound(db, projectId, log);
      if (box.entries.length === 0) break;
      expect(box.entries.length).toBeLessThanOrEqual(500);
      sent.push(...box.entries.filter((e) => e.change.kind === 'revision').map((e) => e.change.id));
    }
    expect(sent.sort()).toEqual(ids.slice().sort()); // each sent once after the lost batch
    for (const id of ids) expect(log.stored.get(id)).toBe(1); // stored once on the server's side
    const rows = (await db.revisions.toArray()).filter((r) => r.clipId === clip.id);
    expect(rows.every((r) => r.cursor !== undefined)).toBe(true);
    expect((await outbox(db, projectId)).entries).toEqual([]);
  });

  it('splits batches by body size as well as by count, and moves the checkpoint only past what was sent', async () => {
    const db = await pool.open();
    const { projectId, clip } = await linkedProject(db);
    const log = new CursorLog();
    await pushRound(db, projectId, log);
    const p = new Painter(db, clip, 'ann');
    for (let i = 0; i < 6; i++) await p.stroke(i % 4, { x: i, y: 0, w: 1, h: 6 }, 1);
    const seqs = (await db.revisions.orderBy(':id').toArray()).map((r) => r.seq);
    const all = await outbox(db, projectId);
    const size = JSON.stringify(all.entries[1].change).length; // entries[0] is the clip (now in progress)
    const box = await outbox(db, projectId, 500, JSON.stringify(all.entries[0].change).length + 2 * size + 10);
    expect(kinds(box)).toEqual(['clip', 'revision', 'revision']);
    expect(box.due).toBe(7);
    expect(box.checkpoint.revisions).toBe(seqs[2] - 1);
    const sent: string[] = [];
    for (let round = 0; round < 10; round++) {
      const link = (await readLink(db, projectId))!;
      const b = await collectOutbox(db, link, await readFingerprints(db, projectId), await readImageRefs(db, projectId), 500, size * 2 + 10);
      if (b.entries.length === 0) break;
      expect(b.entries.length).toBeLessThanOrEqual(2);
      await recordOutcomes(db, projectId, b, log.accept(b.entries.map((e) => e.change), 'ann'));
      sent.push(...b.entries.map((e) => e.change.kind));
    }
    expect(sent.filter((k) => k === 'revision')).toHaveLength(6);
  });

  it('leaves cursors out of the rows a bundle is made of', async () => {
    const db = await pool.open();
    const { projectId, clip } = await linkedProject(db);
    await new Painter(db, clip, 'ann').stroke(0, { x: 0, y: 0, w: 1, h: 1 }, 1);
    await pushRound(db, projectId, new CursorLog());
    expect((await db.revisions.toArray())[0].cursor).toBe('7');
    const rows = await db.transaction('r', db.tables, () => readClipRows(db, clip.id));
    expect(rows!.revisions[0]).not.toHaveProperty('cursor');
  });
});
