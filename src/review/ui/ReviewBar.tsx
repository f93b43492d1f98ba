/**
 * The editor header's review controls: the clip's status, the lifecycle steps possible from it, and
 * the review gate's prompts — the list of unanswered frames before submitting, the reason for an
 * approval override, and on an approved clip who approved it and when, with Reopen.
 */
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { SpocDb } from '../../store/db';
import type { Clip, ClipEvent } from '../../store/types';
import { listClipEvents } from '../../store/clipEvents';
import { listFrameVerdicts } from '../../store/frameVerdicts';
import { notify, messageOf } from '../../workspace/notices';
import { userNames } from '../../workspace/user';
import { ACTION_SPECS, APPROVAL_ACTIONS, STATUS_LABELS, availableActions, type ClipAction } from '../lifecycle';
import { approveClip, takeClipStep } from '../reviewSteps';
import { loadUnansweredFrames } from '../reviewGateLoader';
import { submitWarning } from '../reviewGate';
import { rejectedFramesNote } from '../verdicts';
import { usePublishRunners, type Runner } from '../../annotator/ui/roomActions';
import { STEP_ACTION_IDS } from './reviewActions';

/** The open prompt: a note for a step that needs one, or the submit warning. */
type Prompt = { kind: 'note'; action: 'request_changes' | 'approve_override' } | { kind: 'submit'; warning: string };

const NOTE_PROMPTS = {
  request_changes: { title: 'Request changes', label: 'What should the annotator change?', button: 'Send back to the annotator' },
  approve_override: { title: 'Approve with override', label: 'Why approve without a verdict on every frame, or your own painting?', button: 'Approve with override' },
} as const;

