/**
 * Every log row (revision, clip event, frame verdict) has a unique time-ordered id from the moment
 * it is written, whoever writes it, and keeps it through the crash journal (docs/sync.md "Row identity").
 */
import { describe, expect, it } from 'vitest';
import { applyClipStep } from './clipEvents';
import { putFrameVerdict } from './frameVerdicts';
import { commitClipImport } from './importCommit';
import { saveFrameEdits, saveLayerEdit } from './layers';
import { createProject } from './projects';
import { appendRevision, listClipRevisions, revisionById } from './revisions';
import { ROW_ID_TABLES } from './schema';
import type { SpocDb } from './db';
import type { RevisionInput } from './types';
import { H, W, fakeIdb, freshDb, importDraft, rleWithArea, snapshot, storeRejection } from '../testing/storeFixtures';
import { MemoryFiles, openJournaledDb, restoreFromJournal } from './journal';
import { TX_DIR, txName } from './journal/journal';
import { decodeRecord, encodeRecord } from './journal/recordFormat';
import { applyOps } from './journal/replay';
import { checkStore } from './journal/check';
import { compact } from './journal/compact';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function revision(clipId: string, frameIndex: number, at: number, area = 3): RevisionInput {
  return { clipId, frameIndex, source: 'gt', author: 'ann', at, action: 'brush', box: { x: 0, y: 0, w: W, h: H }, before: rleWithArea(H, W, 0), after: rleWithArea(H, W, area) };
}

const layer = (clipId: string, frameIndex: number, at: number) => ({ clipId, frameIndex, source: 'gt' as const, act: rleWithArea(H, W, 3), trf: rleWithArea(H, W, 0), provenance: { kind: 'manual' as const, by: 'ann', at } });

/** Writes a row of each log through every repository path that appends one. */
async function writeEveryKind(db: SpocDb) {
  const project = await createProject(db, { name: 'ids' });
  const clip = await commitClipImport(db, importDraft(project.id, 3));
  const edit = await saveLayerEdit(db, { layer: layer(clip.id, 0, 1), revision: revision(clip.id, 0, 1) });
  await saveFrameEdits(db, [{ layer: layer(clip.id, 1, 2), revisions: [revision(clip.id, 1, 2), revision(clip.id, 1, 3, 5)] }]);
  await saveFrameEdits(db, [{ layer: layer(clip.id, 2, 4), revisions: [revision(clip.id, 2, 4)] }], { clip });
  const note = await appendRevision(db, revision(clip.id, 2, 5, 6));
  const step = await applyClipStep(db, clip.id, { action: 'submit', by: 'ann' }, () => ({ ok: true, to: 'submitted' }));
  const verdict = await putFrameVerdict(db, { clipId: clip.id, frameIndex: 0, verdict: 'accept', by: 'rev' });
  return { clip, edit, note, step, verdict };
}

async function logRows(db: SpocDb): Promise<{ seq: number; id: string }[][]> {
  return Promise.all(ROW_ID_TABLES.map((t) => db.table(t).toArray()));
}

describe('log row ids', () => {
  it('every repository path gives each new row a unique UUIDv7, returned to the caller and in seq order', async () => {
    const db = await freshDb();
    const { clip, edit, note, step, verdict } = await writeEveryKind(db);
    const [revisions, events, verdicts] = await logRows(db);
    expect(revisions).toHaveLength(5);
    for (const rows of [revisions, events, verdicts]) {
      for (const r of rows) expect(r.id).toMatch(V7);
      // Made one after another in this page: the ids sort as the seqs do.
      expect(rows.map((r) => r.id)).toEqual(rows.map((r) => r.id).sort());
    }
    expect(new Set(revisions.map((r) => r.id)).size).toBe(5);
    expect(edit.revision.id).toBe(revisions[0].id);
    expect(note.id).toBe(revisions[4].id);
    expect(step.event.id).toBe(events[0].id);
    expect(verdict.id).toBe(verdicts[0].id);
    expect(await revisionById(db, note.id)).toEqual(note);
    expect(await revisionById(db, 'no-such-id')).toBeUndefined();
    expect((await listClipRevisions(db, clip.id)).map((r) => r.id)).toEqual(revisions.map((r) => r.id));
    db.close();
  });

  it('keeps an id the writer gives, refuses one that is not a canonical UUID, and never stores one id twice', async () => {
    const db = await freshDb();
    const { clip, edit } = await writeEveryKind(db);
    const given = '0190f0a1-2b3c-7d4e-8f50-6a7b8c9d0e1f';
    expect((await appendRevision(db, { ...revision(clip.id, 0, 9), id: given })).id).toBe(given);
    const before = await snapshot(db);
    const upper = await storeRejection(appendRevision(db, { ...revision(clip.id, 0, 10), id: given.toUpperCase() }));
    expect(upper.message).toMatch(/id is "0190F0A1-[^"]+", not a UUID in canonical form/);
    expect((await storeRejection(appendRevision(db, { ...revision(clip.id, 0, 10), id: 'r1' }))).code).toBe('invalid');
    // The unique index: a second row with a taken id fails, and nothing of its transaction lands.
    await expect(saveFrameEdits(db, [{ layer: layer(clip.id, 0, 11), revisions: [{ ...revision(clip.id, 0, 11), id: edit.revision.id }] }])).rejects.toThrow();
    expect(await snapshot(db)).toEqual(before);
    db.close();
  });
});

