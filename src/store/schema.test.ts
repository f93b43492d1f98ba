import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { installedSchemaVersion, openSpocDb, SpocDb } from './db';
import { StoreError } from './errors';
import { layerAreas } from './layers';
import { listClipsByStatus } from './clips';
import { clipProgress } from './progress';
import { createClipObject } from './objects';
import { MIGRATION_ISSUES_KEY, SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_V7, SCHEMA_V8, SCHEMA_V9, SCHEMA_VERSION, ROW_ID_TABLES, type MigrationIssue } from './schema';
import { UUID_PATTERN } from './ids';
import { applyClipStep, listClipEvents } from './clipEvents';
import { addComment, listComments, replyToComment } from './comments';
import { listFrameVerdictHistory, listFrameVerdicts, putFrameVerdict } from './frameVerdicts';
import { listFrames } from './frames';
import { listRevisions, revisionById } from './revisions';
import { listFlagDismissals, putFlagDismissal } from './reviewFlags';
import { deleteClip } from './clips';
import { H, W, clipDraft, fakeIdb, rleWithArea } from '../testing/storeFixtures';

/**
 * A table's rows as an upgrade before v8 left them: v8 gives every log row an id (checked by its own
 * test below), which the earlier steps' "every row kept" comparisons leave out.
 */
async function rowsBeforeV8(db: SpocDb, table: string): Promise<unknown[]> {
  const rows = await db.table(table).toArray();
  if (!(ROW_ID_TABLES as readonly string[]).includes(table)) return rows;
  return rows.map(({ id, ...row }: { id: string }) => {
    expect(id).toMatch(UUID_PATTERN);
    return row;
  });
}

describe('fresh database', () => {
  it('opens at the current version with every table', async () => {
    const opts = fakeIdb();
    expect(await installedSchemaVersion('fresh', opts)).toBeNull();
    const db = await openSpocDb('fresh', opts);
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(db.tables.map((t) => t.name).sort()).toEqual(Object.keys(SCHEMA_V9).sort());
    db.close();
    expect(await installedSchemaVersion('fresh', opts)).toBe(SCHEMA_VERSION);
  });
});

describe('v1 -> v2 upgrade', () => {
  it('backfills layer areas from RLE counts, keeps other rows, and records unreadable layers', async () => {
    const opts = fakeIdb();
    // The app as it shipped v1: only the v1 schema is declared.
    const v1 = new Dexie('upgrade', opts);
    v1.version(1).stores(SCHEMA_V1);
    await v1.open();
    const clip = { ...clipDraft('p1', { frameCount: 3 }), id: 'c1', createdAt: 1, updatedAt: 1, status: 'submitted' };
    await v1.table('projects').add({ id: 'p1', name: 'P', createdAt: 1, updatedAt: 1, settings: { sampleFps: 1, thresholds: {} } });
    await v1.table('clips').add(clip);
    await v1.table('frames').bulkAdd([0, 1, 2].map((index) => ({ clipId: 'c1', index, timestampSec: index })));
    const provenance = { kind: 'manual', by: 'ann', at: 1 };
    await v1.table('layers').bulkAdd([
      // v1 rows have no actArea / trfArea.
      { clipId: 'c1', frameIndex: 0, source: 'gt', act: rleWithArea(H, W, 7), trf: rleWithArea(H, W, 2), provenance, updatedAt: 1 },
      { clipId: 'c1', frameIndex: 1, source: 'gt', act: rleWithArea(H, W, 0), trf: rleWithArea(H, W, 0), provenance, updatedAt: 1 },
      { clipId: 'c1', frameIndex: 2, source: 'gt', act: { size: [H, W], counts: 'not rle!' }, trf: rleWithArea(H, W, 1), provenance, updatedAt: 1 },
      { clipId: 'c1', frameIndex: 0, source: 'pred:sam', act: rleWithArea(H, W, 11), trf: rleWithArea(H, W, 0), provenance, updatedAt: 1 },
    ]);
    v1.close();

    const db = await openSpocDb('upgrade', opts);
    // Through v2 on to the current version.
    expect(db.verno).toBe(SCHEMA_VERSION);
    const layers = await db.layers.toArray();
    const byKey = Object.fromEntries(layers.map((l) => [`${l.source}/${l.frameIndex}`, [l.actArea, l.trfArea]]));
    expect(byKey).toEqual({ 'gt/0': [7, 2], 'gt/1': [0, 0], 'gt/2': [0, 0], 'pred:sam/0': [11, 0] });
    // The unreadable row is kept (with its original counts) and reported, not dropped.
    expect(layers.find((l) => l.frameIndex === 2 && l.source === 'gt')?.act.counts).toBe('not rle!');
    const issues = (await db.meta.get(MIGRATION_ISSUES_KEY))?.value as MigrationIssue[];
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ version: 2, table: 'layers', key: ['c1', 'gt', 2] });

    // The new indexes are populated for upgraded rows.
    expect(await layerAreas(db, 'c1', 'gt')).toEqual([
      { frameIndex: 0, actArea: 7, trfArea: 2 },
      { frameIndex: 1, actArea: 0, trfArea: 0 },
      { frameIndex: 2, actArea: 0, trfArea: 0 },
    ]);
    expect((await listClipsByStatus(db, 'p1', 'submitted')).map((c) => c.id)).toEqual(['c1']);
    expect(await clipProgress(db, 'c1')).toEqual({ annotated: 1, ignored: 0, remaining: 2, total: 3 });
    // Untouched tables come through as they were.
    expect(await db.clips.get('c1')).toEqual(clip);
    expect(await db.frames.count()).toBe(3);
    db.close();
  });
});

