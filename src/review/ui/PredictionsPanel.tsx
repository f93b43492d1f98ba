/**
 * Predictions in the review panel: import a folder of PNG masks or a COCO JSON as `pred:<name>`,
 * choose the source and the overlay mode (GT only, prediction only, both, error map), and read the
 * error counts of the frame on show.
 */
import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { SpocDb } from '../../store/db';
import type { Clip } from '../../store/types';
import { listLayerSources } from '../../store/layers';
import { fromFileList } from '../../io/files/virtualFile';
import { notify, messageOf } from '../../workspace/notices';
import { importPredictionCoco, importPredictionPngs } from '../../io/sources/predictions';
import { ERROR_COLOURS, ERROR_CLASS } from '../errorMap';
import { useReviewUi, type OverlayMode } from './reviewUiState';
import { errorTotals } from './overlayImage';
import { WorstIouList } from './WorstIouList';
import { SideBySideToggle } from './SideBySideView';

const MODES: [OverlayMode, string][] = [
  ['gt', 'GT only'],
  ['pred', 'prediction only'],
  ['both', 'both'],
  ['error', 'error map'],
];

const swatch = (cls: number) => {
  const [r, g, b] = ERROR_COLOURS[cls as keyof typeof ERROR_COLOURS];
  return `rgb(${r} ${g} ${b})`;
};

/** Which files the import takes: without it a newcomer cannot guess the frame names (docs/review.md). */
const PREDICTION_FILES_HINT =
  "One PNG mask per frame, named after the clip's frames (a video's are frame0000.png, frame0001.png, …; an export of the clip lists them), or a COCO RLE JSON";

export function PredictionsPanel({ db, clip, user, frameIndex, onPick }: { db: SpocDb; clip: Clip; user: string; frameIndex: number; onPick?: (frameIndex: number) => void }) {
  const sources = useLiveQuery(() => listLayerSources(db, clip.id), [db, clip.id]) ?? [];
  const preds = sources.filter((s): s is `pred:${string}` => s.startsWith('pred:')).sort();
  const overlay = useReviewUi((s) => s.overlay);
  const predSource = useReviewUi((s) => s.predSource);
  const errors = useReviewUi((s) => s.errors);
  const [name, setName] = useState('model');
  const [busy, setBusy] = useState(false);
  // A new clip starts from its own first prediction; a just-imported source is chosen before the list shows it.
  useEffect(() => useReviewUi.getState().set({ predSource: null, overlay: 'gt', errors: null }), [clip.id]);
  const chosen = predSource ?? preds[0] ?? null;
  useEffect(() => {
    if (chosen !== predSource) useReviewUi.getState().set({ predSource: chosen });
  }, [chosen, predSource]);

  const importFiles = async (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const files = fromFileList(list);
    setBusy(true);
    try {
      const coco = files.find((f) => f.path.toLowerCase().endsWith('.json'));
      const replace = preds.some((p) => p === `pred:${name.trim().replace(/^pred:/, '')}`) && window.confirm(`Replace the existing prediction "${name}"?`);
      const result = coco
        ? await importPredictionCoco(db, clip.id, new Uint8Array(await coco.blob.arrayBuffer()), coco.path, name, { by: user, replace })
        : await importPredictionPngs(db, clip.id, files, files[0].path.split('/')[0] || 'masks', name, { by: user, replace });
      useReviewUi.getState().set({ predSource: result.source, overlay: 'error' });
      notify('info', `Imported ${result.source}: ${result.frames} frames.${result.warnings.length ? ' ' + result.warnings.join(' ') : ''}`);
    } catch (err) {
      notify('error', `Could not import the prediction: ${messageOf(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const totals = errors && errors.frameIndex === frameIndex && errors.source === chosen ? errorTotals(errors.counts) : null;
  return (
    <section aria-label="Predictions">
      <h3 className="font-semibold">Predictions</h3>
      <div className="mt-1 flex flex-wrap items-center gap-1 text-xs">
        <input aria-label="Prediction name" className="w-24 rounded bg-zinc-950 px-1 py-0.5" value={name} onChange={(e) => setName(e.target.value)} />
        <label
          className={`cursor-pointer rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700 ${busy ? 'pointer-events-none opacity-50' : ''}`}
          title={PREDICTION_FILES_HINT}
        >
          Import predictions…
          <input type="file" multiple accept=".png,.json,image/png,application/json" className="hidden" data-testid="prediction-files" onChange={(e) => void importFiles(e.target.files).finally(() => (e.target.value = ''))} />
        </label>
        <label className={`cursor-pointer rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700 ${busy ? 'pointer-events-none opacity-50' : ''}`}>
          folder…
          <input type="file" className="hidden" data-testid="prediction-folder" {...{ webkitdirectory: '', directory: '' }} onChange={(e) => void importFiles(e.target.files).finally(() => (e.target.value = ''))} />
        </label>
        <SideBySideToggle clipId={clip.id} />
      </div>
      {preds.length > 0 && (
        <div className="mt-2 flex flex-col gap-1 text-xs">
          <select aria-label="Prediction source" className="rounded bg-zinc-950 px-1 py-0.5" value={chosen ?? ''} onChange={(e) => useReviewUi.getState().set({ predSource: e.target.value as `pred:${string}` })}>
            {preds.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
          <div className="flex gap-1" role="group" aria-label="Overlay">
            {MODES.map(([m, label]) => (
              <button key={m} aria-pressed={overlay === m} className={`flex-1 rounded px-1 py-0.5 ${overlay === m ? 'bg-sky-700' : 'bg-zinc-800 hover:bg-zinc-700'}`} onClick={() => useReviewUi.getState().set({ overlay: m })}>
                {label}
              </button>
            ))}
          </div>
          {overlay === 'error' && totals && (
            <p data-testid="error-counts" data-frame={frameIndex}>
              <span style={{ color: swatch(ERROR_CLASS.fpAct) }}>■</span> false positive <b data-testid="error-fp">{totals.fp}</b> ·{' '}
              <span style={{ color: swatch(ERROR_CLASS.fnAct) }}>■</span> false negative <b data-testid="error-fn">{totals.fn}</b> ·{' '}
              <span style={{ color: swatch(ERROR_CLASS.actAsTrf) }}>■</span> wrong state <b data-testid="error-wrong">{totals.wrong}</b> px
            </p>
          )}
          {chosen && <WorstIouList db={db} clip={clip} source={chosen} frameIndex={frameIndex} onPick={onPick} />}
        </div>
      )}
    </section>
  );
}
