import { describe, expect, it } from 'vitest';
import { addComment } from '../comments';
import { applyClipStep } from '../clipEvents';
import { deleteClip } from '../clips';
import { setFrameIgnored } from '../frames';
import { putFrameVerdict } from '../frameVerdicts';
import { commitClipImport } from '../importCommit';
import { saveFrameEdits } from '../layers';
import { setMeta } from '../meta';
import { createProject, deleteProject } from '../projects';
import { SCHEMA_V8 as SCHEMA_VERSION_TABLES } from '../schema';
import { UNJOURNALED_TABLES } from './capture';
import { fakeIdb, H, importDraft, rleWithArea, snapshot, W } from '../../testing/storeFixtures';
import type { SpocDb } from '../db';
import { checkStore } from './check';
import { compact, contiguousEnd, discardJournal, setStoreSeq, storeSeq } from './compact';
import { openJournaledDb, MemoryFiles, type Journal } from './index';
import { TX_DIR, SNAP_DIR, txName } from './journal';
import { CLIP_ROW_TABLES } from './owners';
import { restoreFromJournal } from './replay';

/** Opens a store on its own fake IndexedDB with a journal in `files`. */
async function open(files = new MemoryFiles()) {
  const { db, journal } = await openJournaledDb(files, 'journal-test', fakeIdb());
  return { db, journal, files };
}

/** A store worked on, then lost: the second store opens on a fresh IndexedDB with the same journal files. */
async function workedOnThenLost() {
  const files = new MemoryFiles();
  const first = await open(files);
  await workOn(first.db, first.journal);
  const highest = (await first.journal.txSeqs()).at(-1)!;
  const expected = await rows(first.db);
  first.db.close();
  return { files, highest, expected, second: await open(files) };
}

/** Every row; of the journal mark only its change number (a rebuild writes it anew). */
async function rows(db: SpocDb) {
  const all = await snapshot(db);
  all.journalMarks = all.journalMarks.map((r) => (r as { seq: number }).seq);
  return all;
}

async function paint(db: SpocDb, clipId: string, frameIndex: number, area: number, at: number) {
  const rle = rleWithArea(H, W, area);
  await saveFrameEdits(db, [
    {
      layer: { clipId, frameIndex, source: 'gt', act: rle, trf: rleWithArea(H, W, 0), provenance: { kind: 'manual', by: 'ann', at } },
      revisions: [
        {
          clipId,
          frameIndex,
          source: 'gt',
          author: 'ann',
          at,
          action: 'brush',
          box: { x: 0, y: 0, w: W, h: H },
          before: rleWithArea(H, W, 0),
          after: rle,
        },
      ],
    },
  ]);
}

/** A project with two clips and every kind of row: layers, revisions, events, comments, verdicts, ignores, settings. */
async function workOn(db: SpocDb, journal: Journal) {
  const project = await createProject(db, { name: 'grating' });
  const a = await commitClipImport(db, importDraft(project.id, 4));
  const b = await commitClipImport(db, { ...importDraft(project.id, 3), clip: { ...importDraft(project.id, 3).clip, name: 'second' } });
  await paint(db, a.id, 2, 7, 10);
  await paint(db, a.id, 2, 9, 11);
  await setFrameIgnored(db, a.id, 3, { reason: 'too_blurry', by: 'ann' });
  await addComment(db, { clipId: a.id, frameIndex: 1, x: 2, y: 3, author: 'rev', text: 'edge?' });
  await applyClipStep(db, a.id, { action: 'submit', by: 'ann' }, () => ({ ok: true, to: 'submitted' }));
  await putFrameVerdict(db, { clipId: a.id, frameIndex: 0, verdict: 'accept', by: 'rev' });
  await setMeta(db, 'user.name', 'ann');
  await journal.whenWritten();
  return { project, a, b };
}

