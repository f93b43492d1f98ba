import { describe, expect, it } from 'vitest';
import type { ClipStatus } from '../../src/store/types';
import type { Role } from './permissions';
import { mayGiveVerdict, mayMarkFrame, mayPaint, mayPutBlob, mayStartWorkByEditing, mayTakeStep, mayUpload, type Pusher } from './syncPermissions';

const who = (role: Role, username: string = role, upload = false): Pusher => ({ role, username, upload });
const ok = (refusal: string | null) => refusal === null;
const STATUSES: ClipStatus[] = ['todo', 'in_progress', 'changes_requested', 'submitted', 'in_review', 'approved'];
/** The clip is assigned to "annotator". */
const clip = (status: ClipStatus) => ({ status, assignee: 'annotator' });

describe('who may paint gt (docs/sync.md table)', () => {
  const table: [Pusher, boolean[]][] = [
    // todo, in_progress, changes_requested, submitted, in_review, approved
    [who('annotator'), [true, true, true, false, false, false]],
    [who('annotator', 'someone-else'), [false, false, false, false, false, false]],
    [who('reviewer'), [false, false, false, false, true, false]],
    [who('manager'), [false, false, false, false, false, false]],
    [who('manager', 'mgr', true), [true, true, true, false, true, false]],
  ];
  it.each(table)('%o', (pusher, expected) => {
    expect(STATUSES.map((s) => ok(mayPaint(pusher, clip(s), 'gt')))).toEqual(expected);
  });

  it('leaves other layers to reviewers and managers, in any status', () => {
    expect(STATUSES.every((s) => ok(mayPaint(who('reviewer'), clip(s), 'pred:sam')) && ok(mayPaint(who('manager'), clip(s), 'ann:bo')))).toBe(true);
    expect(ok(mayPaint(who('annotator'), clip('in_progress'), 'pred:sam'))).toBe(false);
  });
});

describe('who may mark frames', () => {
  it('is the assignee while with the annotator, reviewers and managers in review, nobody after', () => {
    expect(STATUSES.map((s) => ok(mayMarkFrame(who('annotator'), clip(s))))).toEqual([true, true, true, false, false, false]);
    expect(STATUSES.map((s) => ok(mayMarkFrame(who('reviewer'), clip(s))))).toEqual([false, false, false, false, true, false]);
    expect(STATUSES.map((s) => ok(mayMarkFrame(who('manager'), clip(s))))).toEqual([false, false, false, false, true, false]);
  });
});

describe('who may take lifecycle steps', () => {
  it('start, submit, withdraw: the assignee or a manager', () => {
    for (const action of ['start', 'submit', 'withdraw'] as const) {
      expect([who('annotator'), who('annotator', 'other'), who('reviewer'), who('manager')].map((p) => ok(mayTakeStep(p, clip('todo'), action)))).toEqual([true, false, false, true]);
    }
  });
  it('review steps: reviewers and managers; an override: managers only', () => {
    for (const action of ['start_review', 'approve', 'request_changes', 'reopen'] as const) {
      expect([who('annotator'), who('reviewer'), who('manager')].map((p) => ok(mayTakeStep(p, clip('in_review'), action)))).toEqual([false, true, true]);
    }
    expect([who('annotator'), who('reviewer'), who('manager')].map((p) => ok(mayTakeStep(p, clip('in_review'), 'approve_override')))).toEqual([false, false, true]);
  });
});

describe('verdicts, uploads, blobs and the first edit', () => {
  it('verdicts: reviewers and managers, only in review', () => {
    expect([who('annotator'), who('reviewer'), who('manager')].map((p) => ok(mayGiveVerdict(p, clip('in_review'))))).toEqual([false, true, true]);
    expect(ok(mayGiveVerdict(who('reviewer'), clip('submitted')))).toBe(false);
  });
  it('uploads: managers; blobs: managers and annotators', () => {
    expect((['manager', 'annotator', 'reviewer'] as const).map((r) => [ok(mayUpload(r)), ok(mayPutBlob(r))])).toEqual([
      [true, true],
      [false, true],
      [false, false],
    ]);
  });
  it('lets the first edit move a to-do clip to in progress, and nothing else', () => {
    expect(mayStartWorkByEditing(who('annotator'), clip('todo'), 'in_progress')).toBe(true);
    expect(mayStartWorkByEditing(who('annotator'), clip('todo'), 'approved')).toBe(false);
    expect(mayStartWorkByEditing(who('reviewer'), clip('todo'), 'in_progress')).toBe(false);
    expect(mayStartWorkByEditing(who('annotator'), clip('submitted'), 'in_progress')).toBe(false);
  });
});
