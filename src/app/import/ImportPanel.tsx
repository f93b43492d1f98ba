/**
 * Adds clips to a project: one or several videos (sampled at a chosen rate), a folder or zip of
 * frames, or a WhereToChange-layout folder or zip (detected by its JPEGImages_<rate>fps folders). Shows
 * progress and lets the user cancel; a failure names the file and the problem and leaves the project
 * unchanged. A verb or object that could not name a folder is pointed out as it is typed and
 * refused at import; a clip name already in the project gets a "-2" suffix, with a remark.
 */
import { useRef, useState } from 'react';
import { useDb } from '../../workspace/db';
import { notify, messageOf } from '../../workspace/notices';
import { storageChanged } from '../StorageMeter';
import { askPersistenceOnce } from '../storagePersistence';
import { IMAGE_EXTENSIONS } from '../../io/images/imageSequence';
import { ImportCancelled } from '../../io/importError';
import { describeOsc, isKnownVerb } from '../../taxonomy/osc';
import { oscChoiceProblem } from '../../io/clipDrafts';
import { VERBS, VERB_SPECS } from '../../taxonomy/verbs';
import { currentUserName } from '../../workspace/user';
import type { Project } from '../../store/types';
import { importFileList, importVideoFiles, importZipFile, type ImportOptions, type ImportProgress, type ImportResult } from './runImport';
import { DemoVideoButton } from '../demo/DemoVideoButton';
import { FilePick } from './FilePick';
import { useImportForm } from './useImportForm';

type Kind = 'video' | 'folder' | 'zip';

