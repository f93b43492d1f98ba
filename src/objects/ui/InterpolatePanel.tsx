/**
 * The objects room's keyframe and interpolation controls (tool bar, tools slot; docs/objects.md
 * "Keyframes and interpolation"): "Keyframe" (Y) marks or unmarks the active object's keyframe on
 * the shown frame; "Interpolate…" opens the options — VISOR's rules, the fusion, the held-out J&F
 * check — and runs on the active object or every object, listing per object what each span became.
 * The tracker is the loaded SAM model, else the weight-free tracker (as propagation).
 */
import { useCallback, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { EditorSlotContext } from '../../annotator/ui/editorSlots';
import { usePublishRunners } from '../../annotator/ui/roomActions';
import { listLayers } from '../../store/layers';
import type { ClipObject } from '../../store/types';
import { isAbort } from '../../inference/propagate/forward';
import type { PropagationEngine, PropagationSource } from '../../inference/propagate/propagateFrame';
import { directionalStep } from '../../inference/propagate/directional';
import { inferenceClient, samModelOf, useAssist } from '../../inference/ui/assistStore';
import { flowEngine } from '../../inference/ui/propagate/flowEngine';
import { shownFrameRgba } from '../../inference/ui/frameSource';
import { useClipObjects } from '../../annotator/ui/ObjectsPanel';
import { isKeyframe, toggleKeyframe } from '../keyframes';
import { DEFAULT_SPAN_RULES, type SpanRules } from '../interpolation/spans';
import type { FusionMode } from '../interpolation/fuse';
import { DEFAULT_SETTINGS, interpolateObjects, type InterpolationSettings, type ObjectReport } from './sessionInterpolation';
import { OBJECT_ACTION_IDS } from './objectActions';

type Props = Pick<EditorSlotContext, 'db' | 'clip' | 'session' | 'images' | 'frameIndex'>;

const TRACKER = 'weight-free tracker';

export function InterpolatePanel({ db, clip, session, images, frameIndex }: Props) {
  const state = useSyncExternalStore(
    useCallback((fn: () => void) => session.onState(fn), [session]),
    () => session.snapshot,
  );
  const clipObjects = useClipObjects(db, clip);
  const models = useAssist((s) => s.models);
  const samModelId = samModelOf(models)?.id ?? null;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const [reports, setReports] = useState<ObjectReport[] | null>(null);
  const abort = useRef<AbortController | null>(null);

  const activeId = session.objectOf(state.activeClass);
  // state.revision changes with every write of a frame: the mark re-reads then.
  const marked = activeId !== undefined && isKeyframe(session.objectsAt(frameIndex), activeId);
  const keyframeWhy = state.readOnly ? 'read-only' : activeId === undefined ? 'pick an object in the object list' : state.busy ? 'finish the gesture under way first' : null;
  const toggle = () => {
    if (keyframeWhy || activeId === undefined) return;
    void session.edit(frameIndex, 'keyframe', () => null, { objects: toggleKeyframe(activeId, clip.width, clip.height) }).then((out) => {
      if (out.status === 'refused') setMessage(out.reason);
    });
  };

  const run = async (settings: InterpolationSettings, scope: 'active' | 'all') => {
    if (abort.current || !clipObjects) return;
    const ctrl = new AbortController();
    abort.current = ctrl;
    setBusy('starting');
    setMessage('');
    setReports(null);
    try {
      const hands = new Set(clipObjects.schema.classes.filter((c) => c.hand).map((c) => c.id));
      const objects = scope === 'all' ? clipObjects.objects : clipObjects.objects.filter((o) => o.id === activeId);
      const engine: PropagationEngine = samModelId ? { kind: 'sam', backend: await inferenceClient(), modelId: samModelId } : { kind: 'flow', backend: await flowEngine() };
      const source: PropagationSource = { getImage: (k) => shownFrameRgba(images, k), frameKey: (k) => `${clip.id}/${k}` };
      const out = await interpolateObjects(
        session,
        objects.map((o) => ({ id: o.id, hand: o.classId !== undefined && hands.has(o.classId) })),
        settings,
        { step: directionalStep(engine, source, clip.frameCount), layers: () => listLayers(db, clip.id, 'gt'), by: samModelId ?? TRACKER, onProgress: setBusy, signal: ctrl.signal },
      );
      setReports(out);
      const frames = out.reduce((n, r) => n + r.spans.reduce((m, s) => m + s.frames, 0), 0);
      setMessage(`${frames} frame${frames === 1 ? '' : 's'} interpolated`);
    } catch (e) {
      setMessage(isAbort(e) ? 'cancelled' : `interpolation failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(null);
      abort.current = null;
    }
  };

  const runWhy = state.readOnly ? 'read-only' : busy !== null ? 'an interpolation is under way' : null;
  usePublishRunners({
    [OBJECT_ACTION_IDS.keyframe]: { disabled: keyframeWhy, run: toggle },
    [OBJECT_ACTION_IDS.interpolate]: { disabled: runWhy, run: () => setOpen(true) },
  });
  const names = useMemo(() => new Map((clipObjects?.objects ?? []).map((o: ClipObject) => [o.id, o.name])), [clipObjects]);

  return (
    <span className="relative flex items-center gap-1 whitespace-nowrap text-xs" data-testid="interpolate">
      <button
        className={`rounded px-2 py-0.5 hover:bg-zinc-800 disabled:opacity-40 ${marked ? 'bg-amber-700 text-white' : 'text-zinc-300'}`}
        data-testid="keyframe-toggle"
        data-keyframe={marked ? 'true' : 'false'}
        disabled={keyframeWhy !== null}
        onClick={toggle}
        title={keyframeWhy ?? "Mark or unmark this frame as a keyframe of the active object (Y)"}
      >
        {marked ? '◆ Keyframe' : '◇ Keyframe'}
      </button>
      <button className="rounded px-2 py-0.5 text-zinc-300 hover:bg-zinc-800 disabled:opacity-40" data-testid="interpolate-open" disabled={runWhy !== null} onClick={() => setOpen((o) => !o)} title="Fill the frames between keyframes (VISOR's interpolation)">
        Interpolate…
      </button>
      {busy && (
        <span className="flex items-center gap-1 text-cyan-300" data-testid="interpolate-progress">
          interpolating · {busy}
          <button className="rounded bg-zinc-800 px-1.5 hover:bg-zinc-700" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        </span>
      )}
      {!busy && message && (
        <span className="text-zinc-400" data-testid="interpolate-message">
          {message}
        </span>
      )}
      {open && (
        <InterpolateForm
          method={samModelId ? `SAM (${samModelId})` : TRACKER}
          canRunActive={activeId !== undefined}
          busy={busy !== null}
          reports={reports}
          names={names}
          onStart={(s, scope) => void run(s, scope)}
          onClose={() => setOpen(false)}
        />
      )}
    </span>
  );
}

interface FormProps {
  method: string;
  canRunActive: boolean;
  busy: boolean;
  reports: ObjectReport[] | null;
  names: ReadonlyMap<string, string>;
  onStart: (settings: InterpolationSettings, scope: 'active' | 'all') => void;
  onClose: () => void;
}

function InterpolateForm({ method, canRunActive, busy, reports, names, onStart, onClose }: FormProps) {
  const [rules, setRules] = useState<SpanRules>(DEFAULT_SPAN_RULES);
  const [fusion, setFusion] = useState<FusionMode>(DEFAULT_SETTINGS.fusion);
  const [check, setCheck] = useState(DEFAULT_SETTINGS.check);
  const [threshold, setThreshold] = useState(DEFAULT_SETTINGS.threshold);
  const [writeUnchecked, setWriteUnchecked] = useState(DEFAULT_SETTINGS.writeUnchecked);
  const [scope, setScope] = useState<'active' | 'all'>(canRunActive ? 'active' : 'all');
  const input = 'w-16 rounded bg-zinc-800 px-1 py-0.5 text-zinc-100';
  const row = 'flex items-center justify-between gap-2';
  return (
    <span className="absolute left-0 top-7 z-20 flex w-96 flex-col gap-2 whitespace-normal rounded border border-zinc-700 bg-zinc-900 p-3 shadow-lg" data-testid="interpolate-panel" role="dialog" aria-label="Interpolate">
      <span className="font-semibold">Interpolate between keyframes</span>
      <span className="text-zinc-400">Forward from each keyframe and backward from the next with the {method}, fused by distance (docs/objects.md).</span>
      <label className={row}>
        Objects
        <select className="rounded bg-zinc-800 px-1 py-0.5" data-testid="interpolate-scope" value={scope} onChange={(e) => setScope(e.target.value as 'active' | 'all')}>
          <option value="active" disabled={!canRunActive}>
            the active object
          </option>
          <option value="all">every object</option>
        </select>
      </label>
      <label className={row}>
        Most frames between two keyframes
        <input className={input} data-testid="interpolate-max" type="number" min={1} value={rules.maxFramesBetween} onChange={(e) => setRules({ ...rules, maxFramesBetween: Math.max(1, Math.round(Number(e.target.value) || 1)) })} />
      </label>
      <label className={row}>
        Only objects present on both keyframes
        <input type="checkbox" checked={rules.requireBothKeyframes} onChange={(e) => setRules({ ...rules, requireBothKeyframes: e.target.checked })} />
      </label>
      <label className={row}>
        Hands always (from the keyframe that has them)
        <input type="checkbox" checked={rules.handsAlways} onChange={(e) => setRules({ ...rules, handsAlways: e.target.checked })} />
      </label>
      <label className={row}>
        Fusion
        <select className="rounded bg-zinc-800 px-1 py-0.5" data-testid="interpolate-fusion" value={fusion} onChange={(e) => setFusion(e.target.value as FusionMode)}>
          <option value="soft">soft (distance × confidence)</option>
          <option value="vote">weighted vote (distance)</option>
        </select>
      </label>
      <label className={row}>
        Check across held-out keyframes
        <input type="checkbox" data-testid="interpolate-check" checked={check} onChange={(e) => setCheck(e.target.checked)} />
      </label>
      <label className={row}>
        Keep a span when J&amp;F ≥
        <input className={input} data-testid="interpolate-threshold" type="number" min={0} max={1} step={0.05} value={threshold} onChange={(e) => setThreshold(Math.max(0, Math.min(1, Number(e.target.value) || 0)))} />
      </label>
      <label className={row}>
        Fill spans no check covers
        <input type="checkbox" checked={writeUnchecked} onChange={(e) => setWriteUnchecked(e.target.checked)} />
      </label>
      <span className="flex justify-end gap-1">
        <button className="rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700" onClick={onClose}>
          Close
        </button>
        <button className="rounded bg-sky-700 px-2 py-0.5 hover:bg-sky-600 disabled:opacity-40" data-testid="interpolate-start" disabled={busy} onClick={() => onStart({ rules, fusion, check, threshold, writeUnchecked }, scope)}>
          Interpolate
        </button>
      </span>
      {reports && <InterpolateResults reports={reports} names={names} threshold={threshold} />}
    </span>
  );
}

function InterpolateResults({ reports, names, threshold }: { reports: ObjectReport[]; names: ReadonlyMap<string, string>; threshold: number }) {
  if (reports.length === 0) return <span className="text-zinc-400">No object to interpolate.</span>;
  return (
    <ul className="flex max-h-64 flex-col gap-1 overflow-y-auto border-t border-zinc-800 pt-2" data-testid="interpolate-results">
      {reports.map((r) => (
        <li key={r.objectId} data-testid="interpolate-result" data-object-id={r.objectId}>
          <span className="font-medium">{names.get(r.objectId) ?? r.objectId}</span>
          {r.spans.length === 0 && <span className="text-zinc-500"> · needs two keyframes with frames between</span>}
          {r.checks.map((c) => (
            <span key={`c${c.k}`} className={`block ${c.jf >= threshold ? 'text-emerald-300' : 'text-amber-300'}`} data-testid="interpolate-check-result" data-jf={c.jf.toFixed(4)}>
              check across {c.k + 1} ({c.a + 1}–{c.b + 1}): J&amp;F {c.jf.toFixed(3)} (J {c.j.toFixed(3)}, F {c.f.toFixed(3)})
            </span>
          ))}
          {r.spans.map((s) => (
            <span key={`s${s.a}`} className={`block ${s.status === 'written' ? 'text-zinc-300' : 'text-zinc-500'}`} data-testid="interpolate-span" data-status={s.status} data-frames={s.frames}>
              {s.a + 1}–{s.b + 1}: {s.status === 'written' ? `${s.frames} frames, mean confidence ${(s.confidence ?? 0).toFixed(2)}${s.direction !== 'both' ? ` (${s.direction} only)` : ''}${s.verdict === 'kept' ? ' · check passed' : ''}` : `${s.status} · ${s.reason}`}
            </span>
          ))}
        </li>
      ))}
    </ul>
  );
}
