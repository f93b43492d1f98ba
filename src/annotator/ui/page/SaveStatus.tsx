import type { PersistStatus } from '../../persistQueue';
import type { SessionState } from '../../session/editorSession';

/** The clip header's save status, and, while saves fail, whether closing the tab now would cost anything. */
export function SaveStatus({ status, kept }: { status: PersistStatus; kept: SessionState['unsavedKept'] }) {
  const base =
    status.stalled
      ? 'saving is not answering…'
      : status.state === 'error'
      ? `save failed, retrying (${status.retries})`
      : status.state === 'idle'
        ? 'all changes saved'
        : status.retries > 0
          ? `retrying a failed save (${status.retries})…`
          : 'saving…';
  const text =
    kept === 'kept'
      ? `${base} · kept in the crash journal`
      : kept === 'keeping'
        ? `${base} · keeping in the crash journal…`
        : kept === 'not-kept'
          ? `${base} · not kept anywhere: free some space`
          : base;
  const tone = status.state === 'error' || status.retries > 0 || status.stalled ? 'text-red-400' : status.state === 'idle' ? 'text-zinc-500' : 'text-amber-300';
  return (
    <span className={`text-xs ${tone}`} data-testid="save-status" data-state={status.state} data-retries={status.retries} data-stalled={status.stalled} data-kept={kept ?? 'none'}>
      {text}
    </span>
  );
}
