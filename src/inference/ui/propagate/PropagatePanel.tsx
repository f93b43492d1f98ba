/**
 * The editor's propagation controls (tool bar, tools slot): "Propagate →" writes frame t+1 from frame t as
 * one undoable step and goes there; "Forward…" runs frame after frame with progress and cancel.
 * The engine is the loaded SAM model, else the optical-flow fallback, and the UI says which.
 * When t+1 already has masks the user chooses: replace them (undoable) or fill only the empty
 * pixels; nothing is overwritten without that choice.
 */
import { usePublishRunners } from '../../../annotator/ui/roomActions';
import { ASSIST_ACTION_IDS } from '../assistActions';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { EditorSlotContext } from '../../../annotator/ui/editorSlots';
import { hasMasks, type MergeMode } from '../../propagate/combine';
import { isAbort, propagateForward, type ForwardReport } from '../../propagate/forward';
import { propagateFrame, type PropagationEngine, type PropagationResult, type PropagationSource } from '../../propagate/propagateFrame';
import { inferenceClient, samModelOf, useAssist } from '../assistStore';
import { flowEngine } from './flowEngine';
import { writePropagated } from './sessionPropagation';
import { shownFrameRgba } from '../frameSource';
import { useDb } from '../../../workspace/db';
import { NativeFrames } from './nativeFrames';
import { LOW_CONFIDENCE, propagationNotesFor } from './propagationNotes';

type Props = Pick<EditorSlotContext, 'session' | 'images' | 'frameIndex' | 'goToFrame'>;

interface FrameNote {
  from: number;
  method: PropagationResult['method'];
  confidence: number;
  /** Chain depth: propagation steps since a person's mask (the next step from this frame is calibrated on it). */
  depth: number;
  redetected: boolean;
  /** One line per region, for the tooltip. */
  detail: string;
}

const STATE = { 1: 'actionable', 2: 'transformed' } as const;

