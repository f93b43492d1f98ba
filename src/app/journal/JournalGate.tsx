/**
 * Stands between the store and every view: when the start-up check found the store missing changes
 * the crash journal holds (the browser deleted a damaged database, docs/durability.md), nothing may
 * write until the person chooses — restore, download the journal as bundles, or start empty. When
 * the store is healthy it starts the journal's upkeep (kept edits replayed, compaction) and says
 * when the journal cannot be written.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useDb } from '../../workspace/db';
import { journalState, setJournalState, startJournalUpkeep } from '../../workspace/journal';
import { messageOf, notify } from '../../workspace/notices';
import { checkStore, discardJournal, restoreFromJournal, type Journal, type JournalVerdict } from '../../store/journal';
import type { SpocDb } from '../../store/db';
import { downloadBlob } from '../../workspace/download';
import { journalBundles } from './recoveryBundles';
import { recoverGestureDrafts, type RecoveredGesture } from '../../annotator/session/recoverGestures';
import { withClipWriteLock } from '../../workspace/clipWriteLock';

export function JournalGate({ children }: { children: ReactNode }) {
  const db = useDb();
  const [verdict, setVerdict] = useState(() => journalState().verdict);
  const journal = journalState().journal;

  // Work the last session could not finish is saved before any view opens a clip: edits kept in
  // the journal first, then strokes a dying browser cut off (docs/durability.md).
  const [finishing, setFinishing] = useState(true);
  const writable = !journal || verdict?.kind === 'healthy';
  useEffect(() => {
    if (!writable) return;
    let live = true;
    const upkeep =
      journal && verdict
        ? startJournalUpkeep(db, journal, verdict, (replayed) => {
            const revisions = replayed.reduce((n, r) => n + r.revisions, 0);
            notify('info', `Saved ${revisions} edit${revisions === 1 ? '' : 's'} that could not be saved before the page was left (kept in the crash journal).`, { appWide: true });
          }).catch((err: unknown) => notify('error', `The crash journal could not be checked: ${messageOf(err)}`, { appWide: true }))
        : Promise.resolve();
    void upkeep
      .then(() => recoverGestureDrafts(db, (clip, fn) => withClipWriteLock([clip], `Cannot finish a stroke on ${clip.name}`, fn)))
      .then(reportRecovered, (err: unknown) => notify('error', `Strokes cut off by the last crash could not be checked: ${messageOf(err)}`, { appWide: true }))
      .finally(() => live && setFinishing(false));
    return () => {
      live = false;
    };
  }, [db, journal, verdict, writable]);

  useEffect(() => {
    if (!journal) return;
    let warned = journal.status.error !== null;
    return journal.subscribe((s) => {
      if (s.error && !warned) {
        warned = true;
        notify('warn', `Crash protection is behind: the journal could not be written (${s.error}). Your work is saved in the browser's database; the journal catches up when space allows.`, { appWide: true });
      } else if (!s.error) warned = false;
    });
  }, [journal]);

  if (journal && verdict?.kind === 'store-behind') {
    return <RestorePanel db={db} journal={journal} verdict={verdict} onDone={(v) => setVerdict(v)} />;
  }
  if (finishing) return <p className="p-6 text-sm text-slate-500" data-testid="finishing-work">Opening…</p>;
  return <>{children}</>;
}

function reportRecovered(recovered: RecoveredGesture[]): void {
  const saved = recovered.filter((r) => r.outcome === 'saved');
  if (saved.length > 0) {
    const where = [...new Set(saved.map((r) => `${r.clipName ?? r.clipId} frame ${r.frameIndex + 1}`))].join(', ');
    // A warning, so it stays: the browser died, and the person should see what came back.
    notify('warn', `Saved ${saved.length} stroke${saved.length === 1 ? '' : 's'} the browser cut off before it could store ${saved.length === 1 ? 'it' : 'them'} (${where}); undo removes ${saved.length === 1 ? 'it' : 'them'}.`, { appWide: true });
  }
  const waiting = recovered.filter((r) => r.outcome === 'waiting');
  if (waiting.length > 0) {
    notify('warn', `${waiting.length} stroke${waiting.length === 1 ? '' : 's'} cut off by the last crash could not be saved yet (${waiting[0]!.reason}); ${waiting.length === 1 ? 'it is' : 'they are'} tried again at the next start.`, { appWide: true });
  }
}

function RestorePanel({
  db,
  journal,
  verdict,
  onDone,
}: {
  db: SpocDb;
  journal: Journal;
  verdict: Extract<JournalVerdict, { kind: 'store-behind' }>;
  onDone: (v: JournalVerdict) => void;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const lost = verdict.storeProjects === 0 && verdict.storeSeq === 0;

  const finish = async () => {
    const next = await checkStore(db, journal);
    setJournalState({ journal, verdict: next });
    onDone(next);
  };

  const restore = async () => {
    setBusy('Restoring…');
    try {
      const r = await restoreFromJournal(db, journal, {
        mode: verdict.mode,
        fromSeq: verdict.storeSeq,
        onProgress: (p) => setBusy(`Restoring… ${p.done} of ${p.total}`),
      });
      const [projects, clips] = await Promise.all([db.projects.count(), db.clips.count()]);
      const skipped = r.skipped.length > 0 ? ` ${r.skipped.length} damaged journal file(s) were skipped: ${r.skipped.join(', ')}.` : '';
      notify(r.skipped.length > 0 ? 'warn' : 'info', `Restored from the crash journal: ${projects} project${projects === 1 ? '' : 's'}, ${clips} clip${clips === 1 ? '' : 's'}.${skipped}`, { appWide: true });
      await finish();
    } catch (err) {
      notify('error', `Restoring from the journal failed: ${messageOf(err)}. The journal is unchanged; free some space and try again, or download it as bundles.`, { appWide: true });
      setBusy(null);
    }
  };

  const download = async () => {
    setBusy('Preparing bundles…');
    try {
      const bundles = await journalBundles(journal, setBusy);
      for (const b of bundles) downloadBlob(b.blob, b.name);
      notify('info', `Downloaded ${bundles.length} project bundle${bundles.length === 1 ? '' : 's'} from the journal.`, { appWide: true });
    } catch (err) {
      notify('error', `Could not build bundles from the journal: ${messageOf(err)}`, { appWide: true });
    }
    setBusy(null);
  };

  const startEmpty = async () => {
    if (!window.confirm('Start without restoring? The journal’s copy of the missing work is discarded for good. Download it as bundles first if unsure.')) return;
    setBusy('Starting…');
    try {
      await discardJournal(db, journal);
      await finish();
    } catch (err) {
      notify('error', `Could not discard the journal: ${messageOf(err)}`, { appWide: true });
      setBusy(null);
    }
  };

  return (
    <section role="alertdialog" aria-labelledby="journal-restore-title" className="mx-auto mt-12 max-w-2xl rounded border border-amber-600 bg-amber-950/40 p-6">
      <h1 id="journal-restore-title" className="text-lg font-semibold">
        {lost ? 'Your projects are missing from this browser’s database' : 'This browser’s database is missing recent changes'}
      </h1>
      <p className="mt-3 text-sm text-zinc-200">
        {lost
          ? 'The browser’s database is empty, but SPOC Studio’s crash journal holds your work. This happens when the browser deletes a database it found damaged after a crash.'
          : `The database holds changes up to #${verdict.storeSeq}; the crash journal holds changes up to #${verdict.journalSeq}.`}{' '}
        The journal holds {verdict.projects > 0 ? `${verdict.projects} project(s) and ${verdict.clips} clip(s) in snapshots, and ` : ''}
        changes up to #{verdict.journalSeq}. Nothing has been changed yet.
      </p>
      {busy ? (
        <p role="status" className="mt-4 text-sm text-zinc-300">
          {busy}
        </p>
      ) : (
        <div className="mt-5 flex flex-wrap gap-3">
          <button className="rounded bg-amber-600 px-3 py-1.5 font-medium text-black hover:bg-amber-500" onClick={() => void restore()}>
            Restore from the journal
          </button>
          <button className="rounded border border-zinc-600 px-3 py-1.5 hover:bg-zinc-800" onClick={() => void download()}>
            Download the journal as bundles
          </button>
          <button className="rounded px-3 py-1.5 text-zinc-400 hover:text-white" onClick={() => void startEmpty()}>
            Start without restoring
          </button>
        </div>
      )}
    </section>
  );
}
