/**
 * Moving a whole project between machines and people: "Export bundle" streams the project into
 * `<project>.spoc.zip` (to a file picked with the File System Access API when the browser has it,
 * else a download built from Blob parts), with progress and cancel; "Import bundle…" checks a
 * bundle completely, asks about clips whose work differs from this project's (keep mine / take
 * theirs / keep both), then writes everything in one transaction. See src/io/bundle.
 */
import { useRef, useState } from 'react';
import { useDb } from '../../workspace/db';
import { notify, messageOf } from '../../workspace/notices';
import { navigate } from '../../workspace/router';
import { storageChanged } from '../StorageMeter';
import {
  BlobSink,
  BundleCancelled,
  bundleFileName,
  exportBundle,
  importBundle,
  writableSink,
  type BundleImportResult,
  type BundleProgress,
  type BundleSink,
  type ClipConflict,
  type ConflictChoice,
} from '../../io/bundle';
import type { Clip, Project } from '../../store/types';

type SavePicker = (options: { suggestedName: string; types: { description: string; accept: Record<string, string[]> }[] }) => Promise<{
  createWritable(): Promise<WritableStream<Uint8Array>>;
}>;

interface PendingConflict {
  clip: Clip;
  conflict: ClipConflict;
  resolve: (choice: ConflictChoice) => void;
  reject: (err: unknown) => void;
}

/** Import with progress, cancel and the conflict dialog; shared by the project page and the projects list. */
function useBundleImport() {
  const db = useDb();
  const [progress, setProgress] = useState<BundleProgress | null>(null);
  const [pending, setPending] = useState<PendingConflict | null>(null);
  const abort = useRef<AbortController | null>(null);
  const sticky = useRef<ConflictChoice | null>(null);

  const run = async (file: File, projectId?: string): Promise<BundleImportResult | null> => {
    if (abort.current) return null;
    const controller = new AbortController();
    abort.current = controller;
    sticky.current = null;
    setProgress({ stage: 'Starting', done: 0, total: 1, bytes: 0 });
    try {
      const result = await importBundle(db, file, {
        projectId,
        signal: controller.signal,
        onProgress: setProgress,
        onConflict: (clip, conflict) =>
          sticky.current ??
          new Promise<ConflictChoice>((resolve, reject) => {
            setPending({ clip, conflict, resolve, reject });
          }),
      });
      const count = (outcome: string) => result.clips.filter((c) => c.outcome === outcome).length;
      const parts = [
        [count('added'), 'added'],
        [count('identical'), 'already here'],
        [count('took-theirs'), 'replaced by theirs'],
        [count('kept-mine'), 'kept yours'],
        [count('added-sources'), 'merged as sources'],
        [count('added-copy'), 'added as copies'],
      ]
        .filter(([n]) => Number(n) > 0)
        .map(([n, what]) => `${n} ${what}`);
      notify('info', `Imported ${file.name} into "${result.project.name}": ${parts.join(', ') || 'no clips'}.`);
      for (const c of result.clips) if (c.outcome === 'added-sources' && c.detail) notify('info', `Clip "${c.name}": ${c.detail}.`);
      for (const w of result.warnings) notify('warn', w);
      return result;
    } catch (err) {
      if (!(err instanceof BundleCancelled)) notify('error', `Import failed, nothing was saved. ${messageOf(err)}`);
      return null;
    } finally {
      abort.current = null;
      setProgress(null);
      setPending(null);
      storageChanged();
    }
  };

  const answer = (choice: ConflictChoice, forAll: boolean) => {
    if (!pending) return;
    if (forAll) sticky.current = choice;
    pending.resolve(choice);
    setPending(null);
  };
  const cancel = () => {
    abort.current?.abort();
    pending?.reject(new BundleCancelled('import'));
    setPending(null);
  };

  const ui = (
    <>
      {progress && <ProgressRow testId="bundle-import-progress" progress={progress} onCancel={cancel} />}
      {pending && <ConflictDialog pending={pending} onAnswer={answer} onCancel={cancel} />}
    </>
  );
  return { run, busy: progress !== null, ui };
}

