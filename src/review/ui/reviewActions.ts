/**
 * The review room's actions in the editor's one action table (annotator/ui/roomActions.ts): the
 * clip's lifecycle steps, reviewer mode and its keys, and stepping through the worst-IoU frames.
 * The components that own their state publish what running them means: ReviewBar (steps),
 * ReviewerToggle and ReviewerPanel (reviewer mode), WorstIouList (W / Shift+W).
 */
import { roomAction } from '../../annotator/ui/roomActions';
import type { Action } from '../../annotator/actions';
import type { ClipAction } from '../lifecycle';

/** Palette action id of each lifecycle step the review bar offers ("start" is implicit). */
export const STEP_ACTION_IDS: Record<Exclude<ClipAction, 'start'>, string> = {
  submit: 'review.submit',
  withdraw: 'review.withdraw',
  start_review: 'review.startReview',
  approve: 'review.approve',
  approve_override: 'review.approveOverride',
  request_changes: 'review.requestChanges',
  reopen: 'review.reopen',
};

const STEP_LABELS: Record<Exclude<ClipAction, 'start'>, string> = {
  submit: 'Submit for review',
  withdraw: 'Withdraw submission',
  start_review: 'Start review',
  approve: 'Approve clip',
  approve_override: 'Approve with override…',
  request_changes: 'Request changes…',
  reopen: 'Reopen clip',
};

export const REVIEWER_ACTION_IDS = {
  toggle: 'review.mode',
  next: 'review.nextUnreviewed',
  previous: 'review.previousUnreviewed',
  accept: 'review.accept',
  reject: 'review.reject',
  annotatorVersion: 'review.annotatorVersion',
  diff: 'review.diff',
} as const;

export const WORST_ACTION_IDS = { next: 'review.worstNext', previous: 'review.worstPrevious' } as const;

/** Placing a comment pin on the canvas (CommentPlacing). */
export const COMMENT_ACTION_IDS = { cancelPlacing: 'review.cancelPlacing' } as const;

const reviewerOff = 'reviewer mode is off';

export const REVIEW_ACTIONS: readonly Action[] = [
  ...(Object.keys(STEP_ACTION_IDS) as (keyof typeof STEP_ACTION_IDS)[]).map((step) =>
    roomAction({ id: STEP_ACTION_IDS[step], label: STEP_LABELS[step], group: 'review', absent: 'the review bar is not shown' }),
  ),
  roomAction({ id: REVIEWER_ACTION_IDS.toggle, label: 'Reviewer mode on / off', group: 'review', absent: 'the review bar is not shown' }),
  roomAction({ id: REVIEWER_ACTION_IDS.next, when: 'reviewer', label: 'Next unreviewed frame', group: 'review', shortcuts: ['j'], absent: reviewerOff }),
  roomAction({ id: REVIEWER_ACTION_IDS.previous, when: 'reviewer', label: 'Previous unreviewed frame', group: 'review', shortcuts: ['shift+j'], absent: reviewerOff }),
  roomAction({ id: REVIEWER_ACTION_IDS.accept, when: 'reviewer', label: 'Accept frame (verdict)', group: 'review', shortcuts: ['a'], absent: reviewerOff }),
  roomAction({ id: REVIEWER_ACTION_IDS.reject, when: 'reviewer', label: 'Reject frame (verdict, with a note)…', group: 'review', shortcuts: ['r'], absent: reviewerOff }),
  roomAction({ id: REVIEWER_ACTION_IDS.annotatorVersion, when: 'reviewer', label: "Show the annotator's version", group: 'review', shortcuts: ['v'], absent: reviewerOff }),
  roomAction({ id: REVIEWER_ACTION_IDS.diff, when: 'reviewer', label: "Show the reviewer's diff", group: 'review', shortcuts: ['d'], absent: reviewerOff }),
  roomAction({ id: COMMENT_ACTION_IDS.cancelPlacing, when: 'placing-comment', label: 'Stop placing a comment', group: 'review', shortcuts: ['escape'], absent: 'no comment is being placed' }),
  roomAction({ id: WORST_ACTION_IDS.next, label: 'Next worst-IoU frame', group: 'review', shortcuts: ['w'], absent: 'no prediction to rank frames by (review panel → Predictions)' }),
  roomAction({ id: WORST_ACTION_IDS.previous, label: 'Previous worst-IoU frame', group: 'review', shortcuts: ['shift+w'], absent: 'no prediction to rank frames by (review panel → Predictions)' }),
];
