/**
 * Nothing is lost on leaving, and a failing save is said, never swallowed (docs/durability.md):
 * pending edits are written when the tab is hidden or closed, leaving while a save fails asks
 * first, and failed or stalled saves are announced.
 */
import { useEffect } from 'react';
import { notify } from '../../../workspace/notices';
import { pendingEditsPort } from '../../../workspace/journal';
import type { EditorSession } from '../../session/editorSession';
import type { PersistStatus } from '../../persistQueue';

/** Writes the session's pending edits when the tab is hidden or closed; asks before leaving would lose some. */
export function useSaveOnLeave(session: EditorSession): void {
  useEffect(() => {
    const flush = () => void session.flush().catch(() => undefined);
    const onVisibility = () => document.visibilityState === 'hidden' && flush();
    // pagehide: no waiting any more; start every write now (they commit even as the page goes).
    const leave = () => session.flushBeforeLeaving();
    // Leaving while a save is failing (or edits wait behind a write) would lose them: ask first.
    const warn = (e: BeforeUnloadEvent) => {
      if (!session.hasUnsavedEdits) return;
      e.preventDefault();
      e.returnValue = '';
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', leave);
    window.addEventListener('beforeunload', warn);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('beforeunload', warn);
    };
  }, [session]);
}

/** Announces a failed save (the queue retries it) and a save the database does not answer. */
export function useSaveFailureNotices(persist: PersistStatus): void {
  useEffect(() => {
    if (persist.state === 'error' && persist.error) {
      const kept = pendingEditsPort() ? ' Your unsaved edits are kept in the crash journal and saved at the next start if this tab closes;' : '';
      notify('error', `Saving failed (${persist.error}); retrying.${kept} free some space or keep this tab open.`);
    }
  }, [persist.state, persist.error]);

  // A save the browser's database does not answer: it may never land (docs/durability.md).
  useEffect(() => {
    if (!persist.stalled) return;
    const kept = pendingEditsPort()
      ? ' Your unsaved edits are kept in the crash journal; if it does not recover, reload the page and they are saved at the start.'
      : ' Keep this tab open; if it does not recover, export your work.';
    notify('error', `Saving is not answering: the browser's database has not finished a write for a while.${kept}`);
  }, [persist.stalled]);
}