export function ReviewBar({ db, clip }: { db: SpocDb; clip: Clip }) {
  const [prompt, setPrompt] = useState<Prompt | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const verdicts = useLiveQuery(() => listFrameVerdicts(db, clip.id), [db, clip.id]);
  const events = useLiveQuery(() => listClipEvents(db, clip.id), [db, clip.id]);
  // The name in force when the step is taken (the header field may have changed it a moment ago).
  const who = () => userNames(db).current;

  const run = async (action: ClipAction, text?: string) => {
    setBusy(true);
    try {
      // Approving goes through the review gate (verdicts on every frame, not one's own painting).
      if (action === 'approve') await approveClip(db, clip.id, who(), { note: text });
      else if (action === 'approve_override') await approveClip(db, clip.id, who(), { override: text ?? '' });
      else await takeClipStep(db, clip.id, action, who(), text);
      setPrompt(null);
      setNote('');
    } catch (err) {
      notify('error', messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  // Submitting with frames nobody answered is allowed, after seeing which they are.
  const submit = async () => {
    setBusy(true);
    try {
      const warning = submitWarning(await loadUnansweredFrames(db, clip.id));
      if (warning) return setPrompt({ kind: 'submit', warning });
    } catch (err) {
      return notify('error', `Could not check the frames of "${clip.name}": ${messageOf(err)}`);
    } finally {
      setBusy(false);
    }
    await run('submit');
  };

  // "Start" is implicit (the first edit starts work); withdraw and reopen stay available but quiet.
  const actions = availableActions(clip.status).filter((a) => a !== 'start');
  // A button and its palette action (reviewActions.ts) take the same path.
  const begin = (a: ClipAction) => {
    if (a === 'submit') return void submit();
    if (a !== 'request_changes' && a !== 'approve_override') return void run(a);
    // A change request starts from the list of rejected frames and their notes.
    if (a === 'request_changes' && !note.trim() && verdicts) setNote(rejectedFramesNote(verdicts));
    setPrompt({ kind: 'note', action: a });
  };
  const runners: Record<string, Runner> = {};
  for (const [step, id] of Object.entries(STEP_ACTION_IDS) as [ClipAction, string][]) {
    const disabled = !(actions as ClipAction[]).includes(step) ? `not while the clip is “${STATUS_LABELS[clip.status]}”` : busy ? 'a review step is under way' : null;
    runners[id] = { disabled, run: () => begin(step) };
  }
  usePublishRunners(runners);
  return (
    <span className="relative flex items-center gap-2" data-testid="review-bar">
      <span className="rounded bg-zinc-800 px-2 py-0.5 text-xs" data-testid="clip-status" data-status={clip.status}>
        {STATUS_LABELS[clip.status]}
      </span>
      {clip.status === 'approved' && <ApprovedBanner events={events ?? []} />}
      {actions.map((a) => (
        <button
          key={a}
          disabled={busy}
          className={`rounded px-2 py-0.5 text-xs ${a === 'approve' ? 'bg-emerald-700 hover:bg-emerald-600' : a === 'withdraw' || a === 'reopen' || a === 'approve_override' ? 'bg-zinc-800 hover:bg-zinc-700' : 'bg-sky-700 hover:bg-sky-600'}`}
          onClick={() => begin(a)}
        >
          {ACTION_SPECS[a].label}
        </button>
      ))}
      {prompt?.kind === 'note' && (
        <form
          className="absolute right-0 top-7 z-20 flex w-80 flex-col gap-2 rounded border border-zinc-700 bg-zinc-900 p-3 shadow-lg"
          aria-label={NOTE_PROMPTS[prompt.action].title}
          onSubmit={(e) => {
            e.preventDefault();
            void run(prompt.action, note);
          }}
        >
          <label className="whitespace-normal text-xs text-zinc-400" htmlFor="review-note">
            {NOTE_PROMPTS[prompt.action].label}
          </label>
          <textarea id="review-note" autoFocus rows={3} className="rounded bg-zinc-950 p-2 text-sm" value={note} onChange={(e) => setNote(e.target.value)} />
          <div className="flex gap-2">
            <button disabled={busy || !note.trim()} className="rounded bg-amber-700 px-2 py-1 text-xs hover:bg-amber-600 disabled:opacity-50">
              {NOTE_PROMPTS[prompt.action].button}
            </button>
            <button type="button" className="text-xs underline" onClick={() => setPrompt(null)}>
              cancel
            </button>
          </div>
        </form>
      )}
      {prompt?.kind === 'submit' && (
        <form
          className="absolute right-0 top-7 z-20 flex w-80 flex-col gap-2 whitespace-normal rounded border border-amber-700 bg-zinc-900 p-3 text-xs shadow-lg"
          aria-label="Submit with unanswered frames"
          data-testid="submit-warning"
          onSubmit={(e) => {
            e.preventDefault();
            void run('submit');
          }}
        >
          <p>{prompt.warning}</p>
          <p className="text-zinc-400">For each: paint it, ignore it with a reason, or tick “Nothing to paint here” beside the frame when it rightly holds neither state; or submit anyway and let the reviewer see it blank.</p>
          <div className="flex gap-2">
            <button disabled={busy} autoFocus className="rounded bg-amber-700 px-2 py-1 hover:bg-amber-600 disabled:opacity-50">
              Submit anyway
            </button>
            <button type="button" className="underline" onClick={() => setPrompt(null)}>
              Keep annotating
            </button>
          </div>
        </form>
      )}
    </span>
  );
}

/** "Approved by rev on 25/11/2026 — reopen to edit", from the last approving step. */
function ApprovedBanner({ events }: { events: readonly ClipEvent[] }) {
  const last = events.findLast((e) => APPROVAL_ACTIONS.includes(e.action as ClipAction) && e.to === 'approved');
  if (!last) return null; // an approved status from before the history was kept
  return (
    <span
      className="rounded bg-emerald-900 px-2 py-0.5 text-xs"
      data-testid="approved-banner"
      data-by={last.by}
      data-override={last.action === 'approve_override'}
      title={last.action === 'approve_override' ? `Approved with an override: ${last.note ?? ''}` : undefined}
    >
      Approved by {last.by} on {new Date(last.at).toLocaleDateString()}
      {last.action === 'approve_override' ? ' (override)' : ''} — reopen to edit
    </span>
  );
}
