/**
 * Reviewer mode: a toggle in the review bar, and over the canvas a verdict strip (one cell per
 * frame: accepted, rejected, open), accept / reject for the frame on show, one-key stepping to the
 * next unreviewed frame, the annotator's version of the frame (read-only) and the diff overlay of
 * what the reviewer added and removed per state, with its legend and counts.
 *
 * Keys (reviewer mode on), actions in the editor's one action table (reviewActions.ts), so the
 * palette and the shortcut sheet list them and the editor's key handler runs them:
 *   J / Shift+J  next / previous frame without a verdict
 *   A            accept the frame and step on
 *   R            reject the frame: asks for a note, then steps on
 *   V            toggle the annotator's version;  D  toggle the diff overlay
 * While the annotator's version shows, the editor session is read-only for that reason
 * (EditorSession.setViewOnly): every edit, key or pointer, is refused by the session itself.
 */
import { useEffect, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { SpocDb } from '../../store/db';
import type { Clip } from '../../store/types';
import { listFrameVerdicts, putFrameVerdict } from '../../store/frameVerdicts';
import { notify, messageOf } from '../../workspace/notices';
import { useUserName } from '../../workspace/user';
import { loadFrameReviewDiff } from '../annotatorVersionLoader';
import { nextUnreviewed, verdictTally } from '../verdicts';
import { DIFF_COLOURS, DIFF_LABELS } from './diffImage';
import { useReviewer } from './reviewerState';
import type { EditorSession } from '../../annotator/session/editorSession';
import { usePublishRunners, usePublishScope } from '../../annotator/ui/roomActions';
import { REVIEWER_ACTION_IDS } from './reviewActions';

/** The session's read-only reason while the annotator's version shows. */
export const ANNOTATOR_VERSION_READ_ONLY = "showing the annotator's version (V to go back)";

const toggleMode = () => {
  const on = useReviewer.getState().on;
  useReviewer.getState().set(on ? { on: false, showAnnotator: false, showDiff: false, rejecting: null } : { on: true, showDiff: true });
};

/** The review bar's toggle. */
export function ReviewerToggle() {
  const on = useReviewer((s) => s.on);
  usePublishRunners({ [REVIEWER_ACTION_IDS.toggle]: { disabled: null, run: toggleMode } });
  return (
    <button
      className={`rounded px-2 py-0.5 text-xs ${on ? 'bg-violet-700 hover:bg-violet-600' : 'bg-zinc-800 hover:bg-zinc-700'}`}
      aria-pressed={on}
      title="Reviewer mode: J next unreviewed frame (Shift+J back), A accept, R reject, V annotator's version, D diff"
      onClick={toggleMode}
    >
      Reviewer mode
    </button>
  );
}

interface Props {
  db: SpocDb;
  clip: Clip;
  session: EditorSession;
  frameIndex: number;
  goToFrame: (k: number) => void;
}

/** Everything reviewer mode puts over the canvas; renders nothing while the mode is off. */
export function ReviewerOverlay(props: Props) {
  const on = useReviewer((s) => s.on);
  useEffect(() => () => useReviewer.getState().set({ on: false, showAnnotator: false, showDiff: false, rejecting: null }), [props.clip.id]);
  return on ? <ReviewerPanel {...props} /> : null;
}

function ReviewerPanel({ db, clip, session, frameIndex, goToFrame }: Props) {
  const user = useUserName(db);
  const verdicts = useLiveQuery(() => listFrameVerdicts(db, clip.id), [db, clip.id]);
  const review = useLiveQuery(() => loadFrameReviewDiff(db, clip, frameIndex), [db, clip.id, clip.width, clip.height, frameIndex]);
  const showAnnotator = useReviewer((s) => s.showAnnotator);
  const showDiff = useReviewer((s) => s.showDiff);
  const rejecting = useReviewer((s) => s.rejecting);
  const diffHidden = useReviewer((s) => s.diffHidden);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);

  // A ref, not state: two quick presses of A must not both pass the guard before a re-render.
  const inFlight = useRef(false);
  const record = async (k: number, verdict: 'accept' | 'reject' | 'clear', text?: string) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      const stored = await putFrameVerdict(db, { clipId: clip.id, frameIndex: k, verdict, by: user, note: text });
      // Step on from the frame just judged (counted as reviewed already), unless the reviewer has
      // moved elsewhere meanwhile.
      if (verdict !== 'clear' && latest.current.frameIndex === k) {
        const after = new Map(latest.current.verdicts ?? []);
        after.set(k, stored);
        const next = nextUnreviewed(clip.frameCount, after, k);
        if (next !== null) goToFrame(next);
      }
    } catch (err) {
      notify('error', `Could not record the verdict: ${messageOf(err)}`);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };
  // What the key handler reads; it is registered once, so its place among the other capture-phase
  // handlers (proposals, the AI tool) stays put.
  const latest = useRef({ verdicts, frameIndex, record, goToFrame });
  useEffect(() => {
    latest.current = { verdicts, frameIndex, record, goToFrame };
  });

  // The keys: actions in the editor's table, run by its key handler, the palette and the buttons.
  const step = (dir: 1 | -1) => {
    const next = nextUnreviewed(clip.frameCount, verdicts ?? new Map(), frameIndex, dir);
    if (next === null) notify('info', 'Every frame has a verdict.');
    else goToFrame(next);
  };
  const startReject = () => {
    setNote('');
    useReviewer.getState().set({ rejecting: frameIndex });
  };
  const saving = busy ? 'a verdict is being saved' : null;
  usePublishRunners({
    [REVIEWER_ACTION_IDS.next]: { disabled: null, run: () => step(1) },
    [REVIEWER_ACTION_IDS.previous]: { disabled: null, run: () => step(-1) },
    [REVIEWER_ACTION_IDS.accept]: { disabled: saving, run: () => void latest.current.record(latest.current.frameIndex, 'accept') },
    [REVIEWER_ACTION_IDS.reject]: { disabled: saving, run: startReject },
    [REVIEWER_ACTION_IDS.annotatorVersion]: { disabled: null, run: () => useReviewer.getState().set({ showAnnotator: !useReviewer.getState().showAnnotator }) },
    [REVIEWER_ACTION_IDS.diff]: { disabled: null, run: () => useReviewer.getState().set({ showDiff: !useReviewer.getState().showDiff }) },
  });

  // Reviewer mode's keys (J, A, R, V, D) act while it is on, before the editor's own.
  usePublishScope('reviewer', true);
  // The annotator's version is read-only: the session refuses every edit while it shows.
  useEffect(() => {
    if (!showAnnotator) return;
    session.setViewOnly(ANNOTATOR_VERSION_READ_ONLY);
    return () => session.setViewOnly(null);
  }, [session, showAnnotator]);

  // The gt masks make way for the annotator's version while it shows: declared in reviewMasks.ts.
  // The version or the diff is drawn by ReviewerImageOverlay (a canvas overlay), from the diff loaded here.
  useEffect(() => {
    useReviewer.getState().set({ review: review ?? null });
  }, [review]);
  useEffect(() => () => useReviewer.getState().set({ review: null }), []);

  const v = verdicts ?? new Map();
  const tally = verdictTally(clip.frameCount, v);
  const mine = v.get(frameIndex);
  const d = review && review.frameIndex === frameIndex ? review.diff : null;
  const counts = d ? { actAdded: d.act.added, actRemoved: d.act.removed, trfAdded: d.trf.added, trfRemoved: d.trf.removed } : null;
  const swatch = (k: keyof typeof DIFF_COLOURS, hatched: boolean) => {
    const [r, g, b] = DIFF_COLOURS[k];
    const c = `rgb(${r} ${g} ${b})`;
    return { background: hatched ? `repeating-linear-gradient(45deg, ${c} 0 2px, transparent 2px 4px)` : c };
  };

  return (
    <>
      <div className="absolute left-2 right-2 top-2 z-20 flex flex-col gap-1 rounded border border-zinc-700 bg-zinc-900/90 p-2 text-xs" data-testid="reviewer-panel" data-frame={frameIndex}>
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-violet-300">Reviewer mode</span>
          {showAnnotator && (
            <span className="rounded bg-amber-900/60 px-1 text-amber-200" data-testid="annotator-version-readonly" title="The session refuses every edit while the annotator's version shows">
              annotator&rsquo;s version · read-only (V to go back)
            </span>
          )}
          <span data-testid="verdict-tally">
            {tally.accepted} accepted · {tally.rejected} rejected · {tally.open} open
          </span>
          <span className="flex-1" />
          <span data-testid="frame-verdict" data-verdict={mine?.verdict ?? 'open'}>
            frame {frameIndex + 1}: {mine ? `${mine.verdict === 'accept' ? 'accepted' : 'rejected'} by ${mine.by}${mine.note ? ` — “${mine.note}”` : ''}` : 'no verdict'}
          </span>
          <button disabled={busy} className="rounded bg-emerald-700 px-2 py-0.5 hover:bg-emerald-600" onClick={() => void record(frameIndex, 'accept')}>
            Accept (A)
          </button>
          <button disabled={busy} className="rounded bg-red-800 px-2 py-0.5 hover:bg-red-700" onClick={startReject}>
            Reject… (R)
          </button>
          {mine && (
            <button disabled={busy} className="underline" onClick={() => void record(frameIndex, 'clear')}>
              clear
            </button>
          )}
          <button className="rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700" onClick={() => step(1)}>
            Next unreviewed (J)
          </button>
        </div>
        <div className="flex h-3 gap-px" role="list" aria-label="Frame verdicts">
          {Array.from({ length: clip.frameCount }, (_, k) => {
            const verdict = v.get(k)?.verdict ?? 'open';
            const colour = verdict === 'accept' ? 'bg-emerald-500' : verdict === 'reject' ? 'bg-red-500' : 'bg-zinc-700';
            return (
              <button
                key={k}
                role="listitem"
                data-testid="verdict-cell"
                data-frame={k}
                data-verdict={verdict}
                title={`frame ${k + 1}: ${verdict}`}
                className={`min-w-0 flex-1 ${colour} ${k === frameIndex ? 'outline outline-2 outline-white' : ''}`}
                onClick={() => goToFrame(k)}
              />
            );
          })}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={showAnnotator} disabled={!review} onChange={(e) => useReviewer.getState().set({ showAnnotator: e.target.checked })} /> annotator&apos;s version (V)
          </label>
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={showDiff} disabled={!review} onChange={(e) => useReviewer.getState().set({ showDiff: e.target.checked })} /> diff (D)
          </label>
          {review === null && <span className="text-zinc-400">not submitted yet: no annotator&apos;s version to compare with</span>}
          {review && (
            <span className="text-zinc-400" data-testid="annotator-of-frame">
              handed in by {review.baseline.annotator}
              {review.reviewers.length > 0 ? `; corrected by ${review.reviewers.join(', ')}` : '; not corrected'}
            </span>
          )}
        </div>
        {counts && (
          <div className="flex flex-wrap items-center gap-3" data-testid="diff-legend" data-frame={frameIndex}>
            {DIFF_LABELS.map(([k, label]) => {
              const hidden = diffHidden.includes(k);
              return (
                <button
                  key={k}
                  aria-pressed={!hidden}
                  title={hidden ? 'show on the frame' : 'hide from the frame'}
                  className={`flex items-center gap-1 rounded px-1 hover:bg-zinc-800 ${hidden ? 'opacity-40' : ''}`}
                  onClick={() => useReviewer.getState().set({ diffHidden: hidden ? diffHidden.filter((x) => x !== k) : [...diffHidden, k] })}
                >
                  <span className="inline-block h-3 w-3 border border-zinc-600" style={swatch(k, k.endsWith('Removed'))} />
                  {label} <b data-testid={`diff-${k}`}>{counts[k]}</b>
                </button>
              );
            })}
            <span className="text-zinc-500">px</span>
          </div>
        )}
      </div>
      {rejecting !== null && (
        <form
          role="dialog"
          aria-label="Reject frame"
          className="absolute left-1/2 top-28 z-30 flex w-80 -translate-x-1/2 flex-col gap-2 rounded border border-zinc-700 bg-zinc-900 p-3 text-sm shadow-lg"
          onSubmit={(e) => {
            e.preventDefault();
            const k = rejecting;
            useReviewer.getState().set({ rejecting: null });
            void record(k, 'reject', note);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') useReviewer.getState().set({ rejecting: null });
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.requestSubmit();
            }
          }}
        >
          <label className="text-xs text-zinc-400" htmlFor="reject-note">
            Reject frame {rejecting + 1}: what is wrong? (optional; Enter to reject, Esc to cancel)
          </label>
          <textarea id="reject-note" autoFocus rows={3} className="rounded bg-zinc-950 p-2" value={note} onChange={(e) => setNote(e.target.value)} />
          <div className="flex gap-2">
            <button className="rounded bg-red-800 px-2 py-1 text-xs hover:bg-red-700">Reject frame</button>
            <button type="button" className="text-xs underline" onClick={() => useReviewer.getState().set({ rejecting: null })}>
              cancel
            </button>
          </div>
        </form>
      )}
    </>
  );
}
