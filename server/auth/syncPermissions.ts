/**
 * Who may push which synced row, as pure functions of the pusher's role, the clip's server-side
 * status and its assignee: the table in docs/sync.md "Who may push what", in one place. Each answers
 * null (allowed) or why not, for the push outcome's message.
 *
 * An `upload` (a manager sending a local project's existing history, docs/sync.md) stands in for
 * whoever took each step, so it passes every "who" part of these rules; the "when" parts (the clip's
 * status) still hold, since the history is replayed in the order it was written.
 */
import type { ClipAction } from '../../src/review/lifecycle';
import type { ClipStatus } from '../../src/store/types';
import type { Role } from './permissions';

export interface Pusher {
  role: Role;
  username: string;
  /** A manager's upload of existing history. */
  upload: boolean;
}

export interface ClipState {
  status: ClipStatus;
  assignee?: string;
}

export type Refusal = string | null;

const isAssignee = (who: Pusher, clip: ClipState) => who.upload || (clip.assignee !== undefined && clip.assignee === who.username);
/** The statuses in which the clip is with its annotator. */
const WITH_ANNOTATOR: readonly ClipStatus[] = ['todo', 'in_progress', 'changes_requested'];

export const mayEditProject = (who: Pusher): Refusal => (who.role === 'manager' ? null : 'only a project manager may change the project');
export const mayUpload = (role: Role): Refusal => (role === 'manager' ? null : 'only a project manager may upload existing history');
/** New clips and new frames: creating or importing clips. */
export const mayCreateClip = (who: Pusher): Refusal => (who.role === 'manager' ? null : 'only a project manager may add clips and frames');
/** A clip's name, object state, subset, source and a frame's time, name and image. */
export const mayEditClipMetadata = (who: Pusher): Refusal => (who.role === 'manager' ? null : "only a project manager may change a clip's or a frame's metadata");
export const mayAssign = (who: Pusher): boolean => who.role === 'manager';
/** Moving a clip to the trash or out of it (its row's `deletedAt`, docs/sync.md "Deletions"): managers. */
export const mayTrashClip = (who: Pusher): Refusal => (who.upload || who.role === 'manager' ? null : 'only a project manager may move a clip to the trash or restore it');

/**
 * A clip row may move itself from to do to in progress: the app does that on its assignee's first
 * edit (store/touch.ts), without a lifecycle step. Any other status change comes from clipEvents.
 */
export const mayStartWorkByEditing = (who: Pusher, clip: ClipState, to: ClipStatus): boolean =>
  clip.status === 'todo' && to === 'in_progress' && (isAssignee(who, clip) || who.role === 'manager');

/** A frame's phase, ignored mark and "reviewed" (looked at, nothing to paint). */
export function mayMarkFrame(who: Pusher, clip: ClipState): Refusal {
  if (WITH_ANNOTATOR.includes(clip.status)) return isAssignee(who, clip) ? null : "only the clip's assignee may mark its frames while it is with the annotator";
  if (clip.status === 'in_review') return who.upload || who.role !== 'annotator' ? null : 'only reviewers and managers may mark frames of a clip in review';
  return `nobody marks frames of a clip that is ${clip.status.replace('_', ' ')}`;
}

/** A revision of a layer: `gt` is the annotation itself; other sources (pred:*, ann:*, proposal) are imported material. */
export function mayPaint(who: Pusher, clip: ClipState, source: string): Refusal {
  if (source !== 'gt') return who.upload || who.role !== 'annotator' ? null : `only reviewers and managers may add ${source} layers`;
  if (WITH_ANNOTATOR.includes(clip.status)) return isAssignee(who, clip) ? null : "only the clip's assignee may paint its gt";
  if (clip.status === 'in_review') return who.upload || who.role === 'reviewer' ? null : 'only reviewers may correct the gt of a clip in review';
  return `nobody paints the gt of a clip that is ${clip.status.replace('_', ' ')}`;
}

const ANNOTATOR_STEPS: readonly ClipAction[] = ['start', 'submit', 'withdraw'];

/** Who may take a lifecycle step (whether it is valid from the status is `transition`'s answer; approving also needs the review gate). */
export function mayTakeStep(who: Pusher, clip: ClipState, action: ClipAction): Refusal {
  if (who.upload) return null;
  if (ANNOTATOR_STEPS.includes(action)) return isAssignee(who, clip) || who.role === 'manager' ? null : `only the clip's assignee or a manager may ${action}`;
  if (action === 'approve_override') return who.role === 'manager' ? null : 'only a project manager may approve with an override';
  return who.role === 'annotator' ? `only reviewers and managers may ${action.replace('_', ' ')}` : null;
}

export function mayGiveVerdict(who: Pusher, clip: ClipState): Refusal {
  if (!who.upload && who.role === 'annotator') return 'only reviewers and managers give frame verdicts';
  return clip.status === 'in_review' ? null : 'frame verdicts are given while the clip is in review';
}

/** Frame images: whoever adds frames or paints (reviewers only read them). */
export const mayPutBlob = (role: Role): Refusal => (role === 'reviewer' ? 'only managers and annotators upload frame images' : null);