describe('v2 -> v3 upgrade', () => {
  it('adds the reviewFlags table and keeps every row; frames without a name still read', async () => {
    const opts = fakeIdb();
    // The app as it shipped v2: v1 and v2 declared.
    const v2 = new Dexie('upgrade3', opts);
    v2.version(1).stores(SCHEMA_V1);
    v2.version(2).stores(SCHEMA_V2);
    await v2.open();
    const clip = { ...clipDraft('p1', { frameCount: 2 }), id: 'c1', createdAt: 1, updatedAt: 1, status: 'in_review' };
    await v2.table('projects').add({ id: 'p1', name: 'P', createdAt: 1, updatedAt: 1, settings: { sampleFps: 1, thresholds: {} } });
    await v2.table('clips').add(clip);
    const frames = [0, 1].map((index) => ({ clipId: 'c1', index, timestampSec: index }));
    await v2.table('frames').bulkAdd(frames);
    const provenance = { kind: 'manual', by: 'ann', at: 1 };
    const layer = { clipId: 'c1', frameIndex: 0, source: 'gt', act: rleWithArea(H, W, 4), trf: rleWithArea(H, W, 0), provenance, updatedAt: 1, actArea: 4, trfArea: 0 };
    await v2.table('layers').add(layer);
    await v2.table('meta').put({ key: 'user.name', value: 'rev' });
    const before = Object.fromEntries(await Promise.all(v2.tables.map(async (t) => [t.name, await t.toArray()] as const)));
    v2.close();

    const db = await openSpocDb('upgrade3', opts);
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(db.tables.map((t) => t.name).sort()).toEqual(Object.keys(SCHEMA_V9).sort());
    for (const [name, rows] of Object.entries(before)) expect(await rowsBeforeV8(db, name)).toEqual(rows);
    expect(await db.reviewFlags.count()).toBe(0);
    expect((await listFrames(db, 'c1')).map((f) => f.name)).toEqual([undefined, undefined]);
    expect(await layerAreas(db, 'c1', 'gt')).toEqual([{ frameIndex: 0, actArea: 4, trfArea: 0 }]);

    // The new table works, and deleting the clip takes its dismissals along.
    await putFlagDismissal(db, { clipId: 'c1', source: 'gt', flagId: 'speck:0:abc', kind: 'speck', frameIndex: 0, reason: 'crumb', by: 'rev', at: 2 });
    expect(await listFlagDismissals(db, 'c1')).toHaveLength(1);
    await deleteClip(db, 'c1');
    expect(await db.reviewFlags.count()).toBe(0);
    db.close();
  });
});