/** A journaled store with every kind of log row, then closed (lost): its journal files and rows. */
async function workedOnThenLost(name: string) {
  const files = new MemoryFiles();
  const { db, journal } = await openJournaledDb(files, name, fakeIdb());
  await writeEveryKind(db);
  await journal.whenWritten();
  const written = await logRows(db);
  db.close();
  return { files, journal, written };
}

describe('log row ids through the crash journal', () => {
  it('a store rebuilt from the journal holds every row under the id it had', async () => {
    const { files, written: expected } = await workedOnThenLost('ids-journal');

    // The database is lost; the journal files remain.
    const second = await openJournaledDb(files, 'ids-journal', fakeIdb());
    await restoreFromJournal(second.db, second.journal, { mode: 'scratch' });
    expect(await logRows(second.db)).toEqual(expected);
    second.db.close();
  });

  it('a journal compacted under an older schema is due a full compaction at the next start, which snapshots the ids', async () => {
    const files = new MemoryFiles();
    const { db, journal } = await openJournaledDb(files, 'ids-compaction', fakeIdb());
    await writeEveryKind(db);
    await compact(db, journal);
    expect(await checkStore(db, journal)).toMatchObject({ kind: 'healthy', journalBehind: false });
    // As the v7 app left it: the manifest says schema 7.
    await journal.writeManifest({ ...(await journal.manifest())!, schema: 7 });
    expect(await checkStore(db, journal)).toMatchObject({ kind: 'healthy', journalBehind: true });
    await compact(db, journal);
    expect(await checkStore(db, journal)).toMatchObject({ kind: 'healthy', journalBehind: false });
    db.close();
  });

  it('records written before rows had ids restore with new ids (unique, in order); a row the store holds keeps its own', async () => {
    const { files, journal, written } = await workedOnThenLost('ids-old-journal');
    // Rewrite every record as the v7 app wrote it: log rows without ids.
    for (const seq of await journal.txSeqs()) {
      const record = await decodeRecord((await files.read(TX_DIR, txName(seq)))!);
      for (const op of record.ops) if (op.type === 'put' && (ROW_ID_TABLES as readonly string[]).includes(op.table)) for (const v of op.values) delete (v as { id?: string }).id;
      await files.write(TX_DIR, txName(seq), await encodeRecord({ ...record, schema: 7 }));
    }

    const second = await openJournaledDb(files, 'ids-old-journal', fakeIdb());
    await restoreFromJournal(second.db, second.journal, { mode: 'scratch' });
    const restored = await logRows(second.db);
    const withoutIds = (tables: { id: string }[][]) => tables.map((rows) => rows.map(({ id: _id, ...rest }) => rest));
    expect(withoutIds(restored)).toEqual(withoutIds(written));
    for (const rows of restored) {
      for (const r of rows) expect(r.id).toMatch(V7);
      expect(rows.map((r) => r.id)).toEqual(rows.map((r) => r.id).sort());
    }
    expect(new Set(restored.flat().map((r) => r.id)).size).toBe(restored.flat().length);

    // Replaying an old record over a row the store already has keeps that row's id.
    const held = restored[0][0];
    const { id: _id, ...old } = held;
    second.journal.replaying = true;
    await applyOps(second.db, [{ table: 'revisions', type: 'put', values: [old] }]);
    second.journal.replaying = false;
    expect((await second.db.revisions.get(held.seq))?.id).toBe(held.id);
    second.db.close();
  });
});
