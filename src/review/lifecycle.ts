/**
 * The review lifecycle of a clip as a pure state machine:
 *
 *   todo → in progress → submitted → in review → approved (read-only) → reopen → in review
 *                           ↑              ↓
 *                           └── changes requested (with the reviewer's notes) → back to the annotator
 *
 * Each step is an action; `transition` validates it against the clip's current status and returns
 * the next status, or an error message. Approving also has to pass the review gate
 * (`reviewGate.ts`: a verdict on every frame, not one's own painting) unless it is the
 * `approve_override` step, whose note is the reason. The store side (`src/store/clipEvents.ts`)
 * applies a valid step and records who took it, when, and the note, in one transaction.
 */
import type { ClipStatus } from '../store/types';

export const CLIP_ACTIONS = ['start', 'submit', 'withdraw', 'start_review', 'approve', 'approve_override', 'request_changes', 'reopen'] as const;
export type ClipAction = (typeof CLIP_ACTIONS)[number];

interface ActionSpec {
  from: readonly ClipStatus[];
  to: ClipStatus;
  label: string;
  /** Who normally takes the step (for grouping buttons; not enforced: there are no accounts). */
  role: 'annotator' | 'reviewer';
  /** Why the step cannot go without a note, when it cannot; null when the note is optional. */
  noteRequired: string | null;
}

/** The steps that make a clip approved (both must pass the review gate, the override by its reason). */
export const APPROVAL_ACTIONS: readonly ClipAction[] = ['approve', 'approve_override'];

export const ACTION_SPECS: Record<ClipAction, ActionSpec> = {
  start: { from: ['todo'], to: 'in_progress', label: 'Start', role: 'annotator', noteRequired: null },
  submit: { from: ['todo', 'in_progress', 'changes_requested'], to: 'submitted', label: 'Submit for review', role: 'annotator', noteRequired: null },
  withdraw: { from: ['submitted'], to: 'in_progress', label: 'Withdraw', role: 'annotator', noteRequired: null },
  start_review: { from: ['submitted'], to: 'in_review', label: 'Start review', role: 'reviewer', noteRequired: null },
  approve: { from: ['in_review'], to: 'approved', label: 'Approve', role: 'reviewer', noteRequired: null },
  approve_override: {
    from: ['in_review'],
    to: 'approved',
    label: 'Approve with override…',
    role: 'reviewer',
    noteRequired: 'Say why the clip is approved without a full review (the reason is empty).',
  },
  request_changes: { from: ['in_review'], to: 'changes_requested', label: 'Request changes…', role: 'reviewer', noteRequired: 'Say what should change (the note is empty).' },
  reopen: { from: ['approved'], to: 'in_review', label: 'Reopen', role: 'reviewer', noteRequired: null },
};

export const STATUS_LABELS: Record<ClipStatus, string> = {
  todo: 'to do',
  in_progress: 'in progress',
  submitted: 'submitted',
  in_review: 'in review',
  approved: 'approved',
  changes_requested: 'changes requested',
};

export type TransitionResult = { ok: true; to: ClipStatus; note?: string } | { ok: false; error: string };

export const MAX_NOTE = 4000;

/** Validates one step: the action must be allowed from `from`, and a note given where required. */
export function transition(from: ClipStatus, action: ClipAction, note?: string): TransitionResult {
  const spec = (ACTION_SPECS as Partial<Record<string, ActionSpec>>)[action];
  if (!spec) return { ok: false, error: `Unknown review action "${action}".` };
  if (!spec.from.includes(from)) {
    return { ok: false, error: `Cannot "${spec.label.replace('…', '')}" a clip that is ${STATUS_LABELS[from]}.` };
  }
  const text = note?.trim() ?? '';
  if (spec.noteRequired && !text) return { ok: false, error: spec.noteRequired };
  if (text.length > MAX_NOTE) return { ok: false, error: `The note is ${text.length} characters long (at most ${MAX_NOTE}).` };
  return text ? { ok: true, to: spec.to, note: text } : { ok: true, to: spec.to };
}

/** The actions possible from a status, in lifecycle order (the buttons to show). */
export function availableActions(from: ClipStatus): ClipAction[] {
  return CLIP_ACTIONS.filter((a) => ACTION_SPECS[a].from.includes(from));
}

/** The latest "changes requested" note still in force (the clip is back with its annotator), if any. */
export function openChangeRequest<E extends { action: string; note?: string; by: string; at: number }>(
  status: ClipStatus,
  events: readonly E[],
): E | undefined {
  if (status !== 'changes_requested') return undefined;
  for (let i = events.length - 1; i >= 0; i--) if (events[i].action === 'request_changes') return events[i];
  return undefined;
}