describe('v3 -> v4 upgrade', () => {
  it('adds clipEvents and comments, keeps every row, and the new tables cascade with the clip', async () => {
    const opts = fakeIdb();
    // The app as it shipped v3.
    const v3 = new Dexie('upgrade4', opts);
    v3.version(1).stores(SCHEMA_V1);
    v3.version(2).stores(SCHEMA_V2);
    v3.version(3).stores(SCHEMA_V3);
    await v3.open();
    const clip = { ...clipDraft('p1', { frameCount: 2 }), id: 'c1', createdAt: 1, updatedAt: 1, status: 'submitted' };
    await v3.table('projects').add({ id: 'p1', name: 'P', createdAt: 1, updatedAt: 1, settings: { sampleFps: 1, thresholds: {} } });
    await v3.table('clips').add(clip);
    await v3.table('frames').bulkAdd([0, 1].map((index) => ({ clipId: 'c1', index, timestampSec: index, name: `f${index}` })));
    const provenance = { kind: 'manual', by: 'ann', at: 1 };
    await v3.table('layers').add({ clipId: 'c1', frameIndex: 0, source: 'gt', act: rleWithArea(H, W, 4), trf: rleWithArea(H, W, 0), provenance, updatedAt: 1, actArea: 4, trfArea: 0 });
    await v3.table('reviewFlags').add({ clipId: 'c1', source: 'gt', flagId: 'speck:0:abc', kind: 'speck', frameIndex: 0, reason: 'crumb', by: 'rev', at: 2 });
    await v3.table('meta').put({ key: 'user.name', value: 'rev' });
    const before = Object.fromEntries(await Promise.all(v3.tables.map(async (t) => [t.name, await t.toArray()] as const)));
    v3.close();

    const db = await openSpocDb('upgrade4', opts);
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(db.tables.map((t) => t.name).sort()).toEqual(Object.keys(SCHEMA_V9).sort());
    for (const [name, rows] of Object.entries(before)) expect(await rowsBeforeV8(db, name)).toEqual(rows);
    expect(await db.clipEvents.count()).toBe(0);
    expect(await db.comments.count()).toBe(0);

    // The new tables work on the upgraded clip ...
    await applyClipStep(db, 'c1', { action: 'start_review', by: 'rev', at: 5 }, () => ({ ok: true, to: 'in_review' }));
    expect((await db.clips.get('c1'))?.status).toBe('in_review');
    expect(await listClipEvents(db, 'c1')).toEqual([{ seq: 1, id: expect.stringMatching(UUID_PATTERN), clipId: 'c1', action: 'start_review', from: 'submitted', to: 'in_review', by: 'rev', at: 5 }]);
    const c = await addComment(db, { clipId: 'c1', frameIndex: 1, x: 2, y: 3, author: 'rev', text: 'here' });
    await replyToComment(db, c.id, { author: 'ann', text: 'ok' });
    expect(await listComments(db, 'c1')).toHaveLength(2);
    // ... and deleting the clip takes them along.
    await deleteClip(db, 'c1');
    expect(await db.clipEvents.count()).toBe(0);
    expect(await db.comments.count()).toBe(0);
    db.close();
  });
});