export function ProjectTransfer({ project }: { project: Project }) {
  const db = useDb();
  const [exporting, setExporting] = useState<BundleProgress | null>(null);
  const exportAbort = useRef<AbortController | null>(null);
  const importer = useBundleImport();

  const runExport = async () => {
    if (exportAbort.current) return;
    const name = bundleFileName(project.name);
    const picker = (window as unknown as { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
    let sink: BundleSink;
    let blobSink: BlobSink | null = null;
    if (picker) {
      // Asked first, while the click still counts as a user gesture; the bundle streams to disk.
      try {
        const handle = await picker({ suggestedName: name, types: [{ description: 'SPOC Studio project bundle', accept: { 'application/zip': ['.zip'] } }] });
        sink = writableSink(await handle.createWritable());
      } catch (err) {
        if (err instanceof DOMException && err.name === 'AbortError') return; // picker closed
        notify('error', `Export failed: ${messageOf(err)}`);
        return;
      }
    } else {
      blobSink = new BlobSink();
      sink = blobSink;
    }
    const controller = new AbortController();
    exportAbort.current = controller;
    setExporting({ stage: 'Starting', done: 0, total: 1, bytes: 0 });
    try {
      const summary = await exportBundle(db, project.id, sink, { signal: controller.signal, onProgress: setExporting });
      if (blobSink) download(blobSink.blob(), name);
      notify('info', `Exported "${project.name}": ${summary.counts.clips} clips, ${summary.counts.frames} frames, ${(summary.bytes / 2 ** 20).toFixed(1)} MB.`);
    } catch (err) {
      if (!(err instanceof BundleCancelled)) notify('error', `Export failed: ${messageOf(err)}`);
    } finally {
      exportAbort.current = null;
      setExporting(null);
    }
  };

  return (
    <section className="mt-4 rounded-lg border border-zinc-800 bg-zinc-900 p-4" aria-label="Project bundle">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="mr-2 font-semibold">Project bundle</h2>
        <button
          className="rounded bg-sky-800 px-3 py-1.5 text-sm hover:bg-sky-700 disabled:opacity-50"
          disabled={exporting !== null || importer.busy}
          onClick={() => void runExport()}
        >
          Export bundle
        </button>
        <BundlePick label="Import bundle…" disabled={exporting !== null || importer.busy} onFile={(f) => void importer.run(f, project.id)} />
        <span className="text-xs text-zinc-500">Everything of this project in one .spoc.zip: frames, every source, history, reviews, settings.</span>
      </div>
      {exporting && <ProgressRow testId="bundle-export-progress" progress={exporting} onCancel={() => exportAbort.current?.abort()} />}
      {importer.ui}
    </section>
  );
}

/** "Import bundle…" for the projects list: creates the bundle's project (or merges into it when it exists here) and opens it. */
export function ImportBundleButton() {
  const importer = useBundleImport();
  return (
    <div>
      <BundlePick
        label="Import bundle…"
        disabled={importer.busy}
        onFile={async (f) => {
          const result = await importer.run(f);
          if (result) navigate({ name: 'project', projectId: result.project.id });
        }}
      />
      {importer.ui}
    </div>
  );
}

function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function BundlePick(props: { label: string; disabled: boolean; onFile: (f: File) => void }) {
  return (
    <label className={`cursor-pointer rounded bg-sky-800 px-3 py-1.5 text-sm hover:bg-sky-700 ${props.disabled ? 'pointer-events-none opacity-50' : ''}`}>
      {props.label}
      <input
        type="file"
        className="hidden"
        data-testid="import-bundle"
        accept=".zip,application/zip"
        disabled={props.disabled}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) props.onFile(file);
        }}
      />
    </label>
  );
}

