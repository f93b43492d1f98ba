/** The editor header's review controls: the clip's status and the lifecycle steps possible from it. */
import { useState } from 'react';
import type { SpocDb } from '../../store/db';
import type { Clip } from '../../store/types';
import { notify, messageOf } from '../../workspace/notices';
import { ACTION_SPECS, STATUS_LABELS, availableActions, type ClipAction } from '../lifecycle';
import { takeClipStep } from '../reviewSteps';
import { useUserName } from '../../workspace/user';
import { useLiveQuery } from 'dexie-react-hooks';
import { listFrameVerdicts } from '../../store/frameVerdicts';
import { approveClip, rejectedFramesNote } from '../verdicts';

export function ReviewBar({ db, clip }: { db: SpocDb; clip: Clip }) {
  const user = useUserName(db);
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const verdicts = useLiveQuery(() => listFrameVerdicts(db, clip.id), [db, clip.id]);
  const run = async (action: ClipAction, text?: string) => {
    setBusy(true);
    try {
      // Approving goes through approveClip, which refuses while a frame stands rejected.
      if (action === 'approve') await approveClip(db, clip.id, user, text);
      else await takeClipStep(db, clip.id, action, user, text);
      setAsking(false);
      setNote('');
    } catch (err) {
      notify('error', messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  // "Start" is implicit (the first edit starts work); withdraw and reopen stay available but quiet.
  const actions = availableActions(clip.status).filter((a) => a !== 'start');
  return (
    <span className="relative flex items-center gap-2" data-testid="review-bar">
      <span className="rounded bg-zinc-800 px-2 py-0.5 text-xs" data-testid="clip-status" data-status={clip.status}>
        {STATUS_LABELS[clip.status]}
      </span>
      {actions.map((a) => (
        <button
          key={a}
          disabled={busy}
          className={`rounded px-2 py-0.5 text-xs ${a === 'approve' ? 'bg-emerald-700 hover:bg-emerald-600' : a === 'withdraw' || a === 'reopen' ? 'bg-zinc-800 hover:bg-zinc-700' : 'bg-sky-700 hover:bg-sky-600'}`}
          onClick={() => {
            if (!ACTION_SPECS[a].noteRequired) return void run(a);
            // A change request starts from the list of rejected frames and their notes.
            if (a === 'request_changes' && !note.trim() && verdicts) setNote(rejectedFramesNote(verdicts));
            setAsking(true);
          }}
        >
          {ACTION_SPECS[a].label}
        </button>
      ))}
      {asking && (
        <form
          className="absolute right-0 top-7 z-20 flex w-80 flex-col gap-2 rounded border border-zinc-700 bg-zinc-900 p-3 shadow-lg"
          aria-label="Request changes"
          onSubmit={(e) => {
            e.preventDefault();
            void run('request_changes', note);
          }}
        >
          <label className="text-xs text-zinc-400" htmlFor="change-note">
            What should the annotator change?
          </label>
          <textarea id="change-note" autoFocus rows={3} className="rounded bg-zinc-950 p-2 text-sm" value={note} onChange={(e) => setNote(e.target.value)} />
          <div className="flex gap-2">
            <button disabled={busy || !note.trim()} className="rounded bg-amber-700 px-2 py-1 text-xs hover:bg-amber-600 disabled:opacity-50">
              Send back to the annotator
            </button>
            <button type="button" className="text-xs underline" onClick={() => setAsking(false)}>
              cancel
            </button>
          </div>
        </form>
      )}
    </span>
  );
}