describe('v4 -> v5 upgrade', () => {
  it('adds frameVerdicts, keeps every row, and the new table cascades with the clip', async () => {
    const opts = fakeIdb();
    // The app as it shipped v4.
    const v4 = new Dexie('upgrade5', opts);
    v4.version(1).stores(SCHEMA_V1);
    v4.version(2).stores(SCHEMA_V2);
    v4.version(3).stores(SCHEMA_V3);
    v4.version(4).stores(SCHEMA_V4);
    await v4.open();
    const clip = { ...clipDraft('p1', { frameCount: 3 }), id: 'c1', createdAt: 1, updatedAt: 1, status: 'in_review', assignee: 'ann' };
    await v4.table('projects').add({ id: 'p1', name: 'P', createdAt: 1, updatedAt: 1, settings: { sampleFps: 1, thresholds: {} } });
    await v4.table('clips').add(clip);
    await v4.table('frames').bulkAdd([0, 1, 2].map((index) => ({ clipId: 'c1', index, timestampSec: index })));
    const provenance = { kind: 'manual', by: 'ann', at: 1 };
    await v4.table('layers').add({ clipId: 'c1', frameIndex: 0, source: 'gt', act: rleWithArea(H, W, 4), trf: rleWithArea(H, W, 0), provenance, updatedAt: 1, actArea: 4, trfArea: 0 });
    await v4.table('clipEvents').bulkAdd([
      { clipId: 'c1', action: 'submit', from: 'in_progress', to: 'submitted', by: 'ann', at: 2 },
      { clipId: 'c1', action: 'start_review', from: 'submitted', to: 'in_review', by: 'rev', at: 3 },
    ]);
    await v4.table('comments').add({ id: 'k1', clipId: 'c1', frameIndex: 1, x: 1, y: 1, author: 'rev', at: 4, text: 'here', resolved: false });
    const before = Object.fromEntries(await Promise.all(v4.tables.map(async (t) => [t.name, await t.toArray()] as const)));
    v4.close();

    const db = await openSpocDb('upgrade5', opts);
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(db.tables.map((t) => t.name).sort()).toEqual(Object.keys(SCHEMA_V9).sort());
    for (const [name, rows] of Object.entries(before)) expect(await rowsBeforeV8(db, name)).toEqual(rows);
    expect(await db.frameVerdicts.count()).toBe(0);

    // The new table works on the upgraded clip ...
    await putFrameVerdict(db, { clipId: 'c1', frameIndex: 2, verdict: 'reject', note: 'hole', by: 'rev', at: 5 });
    await putFrameVerdict(db, { clipId: 'c1', frameIndex: 2, verdict: 'accept', by: 'rev', at: 6 });
    expect((await listFrameVerdicts(db, 'c1')).get(2)).toMatchObject({ verdict: 'accept', by: 'rev', at: 6 });
    expect(await listFrameVerdictHistory(db, 'c1')).toHaveLength(2);
    // ... and deleting the clip takes it along.
    await deleteClip(db, 'c1');
    expect(await db.frameVerdicts.count()).toBe(0);
    db.close();
  });
});

describe('v5 -> v6 upgrade', () => {
  it('adds journalMarks, keeps every row, and the first change after the upgrade is number 1', async () => {
    const opts = fakeIdb();
    const v5 = new Dexie('upgrade6', opts);
    v5.version(1).stores(SCHEMA_V1);
    v5.version(2).stores(SCHEMA_V2);
    v5.version(3).stores(SCHEMA_V3);
    v5.version(4).stores(SCHEMA_V4);
    v5.version(5).stores(SCHEMA_V5);
    await v5.open();
    await v5.table('projects').add({ id: 'p1', name: 'P', createdAt: 1, updatedAt: 1, settings: { sampleFps: 1, thresholds: {} } });
    await v5.table('frameVerdicts').add({ clipId: 'c1', frameIndex: 0, verdict: 'accept', by: 'rev', at: 5 });
    await v5.table('meta').add({ key: 'user.name', value: 'ann' });
    const before = Object.fromEntries(await Promise.all(v5.tables.map(async (t) => [t.name, await t.toArray()] as const)));
    v5.close();

    const db = await openSpocDb('upgrade6', opts);
    expect(db.verno).toBe(SCHEMA_VERSION);
    for (const [name, rows] of Object.entries(before)) expect(await rowsBeforeV8(db, name)).toEqual(rows);
    expect(await db.journalMarks.count()).toBe(0);
    db.close();
  });
});

describe('v6 -> v7 upgrade', () => {
  it('adds gestureDrafts, keeps every row, and the change number goes on where it was', async () => {
    const opts = fakeIdb();
    const v6 = new Dexie('upgrade7', opts);
    v6.version(1).stores(SCHEMA_V1);
    v6.version(2).stores(SCHEMA_V2);
    v6.version(3).stores(SCHEMA_V3);
    v6.version(4).stores(SCHEMA_V4);
    v6.version(5).stores(SCHEMA_V5);
    v6.version(6).stores(SCHEMA_V6);
    await v6.open();
    await v6.table('projects').add({ id: 'p1', name: 'P', createdAt: 1, updatedAt: 1, settings: { sampleFps: 1, thresholds: {} } });
    await v6.table('journalMarks').add({ at: 3 });
    await v6.table('journalMarks').add({ at: 4 });
    const before = Object.fromEntries(await Promise.all(v6.tables.map(async (t) => [t.name, await t.toArray()] as const)));
    v6.close();

    const db = await openSpocDb('upgrade7', opts);
    expect(db.verno).toBe(SCHEMA_VERSION);
    for (const [name, rows] of Object.entries(before)) expect(await rowsBeforeV8(db, name)).toEqual(rows);
    expect(await db.gestureDrafts.count()).toBe(0);
    expect(await db.journalMarks.toCollection().lastKey()).toBe(2);
    db.close();
  });
});

