/**
 * "Predictions for the whole project" on the project page: one folder or zip with a folder of PNG
 * masks per clip, matched by clip name (src/io/sources/projectPredictions.ts), and a report of what matched,
 * what did not and every error. All or nothing: with an error nothing is imported.
 */
import { useState } from 'react';
import { useDb } from '../../workspace/db';
import { useUserName } from '../../workspace/user';
import { notify, messageOf } from '../../workspace/notices';
import { fromFileList, type VirtualFile } from '../../io/files/virtualFile';
import { readZip } from '../../io/files/zipArchive';
import { listLayerSources } from '../../store/layers';
import type { Clip } from '../../store/types';
import { predictionTarget } from '../../io/sources/predictions';
import { commitProjectPredictions, readProjectPredictions, type ProjectPredictionReport } from '../../io/sources/projectPredictions';

const HINT =
  "One folder of PNG masks per clip, named after the clip, each mask named after its frame: the WhereToChange export of a prediction (<verb>_<object>/pred/masks/<clip>/frame0000.png), DAVIS Annotations/<clip>/, or <model>/<clip>/. Frame images and metadata are skipped.";

interface Outcome {
  report: ProjectPredictionReport;
  /** Set when the prediction was written. */
  written: { clips: number; frames: number } | null;
  /** Why nothing was written, when it was not. */
  refused: string | null;
}

export function ProjectPredictionImport({ clips }: { clips: readonly Clip[] }) {
  const db = useDb();
  const user = useUserName(db);
  const [name, setName] = useState('model');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const run = async (read: () => Promise<{ files: VirtualFile[]; sourceName: string }>) => {
    setBusy(true);
    setOutcome(null);
    try {
      const { files, sourceName } = await read();
      const targets = await Promise.all(clips.map((c) => predictionTarget(db, c.id)));
      const report = await readProjectPredictions(files, sourceName, targets, name);
      if (report.errors.length > 0) {
        setOutcome({ report, written: null, refused: `${report.errors.length} ${report.errors.length === 1 ? 'error' : 'errors'}` });
        return;
      }
      if (report.matched.length === 0) {
        setOutcome({ report, written: null, refused: 'no folder is named after a clip of this project' });
        return;
      }
      const holding = [];
      for (const m of report.matched) if ((await listLayerSources(db, m.clipId)).includes(report.source)) holding.push(m.clipName);
      const replace = holding.length > 0 && window.confirm(`Replace ${report.source} in ${holding.length} clip(s) (${holding.slice(0, 3).join(', ')}${holding.length > 3 ? ', …' : ''})?`);
      if (holding.length > 0 && !replace) {
        setOutcome({ report, written: null, refused: `${report.source} exists in ${holding.length} clip(s) and was kept` });
        return;
      }
      const written = await commitProjectPredictions(db, report, { by: user, replace });
      setOutcome({ report, written, refused: null });
    } catch (err) {
      notify('error', `Could not import the prediction: ${messageOf(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const fromFolder = (list: FileList | null) => {
    if (!list || list.length === 0) return Promise.resolve();
    const files = fromFileList(list);
    return run(async () => ({ files, sourceName: files[0].path.split('/')[0] || 'folder' }));
  };
  const fromZip = (list: FileList | null) => {
    const file = list?.[0];
    if (!file) return Promise.resolve();
    return run(async () => ({ files: await readZip(file, file.name, (p) => p.toLowerCase().endsWith('.png')), sourceName: file.name }));
  };

  const button = `cursor-pointer rounded bg-zinc-800 px-2 py-1 hover:bg-zinc-700 ${busy ? 'pointer-events-none opacity-50' : ''}`;
  return (
    <section aria-label="Predictions for the whole project" className="mt-4 rounded border border-zinc-800 p-3 text-sm">
      <h2 className="font-semibold">Predictions for the whole project</h2>
      <p className="mt-1 text-xs text-zinc-400">{HINT} All or nothing: with any error, nothing is imported.</p>
      <div className="mt-2 flex flex-wrap items-center gap-2 text-xs">
        <label className="flex items-center gap-1">
          name
          <input aria-label="Project prediction name" className="w-28 rounded bg-zinc-950 px-1 py-0.5" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className={button} title={HINT}>
          Import folder…
          <input type="file" className="hidden" data-testid="project-prediction-folder" {...{ webkitdirectory: '', directory: '' }} onChange={(e) => void fromFolder(e.target.files).finally(() => (e.target.value = ''))} />
        </label>
        <label className={button} title={HINT}>
          Import zip…
          <input type="file" accept=".zip,application/zip" className="hidden" data-testid="project-prediction-zip" onChange={(e) => void fromZip(e.target.files).finally(() => (e.target.value = ''))} />
        </label>
        {busy && <span>Reading…</span>}
      </div>
      {outcome && <Report outcome={outcome} />}
    </section>
  );
}

function Report({ outcome }: { outcome: Outcome }) {
  const { report, written, refused } = outcome;
  const list = (label: string, items: readonly string[], className = '') =>
    items.length > 0 && (
      <div className="mt-1">
        <p className="text-zinc-400">{label}</p>
        <ul aria-label={label} className={`ml-4 list-disc ${className}`}>
          {items.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
      </div>
    );
  return (
    <div data-testid="project-prediction-report" data-state={written ? 'imported' : 'refused'} className="mt-2 text-xs">
      <p data-testid="project-prediction-summary" className={written ? 'text-emerald-400' : 'text-amber-400'}>
        {written
          ? `Imported ${report.source} into ${written.clips} ${written.clips === 1 ? 'clip' : 'clips'} (${written.frames} frames).`
          : `Nothing was imported (${refused}).`}
      </p>
      {list(
        'Clips matched',
        report.matched.map((m) => `${m.clipName} ← ${m.folder} (${m.draft.layers.size} frames)`),
      )}
      {list('Folders that matched no clip', report.unmatchedFolders)}
      {list('Clips without a prediction (scored as empty)', report.clipsWithout)}
      {list('Errors', report.errors, 'text-red-400')}
      {list('Warnings', report.warnings)}
    </div>
  );
}
