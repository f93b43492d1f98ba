/**
 * Agreement between two annotations of the clip, in the review panel: import a second annotator's
 * masks as `ann:<name>` (PNG files / folder / COCO JSON, read by the prediction importer), compare
 * A (gt unless chosen otherwise) with B frame by frame (IoU per state and for the object, disputed
 * pixels; metrics/agreement.ts), jump to a frame from the sorted list, show the disputed pixels in
 * the side-by-side view, and settle the frame on show: take A, take B or merge into gt — ONE
 * undoable edit through the editor session, recorded as a revision by the reviewer.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { SpocDb } from '../../store/db';
import type { Clip, LayerSource } from '../../store/types';
import { getLayer, listLayers } from '../../store/layers';
import { listFrames } from '../../store/frames';
import type { EditorSession } from '../../annotator/session/editorSession';
import { fromFileList } from '../../io/files/virtualFile';
import { scoreClips, type CountedClip } from '../../metrics/spoc';
import { notify, messageOf } from '../../workspace/notices';
import { useUserName } from '../../workspace/user';
import { importAnnotationCoco, importAnnotationPngs } from '../../io/sources/annotations';
import { agreementRows, sortAgreement, type AgreementCache, type AgreementRow, type AgreementSort } from '../agreement/agreementRows';
import { type MergeRule, type Resolution } from '../agreement/resolve';
import { applyPick } from '../agreement/applyPick';
import { useCompareUi, useCompared, type CompareChoice } from './compareUiState';
import { layerMap } from './overlayImage';

interface Props {
  db: SpocDb;
  clip: Clip;
  session: EditorSession;
  frameIndex: number;
  onPick: (k: number) => void;
  /** The clip's layer sources, live (the editor's slot context). */
  sources: readonly LayerSource[];
}

const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : '—');