describe('v7 -> v8 upgrade', () => {
  it('gives every revision, clip event and frame verdict a unique UUIDv7 id in seq order, keeps every other field, and records rows it had to re-id', async () => {
    const opts = fakeIdb();
    const v7 = new Dexie('upgrade8', opts);
    for (const [n, schema] of [SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_V7].entries()) v7.version(n + 1).stores(schema);
    await v7.open();
    // Rows as the v7 repositories wrote them: no id, seq from the auto-increment, two clips interleaved.
    const clip = (id: string) => ({ ...clipDraft('p1', { frameCount: 2 }), id, createdAt: 1, updatedAt: 1, status: 'in_review' });
    await v7.table('projects').add({ id: 'p1', name: 'P', createdAt: 1, updatedAt: 1, settings: { sampleFps: 1, thresholds: {} } });
    await v7.table('clips').bulkAdd([clip('c1'), clip('c2')]);
    const box = { x: 0, y: 0, w: 2, h: 1 };
    const revision = (clipId: string, at: number) => ({ clipId, frameIndex: 0, source: 'gt', author: 'ann', at, action: 'brush', box, before: rleWithArea(1, 2, 0), after: rleWithArea(1, 2, 2) });
    for (let i = 0; i < 6; i++) await v7.table('revisions').add(revision(i % 2 ? 'c2' : 'c1', 10 + i));
    await v7.table('clipEvents').bulkAdd([
      { clipId: 'c1', action: 'submit', from: 'in_progress', to: 'submitted', by: 'ann', at: 20 },
      { clipId: 'c2', action: 'submit', from: 'in_progress', to: 'submitted', by: 'ann', at: 21, note: 'done' },
      { clipId: 'c1', action: 'start_review', from: 'submitted', to: 'in_review', by: 'rev', at: 22 },
    ]);
    await v7.table('frameVerdicts').bulkAdd([
      { clipId: 'c1', frameIndex: 0, verdict: 'reject', note: 'hole', by: 'rev', at: 30 },
      // Something other than the v7 app left an id field here: it is replaced, and said so.
      { clipId: 'c1', frameIndex: 1, verdict: 'accept', by: 'rev', at: 31, id: 'junk' },
    ]);
    await v7.table('meta').put({ key: MIGRATION_ISSUES_KEY, value: [{ version: 2, table: 'layers', key: ['c1', 'gt', 0], problem: 'old' }] });
    const before = Object.fromEntries(await Promise.all(v7.tables.map(async (t) => [t.name, await t.toArray()] as const)));
    v7.close();

    const db = await openSpocDb('upgrade8', opts);
    expect(db.verno).toBe(SCHEMA_VERSION);
    const ids: string[] = [];
    for (const table of ROW_ID_TABLES) {
      const rows = (await db.table(table).toArray()) as { seq: number; id: string }[];
      expect(rows.map((r) => r.seq)).toEqual(before[table].map((r) => (r as { seq: number }).seq));
      // Every field as it was, plus the id.
      expect(rows.map(({ id: _id, ...rest }) => rest)).toEqual(before[table].map((r) => (table === 'frameVerdicts' ? { ...(r as object), id: undefined } : r)).map((r) => JSON.parse(JSON.stringify(r))));
      for (const r of rows) expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // Made in seq order: sorted by id, the rows are in seq order.
      expect([...rows].sort((a, b) => (a.id < b.id ? -1 : 1)).map((r) => r.seq)).toEqual(rows.map((r) => r.seq));
      ids.push(...rows.map((r) => r.id));
    }
    expect(new Set(ids).size).toBe(6 + 3 + 2);
    const verdicts = await db.frameVerdicts.toArray();
    expect(verdicts[1].id).not.toBe('junk');
    const issues = (await db.meta.get(MIGRATION_ISSUES_KEY))?.value as MigrationIssue[];
    expect(issues).toEqual([
      { version: 2, table: 'layers', key: ['c1', 'gt', 0], problem: 'old' },
      { version: 8, table: 'frameVerdicts', key: 2, problem: 'had an id field ("junk") before ids existed; replaced by a new id' },
    ]);
    // Untouched tables come through as they were.
    for (const name of ['projects', 'clips', 'layers', 'comments']) expect(await db.table(name).toArray()).toEqual(before[name]);

    // The ids are indexed and unique: a row is found by its id, and no second row may take one.
    const first = (await db.revisions.get(1))!;
    expect((await revisionById(db, first.id))?.seq).toBe(1);
    await expect(db.revisions.add({ ...revision('c1', 99), id: first.id } as never)).rejects.toThrow(/ConstraintError|unique/i);
    // Rows written after the upgrade get ids too, later than the migrated ones.
    await putFrameVerdict(db, { clipId: 'c2', frameIndex: 0, verdict: 'accept', by: 'rev', at: 40 });
    const latest = (await listFrameVerdictHistory(db, 'c2'))[0];
    expect(latest.id > verdicts[1].id).toBe(true);
    expect((await listRevisions(db, 'c1', 'gt', 0)).map((r) => r.at)).toEqual([10, 12, 14]);
    db.close();
  });
});

