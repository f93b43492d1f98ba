/**
 * Bundles carry the reviewer's frame verdicts (format v3): exported per clip in log order, validated
 * on import, written in the import's one transaction, merged by "both"; v2 bundles still read.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { listFrameVerdictHistory, listFrameVerdicts, putFrameVerdict } from '../../store/frameVerdicts';
import { freshDb, snapshot } from '../../testing/storeFixtures';
import type { FrameVerdict } from '../../store/types';
import { ImportError } from '../importError';
import { importBundle } from './importBundle';
import type { ClipConflict } from './merge';
import { asFormat, editJson, exportToBlob, rebuild, seedProject, withoutObjects, withoutRowIds, type SeededProject } from '../../testing/bundleProject';

let a: SpocDb;
let seeded: SeededProject;
const opened: SpocDb[] = [];

async function db(): Promise<SpocDb> {
  const d = await freshDb();
  opened.push(d);
  return d;
}

const clipA = () => seeded.clips[0].id;
const clipJsonOf = (id: string) => `clips/${id}/clip.json`;
const file = (blob: Blob, name = 'Bundle test.spoc.zip') => new File([blob], name, { type: 'application/zip' });
const noSeq = (rows: FrameVerdict[]) => rows.map(({ seq: _seq, ...rest }) => rest);

beforeEach(async () => {
  a = await db();
  seeded = await seedProject(a);
  await putFrameVerdict(a, { clipId: clipA(), frameIndex: 1, verdict: 'reject', note: 'hole in the peel', by: 'rev', at: 500 });
  await putFrameVerdict(a, { clipId: clipA(), frameIndex: 0, verdict: 'accept', by: 'rev', at: 510 });
  await putFrameVerdict(a, { clipId: clipA(), frameIndex: 1, verdict: 'accept', by: 'rev', at: 520 });
  await putFrameVerdict(a, { clipId: seeded.clips[1].id, frameIndex: 2, verdict: 'reject', by: 'rev', at: 530 });
});
afterEach(() => {
  for (const d of opened.splice(0)) d.close();
});

describe('frame verdicts in bundles', () => {
  it('round trip: every verdict row (history included) lands in a fresh store, in order', async () => {
    const { blob } = await exportToBlob(a, seeded.project.id);
    const b = await db();
    const result = await importBundle(b, file(blob));
    expect(result.manifest.formatVersion).toBe(5);
    expect(result.manifest.counts.frameVerdicts).toBe(4);
    for (const c of seeded.clips) expect(noSeq(await listFrameVerdictHistory(b, c.id))).toEqual(noSeq(await listFrameVerdictHistory(a, c.id)));
    expect([...(await listFrameVerdicts(b, clipA())).values()].map((v) => [v.frameIndex, v.verdict])).toEqual([
      [0, 'accept'],
      [1, 'accept'],
    ]);
    // Importing the same bundle again finds identical work.
    const again = await importBundle(b, file(blob));
    expect(again.clips.map((c) => c.outcome)).toEqual(['identical', 'identical']);
  });

  it('still reads format v2 bundles (no verdicts), and a v2 manifest cannot smuggle them', async () => {
    const { blob } = await exportToBlob(a, seeded.project.id);
    const asV2 = asFormat(2);
    const v2 = await rebuild(
      blob,
      (e) => {
        withoutRowIds(e);
        withoutObjects(e);
        for (const c of seeded.clips) editJson(e, clipJsonOf(c.id), (d) => delete d.frameVerdicts);
      },
      { editManifest: asV2 },
    );
    const b = await db();
    const result = await importBundle(b, file(v2));
    expect(result.clips.map((c) => c.outcome)).toEqual(['added', 'added']);
    expect(await b.frameVerdicts.count()).toBe(0);
    expect(await b.clipEvents.count()).toBe(4);

    const c = await db();
    const before = await snapshot(c);
    const err = await importBundle(c, file(await rebuild(blob, (e) => (withoutRowIds(e), withoutObjects(e)), { editManifest: asV2 }))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toContain('clip.json: has unknown field "frameVerdicts"');
    expect(await snapshot(c)).toEqual(before);
  });

  it('refuses hostile verdict rows with the entry and field named, writing nothing', async () => {
    const good = (await exportToBlob(a, seeded.project.id)).blob;
    const target = await db();
    const before = await snapshot(target);
    type Doc = { frameVerdicts: Record<string, unknown>[] };
    const cases: [(d: Doc) => void, string][] = [
      [(d) => (d.frameVerdicts[0].frameIndex = 3), 'frameVerdicts[0].frameIndex is 3; it must be between 0 and 2'],
      [(d) => (d.frameVerdicts[0].verdict = 'maybe'), 'frameVerdicts[0].verdict'],
      [(d) => (d.frameVerdicts[1].clipId = 'someone-else'), 'frameVerdicts[1].clipId is "someone-else", not this clip'],
      [(d) => (d.frameVerdicts[0].by = ''), 'frameVerdicts[0].by'],
      [(d) => (d.frameVerdicts[2].seq = 7), 'frameVerdicts[2] has unknown field "seq"'],
      [(d) => (d.frameVerdicts[0].note = 'x'.repeat(2001)), 'frameVerdicts[0].note'],
    ];
    for (const [change, problem] of cases) {
      const bad = await rebuild(good, (e) => editJson(e, clipJsonOf(clipA()), (d) => change(d as unknown as Doc)));
      const err = await importBundle(target, file(bad, 'hostile.spoc.zip')).catch((e: unknown) => e);
      expect(err, problem).toBeInstanceOf(ImportError);
      expect((err as Error).message).toContain(`hostile.spoc.zip: ${clipJsonOf(clipA())}: `);
      expect((err as Error).message).toContain(problem);
      expect(await snapshot(target)).toEqual(before);
    }
    const miscounted = await rebuild(good, () => {}, { editManifest: (m) => (m.counts.frameVerdicts = 9) });
    const err = await importBundle(target, file(miscounted)).catch((e: unknown) => e);
    expect((err as Error).message).toContain('manifest.json: counts.frameVerdicts is 9 but the bundle holds 4');
    expect(await snapshot(target)).toEqual(before);
  });

  it('merging: verdicts count as work; "both" adds theirs and the latest in time stays in force', async () => {
    const bundle = file((await exportToBlob(a, seeded.project.id)).blob);
    // Here, later than anything in the bundle: frame 2 rejected.
    await putFrameVerdict(a, { clipId: clipA(), frameIndex: 2, verdict: 'reject', by: 'rev2', at: 900 });
    const b = await db();
    await importBundle(b, bundle);
    // There: frame 0 rejected at 800 (after its accept at 510) and frame 2 accepted at 700 (before ours).
    await putFrameVerdict(b, { clipId: clipA(), frameIndex: 0, verdict: 'reject', note: 'missed a piece', by: 'rev3', at: 800 });
    await putFrameVerdict(b, { clipId: clipA(), frameIndex: 2, verdict: 'accept', by: 'rev3', at: 700 });
    const theirs = file((await exportToBlob(b, seeded.project.id)).blob);
    const asked: ClipConflict[] = [];
    const result = await importBundle(a, theirs, { onConflict: (_m, c) => (asked.push(c), 'both') });
    expect(asked.map((c) => c.differences)).toEqual([['frame verdicts differ (4 here, 5 in the bundle)']]);
    expect(result.clips.find((c) => c.id === clipA())?.detail).toContain('added 2 frame verdicts');
    expect(result.warnings).toEqual([]);
    expect(await listFrameVerdictHistory(a, clipA())).toHaveLength(6);
    const now = await listFrameVerdicts(a, clipA());
    expect([...now.values()].map((v) => [v.frameIndex, v.verdict, v.by])).toEqual([
      [0, 'reject', 'rev3'],
      [1, 'accept', 'rev'],
      [2, 'reject', 'rev2'],
    ]);
  });
});