export function ImportPanel({ project }: { project: Project }) {
  const db = useDb();
  // Remembered per project (importFormMemory.ts): the form no longer resets to grating / carrot.
  const { verb, setVerb, noun, setNoun, actionable, setActionable, transformed, setTransformed, fps, setFps } = useImportForm(project.id, project.settings.sampleFps);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  const defaults = describeOsc(verb, noun || 'object');
  // Folder and zip imports in the WhereToChange layout take verb and object from folder names, so
  // only imports that use the form are refused for it (runImport checks again, after detection).
  const oscProblem = oscChoiceProblem({ verb, noun: noun || 'object' });

  const run = async (kind: Kind, files: File[]) => {
    if (abort.current) return;
    if (files.length === 0) {
      // A picked folder with no files (or only empty subfolders) arrives as an empty list; the
      // browser does not even give its name. Silence here read as "nothing happened".
      if (kind === 'folder') notify('error', `The folder you picked has no image files (looked for ${IMAGE_EXTENSIONS.map((e) => `.${e}`).join(', ')}); it holds no files at all.`);
      return;
    }
    if (kind === 'video' && oscProblem) {
      notify('error', `Nothing was imported. ${oscProblem}`);
      return;
    }
    // Importing is the first write worth keeping for many: ask now, while the user is acting.
    void askPersistenceOnce();
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ stage: 'Starting', done: 0, total: 1 });
    const options: ImportOptions = {
      ctx: { projectId: project.id, author: await currentUserName(db) },
      osc: { verb, noun: noun || 'object', actionable, transformed },
      sampleFps: fps,
      signal: controller.signal,
      onProgress: setProgress,
    };
    const first = files[0];
    const folderName = (first as File & { webkitRelativePath?: string }).webkitRelativePath?.split('/')[0] || first.name;
    try {
      let result: ImportResult;
      if (kind === 'video') result = await importVideoFiles(db, files, options);
      else if (kind === 'zip') result = await importZipFile(db, first, options);
      else result = await importFileList(db, files, folderName, options);
      const names = result.clips.map((c) => `"${c.name}" (${c.frameCount} frames)`).join(', ');
      notify('info', `Imported ${names}.`);
      for (const r of result.remarks) notify('warn', r);
    } catch (err) {
      if (!(err instanceof ImportCancelled)) notify('error', `Import failed, nothing was saved. ${messageOf(err)}`);
    } finally {
      abort.current = null;
      setProgress(null);
      storageChanged();
    }
  };

  const busy = progress !== null;
  const field = 'rounded bg-zinc-950 px-2 py-1.5 text-sm';
  return (
    <section className="mt-6 rounded-lg border border-zinc-800 bg-zinc-900 p-4" aria-label="Import clips">
      <h2 className="font-semibold">Add clips</h2>
      <div className="mt-3 grid grid-cols-[auto_1fr_auto_1fr] items-center gap-x-3 gap-y-2 text-sm">
        <label htmlFor="imp-verb">Verb</label>
        <select id="imp-verb" className={field} value={isKnownVerb(verb) ? verb : '__other'} onChange={(e) => setVerb(e.target.value === '__other' ? '' : e.target.value)}>
          {VERBS.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
          <option value="__other">other…</option>
        </select>
        <label htmlFor="imp-noun">Object</label>
        <input id="imp-noun" list="imp-nouns" className={field} placeholder="what is changing, e.g. carrot" value={noun} onChange={(e) => setNoun(e.target.value)} />
        <datalist id="imp-nouns">
          {isKnownVerb(verb) && [...VERB_SPECS[verb].seen, ...VERB_SPECS[verb].novel].map((n) => <option key={n} value={n} />)}
        </datalist>
        {!isKnownVerb(verb) && (
          <>
            <label htmlFor="imp-verb-free">Verb name</label>
            <input id="imp-verb-free" className={field} placeholder="one word, e.g. mashing" value={verb} onChange={(e) => setVerb(e.target.value)} />
            <span />
            <span />
          </>
        )}
        <label htmlFor="imp-act">Actionable</label>
        <input id="imp-act" className={field} placeholder={defaults.actionable} value={actionable} onChange={(e) => setActionable(e.target.value)} />
        <label htmlFor="imp-trf">Transformed</label>
        <input id="imp-trf" className={field} placeholder={defaults.transformed} value={transformed} onChange={(e) => setTransformed(e.target.value)} />
        <label htmlFor="imp-fps">Video sampling</label>
        <span className="flex items-center gap-2">
          <input id="imp-fps" type="number" min={0.1} max={60} step={0.1} className={`${field} w-24`} value={fps} onChange={(e) => setFps(Number(e.target.value))} />
          fps
          <span className="text-xs text-zinc-500">(a video is never sampled above its own rate)</span>
        </span>
      </div>
      {oscProblem && (
        <p className="mt-2 text-sm text-red-400" data-testid="import-osc-problem">
          {oscProblem} Videos and plain frame folders are refused until it is fixed.
        </p>
      )}
      <p className="mt-2 flex items-center justify-between text-xs text-zinc-500">
        <span>WhereToChange folders and zips take verb and object from their &lt;verb&gt;_&lt;object&gt; folder names.</span>
        <DemoVideoButton />
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <FilePick label="Video files…" testId="import-video" accept="video/*,.mp4,.webm,.mkv,.mov" multiple disabled={busy} onFiles={(f) => run('video', f)} />
        <FilePick label="Folder of frames / WhereToChange…" testId="import-folder" directory disabled={busy} onFiles={(f) => run('folder', f)} />
        <FilePick label="Zip of frames / WhereToChange…" testId="import-zip" accept=".zip,application/zip" disabled={busy} onFiles={(f) => run('zip', f)} />
      </div>
      {progress && (
        <div className="mt-3 flex items-center gap-3 text-sm" data-testid="import-progress">
          <span className="w-64 truncate text-zinc-400">{progress.stage}</span>
          <progress className="flex-1" max={Math.max(1, progress.total)} value={progress.done} />
          <span className="w-20 text-right tabular-nums text-zinc-400">
            {progress.done}/{progress.total}
          </span>
          <button className="rounded border border-zinc-700 px-3 py-1 hover:bg-zinc-800" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        </div>
      )}
    </section>
  );
}
