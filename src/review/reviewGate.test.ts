import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../store/db';
import { StoreError } from '../store/errors';
import { commitClipImport } from '../store/importCommit';
import { createProject } from '../store/projects';
import { listClipEvents } from '../store/clipEvents';
import { putFrameVerdict } from '../store/frameVerdicts';
import { setFrameIgnored, setFrameReviewed } from '../store/frames';
import { appendRevision } from '../store/revisions';
import { H, W, freshDb, importDraft, rleWithArea, snapshot } from '../testing/storeFixtures';
import type { Clip } from '../store/types';
import { approvalRefusal, checkApproval, frameRanges, framesWithoutVerdict, submitWarning, unansweredFrames, type ApprovalFacts } from './reviewGate';
import { loadApprovalFacts, loadUnansweredFrames } from './reviewGateLoader';
import { approveClip, takeClipStep } from './reviewSteps';
import type { Verdicts } from './verdicts';

const v = (entries: [number, 'accept' | 'reject'][]): Verdicts => new Map(entries.map(([k, verdict]) => [k, { verdict, by: 'rev' }]));
const facts = (over: Partial<ApprovalFacts> = {}): ApprovalFacts => ({ frameCount: 4, ignored: new Set(), verdicts: new Map(), painters: new Set(['ann']), ...over });
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

describe('review gate rules', () => {
  it('frameRanges numbers frames from 1 and collapses runs', () => {
    expect(frameRanges([])).toBe('');
    expect(frameRanges([0])).toBe('1');
    expect(frameRanges([7, 0, 1, 2, 4, 8, 2])).toBe('1–3, 5, 8–9');
    expect(frameRanges(range(1, 20))).toBe('2–20');
  });

  it('unanswered frames: not painted, not ignored, not marked empty', () => {
    const rows = [{ index: 0 }, { index: 1, ignored: { reason: 'blur' } }, { index: 2, reviewed: true }, { index: 3 }, { index: 4 }];
    expect(unansweredFrames(rows, new Set([0, 4]))).toEqual([3]);
    expect(submitWarning([3])).toBe('Frame 4 is not annotated, ignored or marked empty.');
    expect(submitWarning(range(1, 20))).toBe('19 frames (2–20) are not annotated, ignored or marked empty.');
    expect(submitWarning([])).toBeNull();
  });

  it('approval needs a verdict on every frame that is not ignored', () => {
    expect(framesWithoutVerdict(facts({ verdicts: v([[1, 'accept']]), ignored: new Set([3]) }))).toEqual([0, 2]);
    const all = v([[0, 'accept'], [1, 'accept'], [2, 'accept']]);
    expect(approvalRefusal(facts({ verdicts: all, ignored: new Set([3]) }), 'rev', false)).toBeNull();
    expect(approvalRefusal(facts({ verdicts: all }), 'rev', false)).toBe(
      'Cannot approve: 1 of 4 frames has no verdict (frame 4). Accept or reject every frame in reviewer mode and leave approving to someone else, or use "Approve with override…" and give the reason.',
    );
  });

  it('the skip-review path: one person, one stroke, no verdicts — refused, naming both reasons', () => {
    const skip = facts({ frameCount: 20, painters: new Set(['ann']) });
    expect(checkApproval(skip, 'ann')).toEqual({ blocked: null, unreviewed: range(0, 20), ownPainting: true });
    expect(approvalRefusal(skip, ' ann ', false)).toMatch(/^Cannot approve: 20 of 20 frames have no verdict \(frames 1–20\); ann painted this clip and cannot approve their own work\./);
    // The override waives both.
    expect(approvalRefusal(skip, 'ann', true)).toBeNull();
  });

  it('approving your own painting needs the override even with every frame judged', () => {
    const judged = facts({ frameCount: 2, verdicts: v([[0, 'accept'], [1, 'accept']]), painters: new Set(['ann', 'rev']) });
    expect(approvalRefusal(judged, 'rev', false)).toMatch(/rev painted this clip/);
    expect(approvalRefusal(judged, 'rev', true)).toBeNull();
    expect(approvalRefusal(judged, 'third', false)).toBeNull();
  });

  it('a rejected frame blocks approval, override or not', () => {
    const rejected = facts({ frameCount: 2, verdicts: v([[0, 'accept'], [1, 'reject']]) });
    expect(approvalRefusal(rejected, 'rev', false)).toMatch(/^Frame 2 is rejected/);
    expect(approvalRefusal(rejected, 'rev', true)).toMatch(/^Frame 2 is rejected/);
  });
});