describe('crash journal', () => {
  it('numbers every committed change without gaps and writes one record per transaction', async () => {
    const { db, journal } = await open();
    await workOn(db, journal);
    const seqs = await journal.txSeqs();
    expect(seqs.length).toBeGreaterThan(5);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(await storeSeq(db)).toBe(seqs.at(-1));
    expect(await db.journalMarks.count()).toBe(1);
  });

  it('an aborted transaction leaves neither a record nor a change number', async () => {
    const { db, journal } = await open();
    const project = await createProject(db, { name: 'p' });
    await journal.whenWritten();
    const before = await journal.txSeqs();
    await expect(
      db.transaction('rw', db.projects, async () => {
        await db.projects.put({ ...project, name: 'changed' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await journal.whenWritten();
    expect(await journal.txSeqs()).toEqual(before);
    expect(await storeSeq(db)).toBe(before.at(-1));
  });

  it('rebuilds a lost store row for row from the records alone', async () => {
    // The database is gone (a fresh IndexedDB); the journal files remain.
    const { expected, second } = await workedOnThenLost();
    const verdict = await checkStore(second.db, second.journal);
    expect(verdict).toMatchObject({ kind: 'store-behind', storeSeq: 0, mode: 'scratch' });
    await restoreFromJournal(second.db, second.journal, { mode: 'scratch' });
    expect(await rows(second.db)).toEqual(expected);
    const after = await checkStore(second.db, second.journal);
    expect(after).toMatchObject({ kind: 'healthy' });
    expect(after.storeSeq).toBe(after.journalSeq);
  });

  it('rebuilds from snapshots plus later records after a compaction, including deletes', async () => {
    const files = new MemoryFiles();
    const first = await open(files);
    const { project, a, b } = await workOn(first.db, first.journal);
    const result = await compact(first.db, first.journal);
    expect(result.recordsRemoved).toBeGreaterThan(0);
    expect(await first.journal.txSeqs()).toEqual([]);
    // After the compaction: more painting, a deleted clip, a second project deleted again.
    await paint(first.db, a.id, 0, 3, 20);
    await deleteClip(first.db, b.id);
    const other = await createProject(first.db, { name: 'tmp' });
    await deleteProject(first.db, other.id);
    await first.journal.whenWritten();
    const expected = await rows(first.db);
    expect(expected.clips.map((c) => (c as { id: string }).id)).toEqual([a.id]);
    expect(expected.projects.map((p) => (p as { id: string }).id)).toEqual([project.id]);
    first.db.close();

    const second = await open(files);
    const verdict = await checkStore(second.db, second.journal);
    expect(verdict).toMatchObject({ kind: 'store-behind', mode: 'scratch', projects: 1, clips: 2 });
    await restoreFromJournal(second.db, second.journal, { mode: 'scratch' });
    expect(await rows(second.db)).toEqual(expected);
  });

  it('a second compaction rewrites only the clip that changed, and drops a deleted clip’s snapshot', async () => {
    const files = new MemoryFiles();
    const { db, journal } = await open(files);
    const { a, b } = await workOn(db, journal);
    await compact(db, journal);
    await paint(db, a.id, 1, 4, 30);
    await journal.whenWritten();
    const c1 = await compact(db, journal);
    expect(c1.snapshotsWritten).toBe(1 + 1); // the clip, and its project (touchClip bumps updatedAt)
    await deleteClip(db, b.id);
    await journal.whenWritten();
    await compact(db, journal);
    expect(await files.list(SNAP_DIR)).not.toContain(`clip-${b.id}.rec`);
  });

  it('replays only the missing tail when the store is behind but not lost', async () => {
    const files = new MemoryFiles();
    const { db, journal } = await open(files);
    const { a } = await workOn(db, journal);
    await compact(db, journal);
    const seqBefore = await storeSeq(db);
    await paint(db, a.id, 0, 5, 40);
    await journal.whenWritten();
    const expected = await rows(db);
    // Roll the store back to before the last change by hand: the journal is ahead.
    journal.replaying = true;
    await db.layers.delete([a.id, 'gt', 0]);
    await db.revisions.where('at').equals(40).delete();
    await setStoreSeq(db, seqBefore);
    const clip = expected.clips.find((c) => (c as { id: string }).id === a.id) as { updatedAt: number };
    journal.replaying = false;
    const verdict = await checkStore(db, journal);
    expect(verdict).toMatchObject({ kind: 'store-behind', mode: 'tail', storeSeq: seqBefore });
    const r = await restoreFromJournal(db, journal, { mode: 'tail', fromSeq: seqBefore });
    expect(r.records).toBe(1);
    expect(await rows(db)).toEqual(expected);
    expect(clip.updatedAt).toBeGreaterThan(0);
  });

  it('after a lost store, every write is refused until the person restores (nothing is numbered meanwhile)', async () => {
    const { highest, second } = await workedOnThenLost();
    await checkStore(second.db, second.journal);
    await expect(createProject(second.db, { name: 'too early' })).rejects.toThrow(/nothing can be saved until you restore/);
    expect(await second.journal.txSeqs()).toHaveLength(highest);
    await restoreFromJournal(second.db, second.journal, { mode: 'scratch' });
    await createProject(second.db, { name: 'after the restore' });
    await second.journal.whenWritten();
    expect((await second.journal.txSeqs()).at(-1)).toBe(highest + 1);
  });

  it('skips a record cut short by a crash and names it', async () => {
    const files = new MemoryFiles();
    const first = await open(files);
    await workOn(first.db, first.journal);
    const seqs = await first.journal.txSeqs();
    const last = seqs.at(-1)!;
    const whole = await files.read(TX_DIR, txName(last));
    await files.write(TX_DIR, txName(last), whole!.slice(0, whole!.size - 10));
    first.db.close();
    const second = await open(files);
    const r = await restoreFromJournal(second.db, second.journal, { mode: 'scratch' });
    expect(r.skipped).toEqual([`change ${last}`]);
    expect(await second.db.projects.count()).toBe(1);
  });

  it('a failed append is reported, and a compaction covers it again', async () => {
    const files = new MemoryFiles();
    const { db, journal } = await open(files);
    const { a } = await workOn(db, journal);
    await compact(db, journal);
    files.failWrites = new Error('disk full');
    await paint(db, a.id, 0, 6, 50);
    await journal.whenWritten();
    expect(journal.status).toMatchObject({ error: 'disk full', missed: 1 });
    files.failWrites = null;
    await compact(db, journal);
    expect(journal.status).toMatchObject({ error: null, missed: 0 });
    const expected = await rows(db);
    db.close();
    const second = await open(files);
    await restoreFromJournal(second.db, second.journal, { mode: 'scratch' });
    expect(await rows(second.db)).toEqual(expected);
  });

  it('compacts only up to a missing change number (an append still in flight elsewhere)', () => {
    expect(contiguousEnd(10, [11, 12, 14, 15])).toBe(12);
    expect(contiguousEnd(10, [9, 10, 11])).toBe(11);
    expect(contiguousEnd(10, [])).toBe(10);
  });

  it('starting without restoring discards the journal and keeps numbering after it', async () => {
    const { highest, second } = await workedOnThenLost();
    expect(await checkStore(second.db, second.journal)).toMatchObject({ kind: 'store-behind' });
    await discardJournal(second.db, second.journal);
    expect(await checkStore(second.db, second.journal)).toMatchObject({ kind: 'healthy' });
    await createProject(second.db, { name: 'new' });
    await second.journal.whenWritten();
    expect(await second.journal.txSeqs()).toEqual([highest + 1]);
  });

  it('every table of the schema has an owner in the journal, or is deliberately left out of it', () => {
    const owned = new Set(['projects', 'clips', 'meta', 'journalMarks', ...UNJOURNALED_TABLES, ...Object.keys(CLIP_ROW_TABLES)]);
    expect(Object.keys(SCHEMA_VERSION_TABLES).filter((t) => !owned.has(t))).toEqual([]);
  });
});
