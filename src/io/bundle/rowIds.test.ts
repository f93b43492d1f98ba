/**
 * Bundles and the ids of log rows (format v4, docs/sync.md "Row identity"): a clip that moves to
 * another browser keeps its rows' ids; a copy gets new ones; older bundles get new ones on reading;
 * and no import ever stores one id twice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { putFrameVerdict } from '../../store/frameVerdicts';
import { createProject } from '../../store/projects';
import { ROW_ID_TABLES } from '../../store/schema';
import { snapshot, storePool } from '../../testing/storeFixtures';
import { asFormat, editJson, exportToBlob, paint, rebuild, seedProject, withoutObjects, withoutRowIds, type SeededProject } from '../../testing/bundleProject';
import { ImportError } from '../importError';
import { importBundle } from './importBundle';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const NAME = 'ids.spoc.zip';
const file = (b: Blob) => new File([b], NAME);

const stores = storePool();
const db = stores.open;
let a: SpocDb;
let seeded: SeededProject;
let bundle: Blob;

beforeEach(async () => {
  a = await db();
  seeded = await seedProject(a);
  await putFrameVerdict(a, { clipId: seeded.clips[0].id, frameIndex: 1, verdict: 'reject', note: 'hole', by: 'rev', at: 500 });
  bundle = (await exportToBlob(a, seeded.project.id)).blob;
});
afterEach(stores.closeAll);

/** Every log row's id and clip, table by table, in seq order. */
async function logIds(d: SpocDb): Promise<Record<string, { id: string; clipId: string }[]>> {
  const out: Record<string, { id: string; clipId: string }[]> = {};
  for (const t of ROW_ID_TABLES) out[t] = ((await d.table(t).toArray()) as { id: string; clipId: string }[]).map(({ id, clipId }) => ({ id, clipId }));
  return out;
}

function expectAllUnique(ids: Record<string, { id: string }[]>): void {
  for (const rows of Object.values(ids)) expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
}

describe('log row ids in bundles', () => {
  it('a round trip into another store keeps every id; importing it again adds nothing', async () => {
    const b = await db();
    await importBundle(b, file(bundle));
    const ids = await logIds(a);
    expect(ids.revisions.length + ids.clipEvents.length + ids.frameVerdicts.length).toBeGreaterThan(5);
    expect(await logIds(b)).toEqual(ids);
    const before = await snapshot(b);
    const again = await importBundle(b, file(bundle));
    expect(again.clips.map((c) => c.outcome)).toEqual(['identical', 'identical']);
    expect(await snapshot(b)).toEqual(before);
  });

  it('the same bundle imported into a second project here is a copy: its rows get new ids, none stored twice', async () => {
    const other = await createProject(a, { name: 'second' });
    const result = await importBundle(a, file(bundle), { projectId: other.id });
    expect(result.clips.map((c) => c.outcome)).toEqual(['added-copy', 'added-copy']);
    const ids = await logIds(a);
    expectAllUnique(ids);
    const copies = new Set(result.clips.map((c) => c.id));
    for (const rows of Object.values(ids)) {
      const copied = rows.filter((r) => copies.has(r.clipId));
      expect(copied.length).toBeGreaterThan(0);
      for (const r of copied) expect(r.id).toMatch(V7);
    }
  });

  it('"both" adds their history under a new source with new ids where mine holds the same rows', async () => {
    const b = await db();
    await importBundle(b, file(bundle));
    await paint(a, seeded.clips[0], 1, 'ann', 3);
    await paint(b, seeded.clips[0], 0, 'bob', 2);
    const newer = (await exportToBlob(a, seeded.project.id, { exportedBy: 'ann' })).blob;
    const result = await importBundle(b, file(newer), { onConflict: () => 'both' });
    expect(result.clips[0]).toMatchObject({ outcome: 'added-sources', detail: 'added gt as pred:ann' });
    const ids = await logIds(b);
    expectAllUnique(ids);
    const moved = await b.revisions.where('[clipId+source+frameIndex]').between([seeded.clips[0].id, 'pred:ann', 0], [seeded.clips[0].id, 'pred:ann', 99]).toArray();
    expect(moved).toHaveLength(2);
    // The revision both stores already held as gt got a new id; the one only the bundle had kept its own.
    const mine = new Set((await a.revisions.toArray()).map((r) => r.id));
    expect(moved.filter((r) => mine.has(r.id))).toHaveLength(1);
  });

  it('a bundle written before ids (format v3) imports with new UUIDv7 ids in log order, and again as identical work', async () => {
    const v3 = await rebuild(bundle, (e) => (withoutRowIds(e), withoutObjects(e)), { editManifest: asFormat(3) });
    const b = await db();
    await importBundle(b, file(v3));
    const ids = await logIds(b);
    expectAllUnique(ids);
    const mine = new Set(Object.values(await logIds(a)).flatMap((rows) => rows.map((r) => r.id)));
    for (const rows of Object.values(ids)) {
      for (const r of rows) {
        expect(r.id).toMatch(V7);
        expect(mine.has(r.id)).toBe(false);
      }
      // Made while reading, in the order of each clip's log.
      for (const clip of seeded.clips) {
        const ofClip = rows.filter((r) => r.clipId === clip.id).map((r) => r.id);
        expect(ofClip).toEqual([...ofClip].sort());
      }
    }
    // The ids differ from the exporting store's, the work does not.
    expect((await importBundle(a, file(v3))).clips.map((c) => c.outcome)).toEqual(['identical', 'identical']);
  });

  it('refuses log rows without a well-formed, unique id, and a v3 bundle carrying ids, writing nothing', async () => {
    const target = await db();
    const before = await snapshot(target);
    const clipJson = `clips/${seeded.clips[0].id}/clip.json`;
    const revisionsJson = `clips/${seeded.clips[0].id}/revisions.json`;
    type Rows = Record<string, Record<string, unknown>[]>;
    const edit = (path: string, change: (d: Rows) => void) => (e: Record<string, Uint8Array>) => editJson(e, path, (d) => change(d as unknown as Rows));
    const otherClipRevision = async () => {
      const first = await a.revisions.where('clipId').equals(seeded.clips[1].id).first();
      return first!.id;
    };
    const taken = await otherClipRevision();
    const cases: [Blob, string][] = [
      [await rebuild(bundle, edit(revisionsJson, (d) => delete d.revisions[0].id)), `${revisionsJson}: revisions[0].id is missing`],
      [await rebuild(bundle, edit(clipJson, (d) => (d.clipEvents[0].id = 'e1'))), `${clipJson}: clipEvents[0].id is "e1", not a UUID in canonical form`],
      [await rebuild(bundle, edit(clipJson, (d) => (d.frameVerdicts[0].id = (d.frameVerdicts[0].id as string).toUpperCase()))), 'frameVerdicts[0].id is "'],
      [await rebuild(bundle, edit(clipJson, (d) => (d.clipEvents[1].id = d.clipEvents[0].id))), `${clipJson}: clipEvents[1].id "`],
      [await rebuild(bundle, edit(revisionsJson, (d) => (d.revisions[0].id = taken))), `/revisions.json: revision id "${taken}" also appears in another clip`],
      [await rebuild(bundle, withoutObjects, { editManifest: asFormat(3) }), 'clip.json: clipEvents[0] has unknown field "id" (bundle format v3 rows have no ids)'],
    ];
    for (const [bad, problem] of cases) {
      const err = await importBundle(target, file(bad)).catch((e: unknown) => e);
      expect(err, problem).toBeInstanceOf(ImportError);
      expect((err as Error).message).toContain(problem);
      expect(await snapshot(target)).toEqual(before);
    }
  });
});
