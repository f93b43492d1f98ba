/**
 * Automatic flags of the clip's ground truth in the review panel: computed on request (decoded in
 * slices, never freezing the editor), each linking to its frame and region, dismissible with a reason.
 */
import { useEffect, useRef, useState } from 'react';
import type { SpocDb } from '../../store/db';
import type { Clip } from '../../store/types';
import { notify, messageOf } from '../../workspace/notices';
import type { Flag } from '../flags';
import { saveFlagDismissal, undoFlagDismissal, type ClipFlags } from '../flagStore';
import { loadClipFlagsInChunks } from '../flagLoader';
import { useReviewUi } from './reviewUiState';

interface Props {
  db: SpocDb;
  clip: Clip;
  user: string;
  onPick: (frameIndex: number) => void;
}

const TONE = { error: 'text-red-400', warning: 'text-amber-300', info: 'text-zinc-400' } as const;

export function FlagsPanel({ db, clip, user, onPick }: Props) {
  const [flags, setFlags] = useState<ClipFlags | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const [showDismissed, setShowDismissed] = useState(false);
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const run = async () => {
    running.current?.abort();
    const ac = new AbortController();
    running.current = ac;
    setProgress('decoding…');
    try {
      const result = await loadClipFlagsInChunks(db, clip.id, 'gt', { signal: ac.signal, onProgress: (n, total) => setProgress(`decoding ${n} / ${total}…`) });
      if (!ac.signal.aborted) setFlags(result);
    } catch (err) {
      if (!ac.signal.aborted) notify('error', `Could not check the clip: ${messageOf(err)}`);
    } finally {
      if (running.current === ac) setProgress(null);
    }
  };

  const pick = (f: Flag) => {
    useReviewUi.getState().set({ flagFocus: f.box ? { frameIndex: f.frameIndex, box: f.box } : null });
    onPick(f.frameIndex);
  };

  return (
    <section aria-label="Flags">
      <div className="flex items-center gap-2">
        <h3 className="font-semibold">Flags</h3>
        {flags && (
          <span className="text-xs text-zinc-400" data-testid="flag-count">
            {flags.open.length} open · {flags.dismissed.length} dismissed
          </span>
        )}
        <span className="flex-1" />
        <button className="rounded bg-zinc-800 px-2 py-0.5 text-xs hover:bg-zinc-700" disabled={progress !== null} onClick={() => void run()}>
          {progress ?? (flags ? 'Re-check' : 'Check clip')}
        </button>
      </div>
      {flags && (
        <ul className="mt-2 flex flex-col gap-1">
          {flags.open.map((f) => (
            <FlagRow
              key={f.id}
              flag={f}
              onPick={() => pick(f)}
              onDismiss={(reason) =>
                saveFlagDismissal(db, f, reason, { clipId: clip.id, by: user })
                  .then(run)
                  .catch((err: unknown) => notify('error', messageOf(err)))
              }
            />
          ))}
          {flags.open.length === 0 && <li className="text-xs text-zinc-500">No open flags.</li>}
          {flags.dismissed.length > 0 && (
            <li>
              <button className="text-xs underline" onClick={() => setShowDismissed(!showDismissed)}>
                {showDismissed ? 'hide' : 'show'} dismissed
              </button>
            </li>
          )}
          {showDismissed &&
            flags.dismissed.map(({ flag, dismissal }) => (
              <li key={flag.id} className="text-xs text-zinc-500">
                {flag.message} — dismissed by {dismissal.by}: “{dismissal.reason}”{' '}
                <button
                  className="underline"
                  onClick={() =>
                    void undoFlagDismissal(db, clip.id, flag.id)
                      .then(run)
                      .catch((err: unknown) => notify('error', messageOf(err)))
                  }
                >
                  undo
                </button>
              </li>
            ))}
        </ul>
      )}
    </section>
  );
}

function FlagRow({ flag, onPick, onDismiss }: { flag: Flag; onPick: () => void; onDismiss: (reason: string) => Promise<unknown> }) {
  const [dismissing, setDismissing] = useState(false);
  const [reason, setReason] = useState('');
  return (
    <li className="rounded bg-zinc-950 p-1.5 text-xs" data-testid="flag" data-kind={flag.kind} data-frame={flag.frameIndex}>
      <button className="w-full text-left" onClick={onPick}>
        <span className={TONE[flag.severity]}>{flag.kind.replace('_', ' ')}</span> · {flag.message}
      </button>
      {dismissing ? (
        <form
          className="mt-1 flex gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            void onDismiss(reason);
          }}
        >
          <input aria-label="Dismiss reason" autoFocus placeholder="why is this fine?" className="min-w-0 flex-1 rounded bg-zinc-900 px-1" value={reason} onChange={(e) => setReason(e.target.value)} />
          <button disabled={!reason.trim()} className="underline disabled:opacity-50">
            dismiss
          </button>
        </form>
      ) : (
        <button className="mt-0.5 text-zinc-500 underline" onClick={() => setDismissing(true)}>
          dismiss…
        </button>
      )}
    </li>
  );
}
