import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from './db';
import { StoreError } from './errors';
import { commitClipImport } from './importCommit';
import { createProject } from './projects';
import { deleteClip } from './clips';
import { freshDb, importDraft, snapshot } from '../testing/storeFixtures';
import type { Clip } from './types';
import { latestVerdicts, listFrameVerdictHistory, listFrameVerdicts, putFrameVerdict } from './frameVerdicts';

let db: SpocDb;
let clip: Clip;
let other: Clip;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  clip = await commitClipImport(db, importDraft(p.id, 4));
  other = await commitClipImport(db, importDraft(p.id, 2));
});
afterEach(() => db.close());

describe('frame verdicts', () => {
  it('records who and when, keeps the history, and the latest verdict of a frame wins', async () => {
    await putFrameVerdict(db, { clipId: clip.id, frameIndex: 2, verdict: 'reject', note: '  missing peel  ', by: ' rev ', at: 10 });
    await putFrameVerdict(db, { clipId: clip.id, frameIndex: 0, verdict: 'accept', by: 'rev', at: 11 });
    await putFrameVerdict(db, { clipId: clip.id, frameIndex: 2, verdict: 'accept', by: 'rev2', at: 12 });
    await putFrameVerdict(db, { clipId: other.id, frameIndex: 0, verdict: 'reject', by: 'rev', at: 13 });
    const history = await listFrameVerdictHistory(db, clip.id);
    expect(history.map((v) => [v.frameIndex, v.verdict, v.by, v.at, v.note])).toEqual([
      [0, 'accept', 'rev', 11, undefined],
      [2, 'reject', 'rev', 10, 'missing peel'],
      [2, 'accept', 'rev2', 12, undefined],
    ]);
    const now = await listFrameVerdicts(db, clip.id);
    expect([...now.entries()].map(([k, v]) => [k, v.verdict, v.by]).sort()).toEqual([
      [0, 'accept', 'rev'],
      [2, 'accept', 'rev2'],
    ]);
    expect([...(await listFrameVerdicts(db, other.id)).keys()]).toEqual([0]);
  });

  it('a clear row makes the frame unreviewed again without erasing the history', async () => {
    await putFrameVerdict(db, { clipId: clip.id, frameIndex: 1, verdict: 'reject', note: 'x', by: 'rev' });
    await putFrameVerdict(db, { clipId: clip.id, frameIndex: 1, verdict: 'clear', by: 'rev' });
    expect((await listFrameVerdicts(db, clip.id)).size).toBe(0);
    expect(await listFrameVerdictHistory(db, clip.id)).toHaveLength(2);
  });

  it('latestVerdicts picks by time, then by seq, whatever the order of the rows', () => {
    const row = (seq: number, verdict: 'accept' | 'reject', at: number) => ({ seq, id: `v${seq}`, clipId: 'c', frameIndex: 0, verdict, by: 'r', at });
    // A merged row (high seq) that is older than ours does not override it.
    expect(latestVerdicts([row(3, 'accept', 9), row(5, 'reject', 1)]).get(0)?.verdict).toBe('accept');
    expect(latestVerdicts([row(5, 'reject', 9), row(3, 'accept', 9)]).get(0)?.verdict).toBe('reject');
  });

  it('refuses bad input with a clear message and writes nothing', async () => {
    const before = await snapshot(db);
    const cases: [Parameters<typeof putFrameVerdict>[1], RegExp][] = [
      [{ clipId: clip.id, frameIndex: 4, verdict: 'accept', by: 'rev' }, /Frame index 4 is outside the clip \(4 frames\)/],
      [{ clipId: clip.id, frameIndex: -1, verdict: 'accept', by: 'rev' }, /outside the clip/],
      [{ clipId: clip.id, frameIndex: 0, verdict: 'accept', by: '  ' }, /needs who gave it/],
      [{ clipId: clip.id, frameIndex: 0, verdict: 'maybe' as 'accept', by: 'rev' }, /Unknown frame verdict "maybe"/],
      [{ clipId: clip.id, frameIndex: 0, verdict: 'reject', by: 'rev', note: 'x'.repeat(2001) }, /2001 characters/],
      [{ clipId: 'nope', frameIndex: 0, verdict: 'accept', by: 'rev' }, /Clip/],
    ];
    for (const [input, message] of cases) {
      const err = await putFrameVerdict(db, input).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreError);
      expect((err as Error).message).toMatch(message);
    }
    expect(await snapshot(db)).toEqual(before);
  });

  it('deleting the clip deletes its verdicts and only its verdicts', async () => {
    await putFrameVerdict(db, { clipId: clip.id, frameIndex: 0, verdict: 'accept', by: 'rev' });
    await putFrameVerdict(db, { clipId: other.id, frameIndex: 0, verdict: 'accept', by: 'rev' });
    await deleteClip(db, clip.id);
    expect(await db.frameVerdicts.count()).toBe(1);
    expect((await db.frameVerdicts.toArray())[0].clipId).toBe(other.id);
  });
});