function ProgressRow({ progress, onCancel, testId }: { progress: BundleProgress; onCancel: () => void; testId: string }) {
  return (
    <div className="mt-3 flex items-center gap-3 text-sm" data-testid={testId}>
      <span className="w-64 truncate text-zinc-400">{progress.stage}</span>
      <progress className="flex-1" max={Math.max(1, progress.total)} value={progress.done} />
      <span className="w-28 text-right tabular-nums text-zinc-400">{(progress.bytes / 2 ** 20).toFixed(1)} MB</span>
      <button className="rounded border border-zinc-700 px-3 py-1 hover:bg-zinc-800" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

const RELATION: Record<ClipConflict['relation'], string> = {
  'theirs-newer': 'The bundle continues the history of your clip (it has everything you did, and more).',
  'mine-newer': 'Your clip continues the history in the bundle (you have everything it has, and more).',
  'same-history': 'Both have the same editing history; other details differ.',
  diverged: 'The two were edited separately since they last matched.',
};

function ConflictDialog({ pending, onAnswer, onCancel }: { pending: PendingConflict; onAnswer: (c: ConflictChoice, forAll: boolean) => void; onCancel: () => void }) {
  const [forAll, setForAll] = useState(false);
  const { conflict } = pending;
  const side = (s: ClipConflict['mine']) =>
    `${s.status.replace('_', ' ')} · ${s.paintedFrames} painted frames · ${s.revisions} edits${s.lastEdit ? ` (last by ${s.lastEdit.author}, ${new Date(s.lastEdit.at).toLocaleString()})` : ''}`;
  const bothLabel =
    conflict.both.kind === 'copy'
      ? `Keep both (theirs as a new clip "${conflict.both.name}")`
      : conflict.both.sources.length > 0
        ? `Keep both (theirs as ${conflict.both.sources.map((s) => s.to).join(', ')})`
        : 'Keep both';
  return (
    <div className="fixed inset-0 z-40 flex items-center justify-center bg-black/60" role="dialog" aria-modal="true" aria-label="Clip differs" data-testid="bundle-conflict">
      <div className="w-[36rem] rounded-lg border border-zinc-700 bg-zinc-900 p-4 text-sm">
        <h2 className="text-lg font-semibold">“{conflict.name}” differs from the bundle</h2>
        <p className="mt-1 text-zinc-400">{RELATION[conflict.relation]}</p>
        <ul className="mt-2 list-disc pl-5 text-zinc-300">
          {conflict.differences.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
        <dl className="mt-3 grid grid-cols-[5rem_1fr] gap-1 text-xs text-zinc-400">
          <dt>Yours</dt>
          <dd>{side(conflict.mine)}</dd>
          <dt>Theirs</dt>
          <dd>{side(conflict.theirs)}</dd>
        </dl>
        <div className="mt-4 flex flex-wrap gap-2">
          <button className="rounded bg-zinc-700 px-3 py-1.5 hover:bg-zinc-600" onClick={() => onAnswer('mine', forAll)}>
            Keep mine
          </button>
          <button className="rounded bg-zinc-700 px-3 py-1.5 hover:bg-zinc-600" onClick={() => onAnswer('theirs', forAll)}>
            Take theirs
          </button>
          <button className="rounded bg-sky-800 px-3 py-1.5 hover:bg-sky-700" onClick={() => onAnswer('both', forAll)}>
            {bothLabel}
          </button>
          <button className="ml-auto rounded border border-zinc-700 px-3 py-1.5 hover:bg-zinc-800" onClick={onCancel}>
            Cancel import
          </button>
        </div>
        <label className="mt-3 flex items-center gap-2 text-xs text-zinc-400">
          <input type="checkbox" checked={forAll} onChange={(e) => setForAll(e.target.checked)} />
          Same answer for the other clips that differ
        </label>
      </div>
    </div>
  );
}