describe('approving a stored clip', () => {
  let db: SpocDb;
  let clip: Clip;
  const paint = (author: string, frameIndex = 0) =>
    appendRevision(db, { clipId: clip.id, frameIndex, source: 'gt', author, at: 5, action: 'brush', box: { x: 0, y: 0, w: W, h: H }, before: rleWithArea(H, W, 0), after: rleWithArea(H, W, 8) });
  const accept = (frameIndex: number, by = 'rev') => putFrameVerdict(db, { clipId: clip.id, frameIndex, verdict: 'accept', by });
  const refusal = (p: Promise<unknown>) => p.then(() => 'approved', (e: unknown) => (e instanceof StoreError ? e.message : `not a StoreError: ${String(e)}`));

  beforeEach(async () => {
    db = await freshDb();
    const p = await createProject(db, { name: 'P' });
    clip = await commitClipImport(db, importDraft(p.id, 3));
    await paint('ann');
    await takeClipStep(db, clip.id, 'submit', 'ann');
  });
  afterEach(() => db.close());

  it('reads the facts: ignored frames, verdicts in force, gt revision authors', async () => {
    await setFrameIgnored(db, clip.id, 2, { reason: 'not_visible', by: 'ann' });
    await accept(1);
    const f = await loadApprovalFacts(db, clip.id);
    expect(f.frameCount).toBe(3);
    expect([...f.ignored]).toEqual([2]);
    expect([...f.verdicts.keys()]).toEqual([1]);
    expect([...f.painters]).toEqual(['ann']);
  });

  it('lists frames without an answer for the submit warning', async () => {
    // importDraft paints frames 0 and 1; frame 2 is blank until marked empty.
    expect(await loadUnansweredFrames(db, clip.id)).toEqual([2]);
    await setFrameReviewed(db, clip.id, 2, true);
    expect(await loadUnansweredFrames(db, clip.id)).toEqual([]);
  });

  it('refuses the painter approving at once with no verdict, writing nothing; the override with a reason is recorded', async () => {
    await takeClipStep(db, clip.id, 'start_review', 'ann');
    const before = await snapshot(db);
    // Every way of writing the approve step goes through the gate.
    expect(await refusal(approveClip(db, clip.id, 'ann'))).toMatch(/^Cannot approve: 3 of 3 frames have no verdict \(frames 1–3\); ann painted this clip/);
    expect(await refusal(takeClipStep(db, clip.id, 'approve', 'ann'))).toMatch(/^Cannot approve/);
    expect(await refusal(approveClip(db, clip.id, 'ann', { override: '   ' }))).toBe('Say why the clip is approved without a full review (the reason is empty).');
    expect(await snapshot(db)).toEqual(before);

    const { clip: done, event } = await approveClip(db, clip.id, 'ann', { override: ' demo clip, checked by eye ', at: 99 });
    expect(done.status).toBe('approved');
    expect(event).toMatchObject({ action: 'approve_override', from: 'in_review', to: 'approved', by: 'ann', at: 99, note: 'demo clip, checked by eye' });
    expect((await listClipEvents(db, clip.id)).map((e) => e.action)).toEqual(['submit', 'start_review', 'approve_override']);
  });

  it('approves without override once every frame has a verdict and the reviewer did not paint', async () => {
    await takeClipStep(db, clip.id, 'start_review', 'rev');
    await accept(0);
    expect(await refusal(approveClip(db, clip.id, 'rev'))).toMatch(/2 of 3 frames have no verdict \(frames 2–3\)\. /);
    await setFrameIgnored(db, clip.id, 2, { reason: 'not_visible', by: 'ann' });
    await accept(1);
    expect((await approveClip(db, clip.id, 'rev')).event).toMatchObject({ action: 'approve', by: 'rev' });
  });

  it('a reviewer who corrected a stroke needs the override', async () => {
    await takeClipStep(db, clip.id, 'start_review', 'rev');
    await Promise.all([0, 1, 2].map((k) => accept(k)));
    await paint('rev', 1);
    expect(await refusal(approveClip(db, clip.id, 'rev'))).toMatch(/^Cannot approve: rev painted this clip/);
    expect(await refusal(approveClip(db, clip.id, 'other'))).toBe('approved');
  });

  it('verdicts on an approved clip are refused until it is reopened', async () => {
    await takeClipStep(db, clip.id, 'start_review', 'rev');
    await approveClip(db, clip.id, 'rev', { override: 'spot check' });
    expect(await refusal(accept(0))).toMatch(/is approved: reopen it/);
    await takeClipStep(db, clip.id, 'reopen', 'rev');
    await accept(0);
  });
});