function regionLines(r: PropagationResult): string {
  return r.regions
    .map((g) => `${STATE[g.label]}${g.instanceId !== null ? ` #${g.instanceId}` : ''}: ${g.previousArea} → ${g.area} px, ${r.method === 'sam' ? 'SAM IoU' : r.nativeFrames !== undefined ? `tracked${r.nativeFrames > 0 ? ` through ${r.nativeFrames} native frames` : ''}, raw score` : 'flow'} ${g.quality.toFixed(2)}, shape ${g.shape.toFixed(2)} → ${g.confidence.toFixed(2)}${g.redetected ? ' (re-detected)' : ''}`)
    .join('\n');
}

const METHOD_LABEL = { sam: 'SAM', flow: 'weight-free tracking and GrabCut (fallback: no SAM model)' } as const;

export function PropagatePanel({ session, images, frameIndex, goToFrame }: Props) {
  const models = useAssist((s) => s.models);
  const samModelId = samModelOf(models)?.id ?? null;
  // A note lives as long as the masks it describes: any later edit of its frame drops it.
  // Shared with the timeline, which marks the frames under LOW_CONFIDENCE.
  const notesStore = useMemo(() => propagationNotesFor<FrameNote>(session), [session]);
  useEffect(() => notesStore.attach(), [notesStore]);
  const notes = useSyncExternalStore(
    useCallback((fn: () => void) => notesStore.subscribe(fn), [notesStore]),
    () => notesStore.all,
  );
  const [busy, setBusy] = useState<{ done: number; total: number; label: string } | null>(null);
  const [message, setMessage] = useState('');
  const [choice, setChoice] = useState<{ to: number } | null>(null);
  const [forwardOpen, setForwardOpen] = useState(false);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const engine = useCallback(async (): Promise<PropagationEngine> => {
    if (samModelId) return { kind: 'sam', backend: await inferenceClient(), modelId: samModelId };
    return { kind: 'flow', backend: await flowEngine() };
  }, [samModelId]);

  const db = useDb();
  const native = useMemo(() => new NativeFrames(db, session.clip), [db, session]);
  useEffect(() => () => native.close(), [native]);
  const source: PropagationSource = { getImage: (k) => shownFrameRgba(images, k), frameKey: (k) => `${session.clip.id}/${k}` };
  /** The weight-free tracker also steps through the kept video's native frames between samples. */
  const sourceFor = async (eng: PropagationEngine): Promise<PropagationSource> => {
    const framesBetween = eng.kind === 'flow' ? await native.forPropagation() : undefined;
    return framesBetween ? { ...source, framesBetween } : source;
  };
  const note = (r: PropagationResult) => notesStore.record(r.to, { from: r.from, method: r.method, confidence: r.confidence ?? 0, depth: r.depth ?? 1, redetected: r.redetected, detail: regionLines(r) });
  // A note describes the propagation that wrote the frame; a new run over it makes it stale.
  const forget = (k: number) => notesStore.forget(k);
  const last = session.clip.frameCount - 1;
  const readOnly = session.snapshot.readOnly;

  async function next(mode: MergeMode | null) {
    const from = frameIndex;
    // One run at a time (a double click must not start two before the buttons disable). A
    // Replace / Fill answer counts only for the frame it was asked about.
    if (from >= last || abort.current) return;
    if (mode !== null && choice?.to !== from + 1) {
      setChoice(null);
      return;
    }
    const ctrl = new AbortController();
    abort.current = ctrl;
    setChoice(null);
    let occupied: boolean;
    try {
      occupied = mode === null && hasMasks(await session.loadMap(from + 1));
    } catch (e) {
      abort.current = null;
      setMessage(`cannot read frame ${from + 2}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (occupied) {
      abort.current = null;
      setChoice({ to: from + 1 });
      return;
    }
    setBusy({ done: 0, total: 1, label: `frame ${from + 1} → ${from + 2}` });
    setMessage('');
    forget(from + 1);
    try {
      const previous = await session.loadMap(from);
      const tags = session.tagsAt(from);
      // A frame without a note was painted by a person (or edited since it was propagated): depth 0.
      const previousConfidence = notesStore.get(from)?.confidence;
      const previousDepth = notesStore.get(from)?.depth ?? 0;
      const eng = await engine();
      const result = await propagateFrame(eng, await sourceFor(eng), { from, previous, tags, previousConfidence, previousDepth, signal: ctrl.signal });
      if (result.confidence === null) {
        setMessage(`frame ${from + 1} has no regions to propagate`);
        return;
      }
      await writePropagated(session, result, mode ?? 'replace');
      note(result);
      // One step: the person wants to see the frame it wrote.
      goToFrame(result.to);
      setMessage('');
    } catch (e) {
      setMessage(isAbort(e) ? 'cancelled' : `propagation failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(null);
      abort.current = null;
    }
  }

  async function forward(count: number, threshold: number, redetectEvery: number, mode: MergeMode) {
    setForwardOpen(false);
    const start = frameIndex;
    if (abort.current) return;
    const ctrl = new AbortController();
    abort.current = ctrl;
    const total = Math.max(0, Math.min(count, last - start));
    setBusy({ done: 0, total, label: 'forward' });
    setMessage('');
    try {
      const eng = await engine();
      const src = await sourceFor(eng);
      const report: ForwardReport = await propagateForward(
        { start, count, frameCount: session.clip.frameCount, threshold, redetectEvery, redetectBelow: Math.max(threshold, 0.75), signal: ctrl.signal },
        {
          step: (from, previous, redetect) => {
            forget(from + 1);
            // Each step starts from the frame the last one wrote, with the tags carried there (loadMap read them).
            const tags = session.tagsAt(from);
            // A chain's errors carry on: the frame it starts from was recorded by the step before.
            const previousConfidence = notesStore.get(from)?.confidence;
            const previousDepth = notesStore.get(from)?.depth ?? 0;
            return propagateFrame(eng, src, { from, previous, tags, redetect, previousConfidence, previousDepth, signal: ctrl.signal });
          },
          loadMap: (k) => session.loadMap(k),
          write: async (r) => {
            // Written without showing the frame: the run does not drive the view frame by frame.
            const stored = await writePropagated(session, r, mode);
            note(r);
            return stored;
          },
          onStep: (r, done, n) => setBusy({ done, total: n, label: `frame ${r.to + 1} · confidence ${(r.confidence ?? 0).toFixed(2)}` }),
        },
      );
      const why = {
        done: 'done',
        'end-of-clip': 'reached the last frame',
        'low-confidence': `stopped before frame ${(report.rejected?.to ?? 0) + 1}: confidence ${(report.rejected?.confidence ?? 0).toFixed(2)} < ${threshold.toFixed(2)} (not written)`,
        'nothing-to-propagate': 'stopped: no regions left to propagate',
        cancelled: 'cancelled',
      }[report.stop];
      setMessage(`${report.written.length} frame${report.written.length === 1 ? '' : 's'} propagated · ${why}`);
      const lastWritten = report.written.at(-1);
      if (lastWritten) goToFrame(lastWritten.to);
    } catch (e) {
      setMessage(isAbort(e) ? 'cancelled' : `propagation failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(null);
      abort.current = null;
    }
  }

  const here = notes.get(frameIndex);
  const disabled = busy !== null || readOnly || frameIndex >= last;
  const method = samModelId ? 'sam' : 'flow';
  // The button and the palette's "Propagate to the next frame" (assistActions.ts) take the same path.
  const why = readOnly ? 'read-only' : frameIndex >= last ? 'the last frame has no next frame' : busy !== null ? 'a propagation is under way' : null;
  usePublishRunners({ [ASSIST_ACTION_IDS.propagate]: { disabled: why, run: () => void next(null) } });
  return (
    <span className="relative flex items-center gap-1 whitespace-nowrap text-xs" data-testid="propagate" data-method={method}>
      <button
        className="rounded px-2 py-0.5 text-zinc-300 hover:bg-zinc-800 disabled:opacity-40"
        data-testid="propagate-next"
        disabled={disabled}
        onClick={() => void next(null)}
        title={`Propagate this frame's regions to the next frame with ${METHOD_LABEL[method]} (one undoable step)`}
      >
        Propagate →
      </button>
      <button
        className="rounded px-2 py-0.5 text-zinc-300 hover:bg-zinc-800 disabled:opacity-40"
        data-testid="propagate-forward-open"
        disabled={disabled}
        onClick={() => setForwardOpen((o) => !o)}
        title="Propagate through several frames, each its own undoable step"
      >
        Forward…
      </button>
      {method === 'flow' && <span className="text-amber-300" data-testid="propagate-fallback" title="No SAM model is loaded: propagation tracks each object (through the video's native frames when the clip has them) and re-fits it with GrabCut">flow fallback</span>}
      {busy && (
        <span className="flex items-center gap-1 text-cyan-300" data-testid="propagate-progress" data-done={busy.done} data-total={busy.total}>
          propagating {busy.total > 1 ? `${busy.done}/${busy.total} · ` : ''}
          {busy.label}
          <button className="rounded bg-zinc-800 px-1.5 hover:bg-zinc-700" data-testid="propagate-cancel" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        </span>
      )}
      {!busy && here && (
        <span
          className={here.confidence >= LOW_CONFIDENCE ? 'text-emerald-300' : 'text-amber-300'}
          data-testid="propagate-confidence"
          data-confidence={here.confidence.toFixed(4)}
          data-method={here.method}
          title={`${here.method === 'sam' ? "Confidence = mean of SAM's IoU estimate and the shape agreement with the previous frame's regions, weighted by area" : 'Confidence = the IoU such a propagation is expected to have, calibrated on generated clips with exact ground truth'} (docs/inference.md)\n${here.detail}`}
        >
          propagated from {here.from + 1} ({here.method === 'sam' ? 'SAM' : 'flow'}{here.redetected ? ', re-detected' : ''}) · confidence {here.confidence.toFixed(2)}
        </span>
      )}
      {!busy && message && (
        <span className="text-zinc-400" data-testid="propagate-message">
          {message}
        </span>
      )}
      {choice && choice.to === frameIndex + 1 && (
        <span className="absolute left-0 top-7 z-20 flex w-72 flex-col whitespace-normal gap-2 rounded border border-zinc-700 bg-zinc-900 p-3 shadow-lg" data-testid="propagate-choice">
          <span>Frame {choice.to + 1} already has masks.</span>
          <span className="flex gap-1">
            <button className="rounded bg-sky-700 px-2 py-0.5 hover:bg-sky-600" data-testid="propagate-replace" onClick={() => void next('replace')} title="Replace its masks (undoable)">
              Replace
            </button>
            <button className="rounded bg-zinc-700 px-2 py-0.5 hover:bg-zinc-600" data-testid="propagate-fill" onClick={() => void next('fill')} title="Keep its masks; write only empty pixels">
              Fill empty
            </button>
            <button className="rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700" onClick={() => setChoice(null)}>
              Cancel
            </button>
          </span>
        </span>
      )}
      {forwardOpen && <ForwardForm maxFrames={last - frameIndex} onStart={(n, t, r, m) => void forward(n, t, r, m)} onClose={() => setForwardOpen(false)} />}
    </span>
  );
}

function ForwardForm({ maxFrames, onStart, onClose }: { maxFrames: number; onStart: (count: number, threshold: number, redetectEvery: number, mode: MergeMode) => void; onClose: () => void }) {
  const [count, setCount] = useState(Math.min(10, maxFrames));
  const [threshold, setThreshold] = useState(0.6);
  const [every, setEvery] = useState(10);
  const [mode, setMode] = useState<MergeMode>('fill');
  const input = 'w-16 rounded bg-zinc-800 px-1 py-0.5 text-zinc-100';
  return (
    <span className="absolute left-0 top-7 z-20 flex w-80 flex-col whitespace-normal gap-2 rounded border border-zinc-700 bg-zinc-900 p-3 shadow-lg" data-testid="propagate-forward-form">
      <label className="flex items-center justify-between gap-2">
        Frames (at most {maxFrames})
        <input className={input} data-testid="propagate-count" type="number" min={1} max={maxFrames} value={count} onChange={(e) => setCount(Math.max(1, Math.min(maxFrames, Number(e.target.value) || 1)))} />
      </label>
      <label className="flex items-center justify-between gap-2">
        Stop below confidence
        <input className={input} data-testid="propagate-threshold" type="number" min={0} max={1} step={0.05} value={threshold} onChange={(e) => setThreshold(Math.max(0, Math.min(1, Number(e.target.value) || 0)))} />
      </label>
      <label className="flex items-center justify-between gap-2">
        Re-detect every (frames, 0 never)
        <input className={input} data-testid="propagate-redetect" type="number" min={0} value={every} onChange={(e) => setEvery(Math.max(0, Math.round(Number(e.target.value) || 0)))} />
      </label>
      <label className="flex items-center justify-between gap-2">
        Frames that already have masks
        <select className="rounded bg-zinc-800 px-1 py-0.5" data-testid="propagate-mode" value={mode} onChange={(e) => setMode(e.target.value as MergeMode)}>
          <option value="fill">keep, fill empty pixels</option>
          <option value="replace">replace (undoable)</option>
        </select>
      </label>
      <span className="flex justify-end gap-1">
        <button className="rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700" onClick={onClose}>
          Close
        </button>
        <button className="rounded bg-sky-700 px-2 py-0.5 hover:bg-sky-600" data-testid="propagate-start" onClick={() => onStart(count, threshold, every, mode)} disabled={maxFrames < 1}>
          Start
        </button>
      </span>
    </span>
  );
}