export function AgreementPanel({ db, clip, session, frameIndex, onPick, sources }: Props) {
  const user = useUserName(db);
  const rule = useCompareUi((s) => s.rule);
  const { a, b, options, disputes, sideBySide } = useCompared(clip.id, sources);
  const choose = (patch: Partial<CompareChoice>) => useCompareUi.getState().choose(clip.id, patch);
  const [name, setName] = useState('annotator 2');
  const [busy, setBusy] = useState(false);
  const [sort, setSort] = useState<AgreementSort>('iou');

  // Both sources' layers and the frames, live; rows recounted only for frames whose layers changed.
  const input = useLiveQuery(async () => {
    if (!b) return null;
    const [frames, la, lb] = await Promise.all([listFrames(db, clip.id), listLayers(db, clip.id, a), listLayers(db, clip.id, b)]);
    return { frames, a: { source: a, layers: la }, b: { source: b, layers: lb } };
  }, [db, clip.id, a, b]);
  const cache = useRef<AgreementCache>(new Map());
  const [rows, setRows] = useState<{ key: string; rows: AgreementRow[] } | null>(null);
  useEffect(() => {
    if (!input) return;
    const abort = new AbortController();
    const key = `${input.a.source}|${input.b.source}`;
    agreementRows({ size: { width: clip.width, height: clip.height }, ...input }, { cache: cache.current, signal: abort.signal }).then(
      (r) => setRows({ key, rows: r }),
      (err: unknown) => abort.signal.aborted || notify('error', `Could not compare ${key.replace('|', ' with ')}: ${messageOf(err)}`),
    );
    return () => abort.abort();
  }, [input, clip.width, clip.height]);
  const shown = rows && b && rows.key === `${a}|${b}` ? rows.rows : null;
  const sorted = useMemo(() => (shown ? sortAgreement(shown, sort) : []), [shown, sort]);
  const summary = useMemo(() => {
    if (!shown) return null;
    const asClip: CountedClip = { id: 'agreement', verb: '', noun: '', subset: 'seen', frames: shown.map((r) => ({ counts: r.counts, missingPred: false })) };
    return { pooled: scoreClips([asClip], 'clip-pooled'), compared: shown.filter((r) => r.counts).length, disputed: shown.reduce((s, r) => s + r.disputed, 0) };
  }, [shown]);

  const importFiles = async (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const files = fromFileList(list);
    setBusy(true);
    try {
      const coco = files.find((f) => f.path.toLowerCase().endsWith('.json'));
      const exists = sources.includes(`ann:${name.trim().replace(/^ann:/, '')}`);
      const replace = exists && window.confirm(`Replace the existing second annotation "${name}"?`);
      const result = coco
        ? await importAnnotationCoco(db, clip.id, new Uint8Array(await coco.blob.arrayBuffer()), coco.path, name, { by: user, replace })
        : await importAnnotationPngs(db, clip.id, files, files[0].path.split('/')[0] || 'masks', name, { by: user, replace });
      choose({ b: result.source });
      notify('info', `Imported ${result.source}: ${result.frames} frames.${result.warnings.length ? ' ' + result.warnings.join(' ') : ''}`);
    } catch (err) {
      notify('error', `Could not import the second annotation: ${messageOf(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const current = shown?.find((r) => r.index === frameIndex) ?? null;
  // A frame one side has no mask for (or that is ignored) is not compared, and picking from a
  // missing mask would silently empty gt: nothing to pick there.
  const canResolve = b !== null && !session.snapshot.readOnly && !current?.skipped;
  const resolve = async (resolution: Resolution) => {
    if (!b) return;
    const k = frameIndex;
    const size = { width: clip.width, height: clip.height };
    // gt is read by the edit itself, as the editor holds it (its latest stroke may not be stored yet).
    const read = async (s: LayerSource) => (s === 'gt' ? null : ((await getLayer(db, clip.id, s, k)) ?? null));
    const [la, lb] = await Promise.all([read(a), read(b)]);
    if ((a !== 'gt' && !la) || (b !== 'gt' && !lb)) return notify('error', `Frame ${k + 1}: ${!lb ? b : a} has no mask here; nothing was changed.`);
    const side = (source: LayerSource, layer: typeof la) => (source === 'gt' ? { source } : { source, map: layerMap(layer, size) });
    const outcome = await applyPick(session, k, { a: side(a, la), b: side(b, lb) }, resolution);
    if (outcome.status === 'refused') notify('error', `Frame ${k + 1}: ${outcome.reason}.`);
    else if (outcome.status === 'unchanged') notify('info', `Frame ${k + 1}: gt already holds that; nothing changed.`);
  };
  const guard = (p: Promise<unknown>) => p.catch((err: unknown) => notify('error', messageOf(err)));
  const setRule = (patch: Partial<MergeRule>) => useCompareUi.getState().setRule({ ...rule, ...patch });

  return (
    <section aria-label="Agreement" data-testid="agreement-panel">
      <h3 className="font-semibold">Agreement</h3>
      <div className="mt-1 flex flex-wrap items-center gap-1 text-xs">
        <input aria-label="Annotator name" className="w-24 rounded bg-zinc-950 px-1 py-0.5" value={name} onChange={(e) => setName(e.target.value)} />
        <label className={`cursor-pointer rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700 ${busy ? 'pointer-events-none opacity-50' : ''}`}>
          Import a second annotation…
          <input type="file" multiple accept=".png,.json,image/png,application/json" className="hidden" data-testid="annotation-files" onChange={(e) => void importFiles(e.target.files).finally(() => (e.target.value = ''))} />
        </label>
        <label className={`cursor-pointer rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700 ${busy ? 'pointer-events-none opacity-50' : ''}`}>
          folder…
          <input type="file" className="hidden" data-testid="annotation-folder" {...{ webkitdirectory: '', directory: '' }} onChange={(e) => void importFiles(e.target.files).finally(() => (e.target.value = ''))} />
        </label>
      </div>
      {b === null ? (
        <p className="mt-1 text-xs text-zinc-500">Import a second annotator’s masks of this clip to compare them with gt.</p>
      ) : (
        <div className="mt-2 flex flex-col gap-1 text-xs">
          <div className="flex items-center gap-1">
            <select aria-label="Agreement A" className="min-w-0 flex-1 rounded bg-zinc-950 px-1 py-0.5" value={a} onChange={(e) => choose({ a: e.target.value as LayerSource })}>
              {['gt', ...sources.filter((s) => s !== 'gt').sort()].map((s) => (
                <option key={s} value={s}>
                  A: {s}
                </option>
              ))}
            </select>
            <select aria-label="Agreement B" className="min-w-0 flex-1 rounded bg-zinc-950 px-1 py-0.5" value={b} onChange={(e) => choose({ b: e.target.value as LayerSource })}>
              {options.map((s) => (
                <option key={s} value={s}>
                  B: {s}
                </option>
              ))}
            </select>
          </div>
          {summary && (
            <p data-testid="agreement-summary" className="tabular-nums text-zinc-300">
              {summary.compared} frames compared · pooled IoU act {fmt(summary.pooled.act)} · trf {fmt(summary.pooled.trf)} · object {fmt(summary.pooled.object)} · {summary.disputed} disputed px
            </p>
          )}
          <div className="flex items-center gap-1">
            <button
              aria-pressed={sideBySide && disputes}
              className={`rounded px-2 py-0.5 ${sideBySide && disputes ? 'bg-sky-700' : 'bg-zinc-800 hover:bg-zinc-700'}`}
              onClick={() => choose(sideBySide && disputes ? { disputes: false } : { sideBySide: true, disputes: true })}
            >
              Show disputed pixels
            </button>
            <span className="flex-1" />
            <label className="flex items-center gap-1 text-zinc-400">
              sort
              <select aria-label="Agreement sort" className="rounded bg-zinc-950 px-1" value={sort} onChange={(e) => setSort(e.target.value as AgreementSort)}>
                <option value="iou">lowest IoU</option>
                <option value="disputed">most disputed</option>
                <option value="frame">frame order</option>
              </select>
            </label>
          </div>
          <div className="rounded bg-zinc-950 p-1" data-testid="agreement-current" data-frame={frameIndex}>
            <div className="text-zinc-400">
              Frame {frameIndex + 1}:{' '}
              {current?.skipped ? `not compared (${current.skipped === 'ignored' ? 'ignored' : `no ${b} mask`})` : current ? `${current.disputed} disputed px (${current.extentDisputes} extent, ${current.stateSwaps} state swaps)` : '…'}
            </div>
            <div className="mt-1 flex gap-1">
              <button className="flex-1 rounded bg-zinc-800 px-1 py-0.5 hover:bg-zinc-700 disabled:opacity-50" disabled={!canResolve || a === 'gt'} title={a === 'gt' ? 'gt already is A' : `Replace this frame's gt with ${a}`} onClick={() => void guard(resolve({ kind: 'take-a' }))}>
                take A
              </button>
              <button className="flex-1 rounded bg-zinc-800 px-1 py-0.5 hover:bg-zinc-700 disabled:opacity-50" disabled={!canResolve || b === 'gt'} title={`Replace this frame's gt with ${b}`} onClick={() => void guard(resolve({ kind: 'take-b' }))}>
                take B
              </button>
              <button className="flex-1 rounded bg-zinc-800 px-1 py-0.5 hover:bg-zinc-700 disabled:opacity-50" disabled={!canResolve} title="Keep what A and B agree on; settle the rest by the rule below" onClick={() => void guard(resolve({ kind: 'merge', rule }))}>
                merge
              </button>
            </div>
            <div className="mt-1 flex items-center gap-1 text-zinc-400">
              merge:
              <select aria-label="Merge extent rule" className="rounded bg-zinc-900 px-1" value={rule.extent} onChange={(e) => setRule({ extent: e.target.value as MergeRule['extent'] })}>
                <option value="union">object in either (union)</option>
                <option value="intersection">object in both (intersection)</option>
              </select>
              <select aria-label="Merge swap rule" className="rounded bg-zinc-900 px-1" value={rule.swap} onChange={(e) => setRule({ swap: e.target.value as MergeRule['swap'] })}>
                <option value="a">swaps: A’s state</option>
                <option value="b">swaps: B’s state</option>
                <option value="transformed">swaps: transformed</option>
                <option value="actionable">swaps: actionable</option>
              </select>
            </div>
          </div>
          <ol className="flex max-h-64 flex-col gap-0.5 overflow-y-auto" data-testid="agreement-list">
            {sorted.map((r) => (
              <li key={r.index}>
                <button
                  className={`flex w-full gap-2 rounded px-1 text-left tabular-nums ${r.index === frameIndex ? 'bg-zinc-700' : 'hover:bg-zinc-800'} ${r.skipped ? 'text-zinc-500' : ''}`}
                  data-testid="agreement-row"
                  data-frame={r.index}
                  data-act={r.act}
                  data-trf={r.trf}
                  data-object={r.object}
                  data-disputed={r.disputed}
                  data-skipped={r.skipped ?? ''}
                  onClick={() => onPick(r.index)}
                >
                  <span className="w-14">frame {r.index + 1}</span>
                  {r.skipped ? (
                    <span>{r.skipped}</span>
                  ) : (
                    <>
                      <span className="text-red-400">{fmt(r.act)}</span>
                      <span className="text-emerald-400">{fmt(r.trf)}</span>
                      <span className="text-zinc-300">{fmt(r.object)}</span>
                      <span className="flex-1 text-right text-zinc-400">{r.disputed} px</span>
                    </>
                  )}
                </button>
              </li>
            ))}
          </ol>
          <p className="text-[11px] text-zinc-500">IoU actionable / transformed / object per frame. Picks write this frame’s gt as one undoable edit (Ctrl+Z).</p>
        </div>
      )}
    </section>
  );
}