describe('v8 -> v9 upgrade', () => {
  it('adds the objects table, keeps every row as it was, and a clip deleted afterwards takes its objects along', async () => {
    const opts = fakeIdb();
    const v8 = new Dexie('upgrade9', opts);
    for (const [n, schema] of [SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_V7, SCHEMA_V8].entries()) v8.version(n + 1).stores(schema);
    await v8.open();
    const clip = { ...clipDraft('p1', { frameCount: 3 }), id: 'c1', createdAt: 1, updatedAt: 1, status: 'in_progress' };
    await v8.table('projects').add({ id: 'p1', name: 'P', createdAt: 1, updatedAt: 1, settings: { sampleFps: 1, thresholds: {} } });
    await v8.table('clips').add(clip);
    const provenance = { kind: 'manual', by: 'ann', at: 1 };
    await v8.table('layers').add({ clipId: 'c1', frameIndex: 0, source: 'gt', act: rleWithArea(H, W, 4), trf: rleWithArea(H, W, 0), instances: { tags: [{ id: 1, x: 0, y: 0 }] }, provenance, updatedAt: 1, actArea: 4, trfArea: 0 });
    const before = Object.fromEntries(await Promise.all(v8.tables.map(async (t) => [t.name, await t.toArray()] as const)));
    v8.close();

    const db = await openSpocDb('upgrade9', opts);
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(db.tables.map((t) => t.name).sort()).toEqual(Object.keys(SCHEMA_V9).sort());
    for (const [name, rows] of Object.entries(before)) expect(await db.table(name).toArray()).toEqual(rows);
    // A project made before schemas is a SPOC project, and its clips take objects.
    const made = await createClipObject(db, { clipId: 'c1', by: 'ann' });
    expect(made).toMatchObject({ clipId: 'c1', number: 1, name: 'object 1', createdBy: 'ann' });
    expect(await db.objects.where('clipId').equals('c1').count()).toBe(1);
    await deleteClip(db, 'c1');
    expect(await db.objects.count()).toBe(0);
    db.close();
  });
});

describe('newer schema', () => {
  it('refuses, with a clear message, a database written by a newer app, and leaves it unchanged', async () => {
    const opts = fakeIdb();
    const future = new Dexie('future', opts);
    future.version(SCHEMA_VERSION + 1).stores({ ...SCHEMA_V9, reviews: 'id, clipId' });
    await future.open();
    await future.table('reviews').add({ id: 'r1', clipId: 'c1' });
    future.close();

    const err = await openSpocDb('future', opts).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('newer_schema');
    expect((err as StoreError).message).toContain(`newer version of the app (schema v${SCHEMA_VERSION + 1}; this version reads up to v${SCHEMA_VERSION})`);
    expect((err as StoreError).message).toMatch(/Nothing was opened or changed/);

    const again = new Dexie('future', opts);
    await again.open();
    // Native 10n = Dexie version n, not patched (Dexie would have made it 10n + 1 had SpocDb opened it).
    expect(again.backendDB().version).toBe((SCHEMA_VERSION + 1) * 10);
    expect(again.tables.map((t) => t.name)).toContain('reviews');
    expect(await again.table('reviews').count()).toBe(1);
    again.close();
  });

  it('SpocDb declares every version from 1 up to SCHEMA_VERSION', () => {
    const db = new SpocDb('decl', fakeIdb());
    expect(db.verno).toBe(SCHEMA_VERSION);
  });
});
