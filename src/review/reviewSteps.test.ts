import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../store/db';
import { StoreError } from '../store/errors';
import { commitClipImport } from '../store/importCommit';
import { createProject } from '../store/projects';
import { freshDb, importDraft } from '../testing/storeFixtures';
import type { Clip } from '../store/types';
import { lastActors, listClipEvents } from '../store/clipEvents';
import { putFrameVerdict } from '../store/frameVerdicts';
import { addComment, commentThreads, listComments, replyToComment, setCommentResolved } from '../store/comments';
import { takeClipStep } from './reviewSteps';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  clip = await commitClipImport(db, importDraft(p.id, 3));
});
afterEach(() => db.close());

describe('takeClipStep', () => {
  it('records every step with who, when and the note, and moves the clip', async () => {
    expect(clip.status).toBe('todo');
    await takeClipStep(db, clip.id, 'submit', 'ann', undefined, 10);
    expect((await db.clips.get(clip.id))?.assignee).toBe('ann');
    await takeClipStep(db, clip.id, 'start_review', 'rev', undefined, 11);
    await takeClipStep(db, clip.id, 'request_changes', 'rev', ' redo frame 2 ', 12);
    expect((await db.clips.get(clip.id))?.status).toBe('changes_requested');
    await takeClipStep(db, clip.id, 'submit', 'ann', undefined, 13);
    await takeClipStep(db, clip.id, 'start_review', 'rev', undefined, 14);
    // Approving passes the review gate: every frame has a verdict (reviewGate.test.ts has the rest).
    for (let k = 0; k < clip.frameCount; k++) await putFrameVerdict(db, { clipId: clip.id, frameIndex: k, verdict: 'accept', by: 'rev' });
    const { clip: done } = await takeClipStep(db, clip.id, 'approve', 'rev', undefined, 15);
    expect(done.status).toBe('approved');
    const events = await listClipEvents(db, clip.id);
    expect(events.map((e) => [e.action, e.from, e.to, e.by, e.at, e.note])).toEqual([
      ['submit', 'todo', 'submitted', 'ann', 10, undefined],
      ['start_review', 'submitted', 'in_review', 'rev', 11, undefined],
      ['request_changes', 'in_review', 'changes_requested', 'rev', 12, 'redo frame 2'],
      ['submit', 'changes_requested', 'submitted', 'ann', 13, undefined],
      ['start_review', 'submitted', 'in_review', 'rev', 14, undefined],
      ['approve', 'in_review', 'approved', 'rev', 15, undefined],
    ]);
    expect(await lastActors(db, [clip.id, 'nope'])).toEqual(new Map([[clip.id, 'rev']]));
  });

  it('refuses an invalid step and writes nothing', async () => {
    const err = await takeClipStep(db, clip.id, 'approve', 'rev').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).message).toMatch(/Cannot "Approve" a clip that is to do/);
    await takeClipStep(db, clip.id, 'submit', 'ann');
    await takeClipStep(db, clip.id, 'start_review', 'rev');
    await expect(takeClipStep(db, clip.id, 'request_changes', 'rev', '')).rejects.toThrow(/note is empty/);
    await expect(takeClipStep(db, clip.id, 'approve', '  ')).rejects.toThrow(/who took it/);
    expect((await db.clips.get(clip.id))?.status).toBe('in_review');
    expect(await listClipEvents(db, clip.id)).toHaveLength(2);
  });
});

describe('comments', () => {
  it('pins threads to a point of a frame, with replies and resolving', async () => {
    const a = await addComment(db, { clipId: clip.id, frameIndex: 1, x: 3.4, y: 2, author: 'rev', text: ' too wide ', at: 1 });
    expect(a).toMatchObject({ frameIndex: 1, x: 3, y: 2, text: 'too wide', resolved: false });
    const r = await replyToComment(db, a.id, { author: 'ann', text: 'fixed', at: 2 });
    // A reply to a reply joins the root's thread.
    await replyToComment(db, r.id, { author: 'rev', text: 'thanks', at: 3 });
    await addComment(db, { clipId: clip.id, frameIndex: 0, x: 0, y: 0, author: 'rev', text: 'first', at: 4 });
    const threads = commentThreads(await listComments(db, clip.id));
    expect(threads.map((t) => [t.root.frameIndex, t.root.text, t.replies.map((c) => `${c.author}:${c.text}`)])).toEqual([
      [0, 'first', []],
      [1, 'too wide', ['ann:fixed', 'rev:thanks']],
    ]);
    await setCommentResolved(db, r.id, true);
    expect((await db.comments.get(a.id))?.resolved).toBe(true);
  });

  it('validates the point, the frame and the text', async () => {
    await expect(addComment(db, { clipId: clip.id, frameIndex: 3, x: 0, y: 0, author: 'rev', text: 'x' })).rejects.toThrow(/outside the clip/);
    await expect(addComment(db, { clipId: clip.id, frameIndex: 0, x: clip.width, y: 0, author: 'rev', text: 'x' })).rejects.toThrow(/not inside/);
    await expect(addComment(db, { clipId: clip.id, frameIndex: 0, x: 0, y: 0, author: 'rev', text: ' ' })).rejects.toThrow(/empty/);
    await expect(replyToComment(db, 'nope', { author: 'ann', text: 'x' })).rejects.toThrow(StoreError);
  });
});
