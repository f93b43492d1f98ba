import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../store/db';
import { StoreError } from '../store/errors';
import { commitClipImport } from '../store/importCommit';
import { createProject } from '../store/projects';
import { listClipEvents } from '../store/clipEvents';
import { listFrameVerdicts, putFrameVerdict } from '../store/frameVerdicts';
import { freshDb, importDraft } from '../store/testFixtures';
import type { Clip } from '../store/types';
import { takeClipStep } from './reviewSteps';
import { approvalBlocker, approveClip, nextUnreviewed, rejectedFramesNote, verdictTally, type Verdicts } from './verdicts';

const v = (entries: [number, 'accept' | 'reject', string?][]): Verdicts => new Map(entries.map(([k, verdict, note]) => [k, { verdict, note, by: 'rev' }]));

describe('verdict helpers', () => {
  it('nextUnreviewed steps forward and back over reviewed frames, wrapping; null when all are reviewed', () => {
    const verdicts = v([[1, 'accept'], [2, 'reject'], [4, 'accept']]);
    expect(nextUnreviewed(5, verdicts, 0)).toBe(3);
    expect(nextUnreviewed(5, verdicts, 3)).toBe(0);
    expect(nextUnreviewed(5, verdicts, 3, -1)).toBe(0);
    expect(nextUnreviewed(5, verdicts, 0, -1)).toBe(3);
    expect(nextUnreviewed(5, new Map(), 4)).toBe(0);
    expect(nextUnreviewed(3, v([[0, 'accept'], [1, 'accept'], [2, 'reject']]), 1)).toBeNull();
    // The current frame itself comes last (only when it is the one left).
    expect(nextUnreviewed(3, v([[1, 'accept'], [2, 'accept']]), 0)).toBe(0);
  });

  it('lists rejected frames (numbered from 1) for the change request and blocks approval', () => {
    const verdicts = v([[6, 'reject', 'peel missing'], [0, 'accept'], [2, 'reject']]);
    expect(rejectedFramesNote(verdicts)).toBe('Rejected frames:\nFrame 3\nFrame 7: peel missing');
    expect(approvalBlocker(verdicts)).toMatch(/^Frames 3, 7 are rejected/);
    expect(approvalBlocker(v([[0, 'accept']]))).toBeNull();
    expect(rejectedFramesNote(v([[0, 'accept']]))).toBe('');
    expect(verdictTally(10, verdicts)).toEqual({ accepted: 1, rejected: 2, open: 7 });
  });
});

describe('approveClip', () => {
  let db: SpocDb;
  let clip: Clip;
  beforeEach(async () => {
    db = await freshDb();
    const p = await createProject(db, { name: 'P' });
    clip = await commitClipImport(db, importDraft(p.id, 3));
    await takeClipStep(db, clip.id, 'submit', 'ann');
    await takeClipStep(db, clip.id, 'start_review', 'rev');
  });
  afterEach(() => db.close());

  it('refuses while a frame stands rejected (nothing written), approves once it is accepted', async () => {
    await putFrameVerdict(db, { clipId: clip.id, frameIndex: 1, verdict: 'reject', note: 'hole', by: 'rev' });
    const err = await approveClip(db, clip.id, 'rev').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toMatch(/Frame 2 is rejected/);
    expect((await db.clips.get(clip.id))?.status).toBe('in_review');
    expect(await listClipEvents(db, clip.id)).toHaveLength(2);

    await putFrameVerdict(db, { clipId: clip.id, frameIndex: 1, verdict: 'accept', by: 'rev' });
    expect((await listFrameVerdicts(db, clip.id)).get(1)?.verdict).toBe('accept');
    const { clip: done } = await approveClip(db, clip.id, 'rev');
    expect(done.status).toBe('approved');
    expect((await listClipEvents(db, clip.id)).at(-1)).toMatchObject({ action: 'approve', by: 'rev' });
  });
});
