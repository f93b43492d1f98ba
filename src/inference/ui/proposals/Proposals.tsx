/**
 * The editor's automatic proposals (docs/inference.md), mounted in the tool bar (tools slot):
 *
 * - "Proposals" (Shift+A): SAM over a point grid on the shown frame + NMS, with CLIP S_act / S_trf
 *   when a CLIP model is loaded, drawn as outlines coloured by their Eq. 1 label. While the mode is
 *   on, a click on a proposal accepts it into gt (its state, or the active class when unlabelled /
 *   ambiguous / background) as ONE undoable patch; Enter or A accepts the selected (else hovered)
 *   one, Tab / Shift+Tab select, Esc leaves. tau / delta are per verb, persisted, and re-label live.
 * - "Pre-label clip": prelabelClip over every frame (progress, ETA, Cancel: nothing written), into
 *   the clip's `proposal` layer (never gt). The stored layer is then shown per frame as outlines of
 *   its connected regions: a click accepts a region; Shift+Enter accepts the whole frame, filling
 *   only empty gt pixels ("Replace frame" overwrites; see layerRegions.ts), one undo each.
 *
 * Pixels reach the canvas through ProposalOutlinesOverlay (a canvas overlay); edits go through the session's
 * tool context like the SAM tool's, so undo, redo, persistence and "protect other class" hold.
 */
import { usePublishRunners, usePublishScope } from '../../../annotator/ui/roomActions';
import { ASSIST_ACTION_IDS, PROPOSAL_ACTION_IDS } from '../assistActions';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useRoomTool } from '../../../annotator/ui/useRoomTool';
import type { RoomTool } from '../../../annotator/tools/roomTool';
import type { EditorSession } from '../../../annotator/session/editorSession';
import type { FrameImageCache } from '../../../annotator/session/frameImages';
import type { CanvasHandle } from '../../../annotator/ui/CanvasHost';
import { decodeLayer, parseLayer } from '../../../masks/layers';
import type { LabelMap } from '../../../masks/labelMap';
import type { SpocDb } from '../../../store/db';
import { getLayer } from '../../../store/layers';
import type { Clip } from '../../../store/types';
import { proposeFrame } from '../../prelabel/frameProposals';
import { prelabelClip } from '../../prelabel/prelabelClip';
import { inferenceClient, openModelsDialog, samModelOf, useAssist } from '../assistStore';
import { aiActionNeed } from '../aiNeeds';
import { clipFrames, shownFrameRgba } from '../frameSource';
import { acceptLayer, regionsOfLayer, type FrameAcceptMode } from './layerRegions';
import { applyProposalMask, classForAccept, cycleIndex, LABEL_COLOURS, labelOf, proposalAt, type ProposalLabel, type ShownProposal } from './proposalModel';
import { useProposalOutlines } from './proposalOutlinesState';
import { JobProgress, ProposalSettings, ProposalTable, type Job } from './ProposalsPanelParts';
import { loadThresholds, saveThresholds, thresholdsFor, withThresholds, type VerbThresholds } from './thresholds';
import { messageOf } from '../../../workspace/notices';

interface Props {
  db: SpocDb;
  clip: Clip;
  session: EditorSession;
  images: FrameImageCache;
  canvas: React.RefObject<CanvasHandle | null>;
}

type Mode = 'off' | 'frame' | 'layer';

/** After a button or row click, keys (Ctrl+Z, Enter, Tab) must reach the editor again. */
const focusCanvas = (canvas: React.RefObject<CanvasHandle | null>) => canvas.current?.canvasView().stage.container().focus();
const ms = (v: number) => `${Math.round(v)} ms`;

export function Proposals({ db, clip, session, images, canvas }: Props) {
  const models = useAssist((s) => s.models);
  const sam = samModelOf(models);
  const clipModel = models.find((m) => m.state === 'ready' && m.family === 'clip') ?? null;
  const [mode, setMode] = useState<Mode>('off');
  const [items, setItems] = useState<ShownProposal[]>([]);
  const [itemsFrame, setItemsFrame] = useState(-1);
  const [layerMap, setLayerMap] = useState<LabelMap | null>(null);
  const [hover, setHover] = useState<number | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [job, setJob] = useState<Job | null>(null);
  const [message, setMessage] = useState('');
  const [table, setTable] = useState<VerbThresholds>({});
  const [prompts, setPrompts] = useState({ actionable: clip.osc.actionable, transformed: clip.osc.transformed });
  const [gridSize, setGridSize] = useState(32);
  /** The panel (prompts, grid, thresholds) opened by hand, before any run. */
  const [settingsOpen, setSettingsOpen] = useState(false);
  const verb = clip.osc.verb;
  const params = thresholdsFor(table, verb);
  const { tau, delta } = params;
  const labels: ProposalLabel[] = useMemo(() => items.map((p) => labelOf(p, { tau, delta })), [items, tau, delta]);

  useEffect(() => {
    void loadThresholds(db).then(setTable, () => undefined);
  }, [db]);

  const setParam = (key: 'tau' | 'delta', value: number) => {
    if (!Number.isFinite(value)) return;
    try {
      const next = withThresholds(table, verb, { ...params, [key]: value });
      setTable(next);
      void saveThresholds(db, next).catch((e: unknown) => setMessage(`could not save the thresholds: ${messageOf(e)}`));
    } catch (e) {
      setMessage(messageOf(e));
    }
  };

  const leave = useCallback(() => {
    setMode('off');
    setItems([]);
    setItemsFrame(-1);
    setLayerMap(null);
    setHover(null);
    setSelected(null);
  }, []);

  // ---- drawing (ProposalOutlinesOverlay) -------------------------------------------------------
  useEffect(() => {
    useProposalOutlines.setState({ items: mode === 'off' ? null : items.map((p, i) => ({ box: p.mask.box, data: p.mask.data, colour: LABEL_COLOURS[labels[i]] })) });
  }, [mode, items, labels]);
  useEffect(() => {
    useProposalOutlines.setState({ highlight: [selected, hover].filter((i): i is number => i !== null) });
  }, [hover, selected]);
  useEffect(() => () => useProposalOutlines.setState({ items: null, highlight: [] }), []);

  // ---- running ---------------------------------------------------------------------------------
  const runFrame = useCallback(async () => {
    if (!sam || job) return;
    const k = session.snapshot.frameIndex;
    const abort = new AbortController();
    setJob({ kind: 'frame', fraction: 0, text: 'embedding the frame…', abort });
    setMessage('');
    try {
      const client = await inferenceClient();
      const image = await shownFrameRgba(images, k);
      const r = await proposeFrame(client, image, {
        sam: sam.id,
        clip: clipModel ? { modelId: clipModel.id, ...prompts } : undefined,
        gridSize,
        frameKey: `${clip.id}/${k}`,
        signal: abort.signal,
        onProgress: (stage, fraction) => setJob((j) => (j && j.abort === abort ? { ...j, fraction: stage === 'decoding' ? fraction : stage === 'scoring' ? 1 : 0, text: `${stage}…` } : j)),
      });
      if (session.snapshot.frameIndex !== k) return;
      setItems(r.proposals.map((p) => ({ mask: p.mask, samIou: p.samIou, sAct: p.sAct, sTrf: p.sTrf })));
      setItemsFrame(k);
      setLayerMap(null);
      setHover(null);
      setSelected(null);
      setMode('frame');
      const t = r.timings;
      const text =
        `${r.proposals.length} proposals from ${r.decoded} SAM masks (${gridSize}x${gridSize} grid) in ${ms(t.totalMs)}: ` +
        `encode ${ms(t.encodeMs)}, grid decode ${ms(t.decodeMs)} (decoder runs ${ms(t.decoderModelMs)}, NMS ${ms(t.nmsMs)}, in the worker), CLIP ${ms(t.clipMs)}, ours on this thread ${ms(t.ownMs)} (crops ${ms(t.cropMs)})` +
        (clipModel ? '' : ' · no CLIP model: unlabelled');
      setMessage(text);
      console.info(`[proposals] ${image.width}x${image.height}: ${text}`);
    } catch (e) {
      setMessage(abort.signal.aborted ? 'proposals cancelled' : `proposals failed: ${messageOf(e)}`);
    } finally {
      setJob(null);
    }
  }, [sam, clipModel, job, session, images, clip.id, prompts, gridSize]);

  const showLayer = useCallback(
    async (k: number) => {
      try {
        const row = await getLayer(db, clip.id, 'proposal', k);
        if (session.snapshot.frameIndex !== k) return;
        const map = row ? decodeLayer(parseLayer({ act: row.act, trf: row.trf }), { width: clip.width, height: clip.height }) : null;
        const regions = map ? regionsOfLayer(map) : [];
        setItems(regions.map((r) => ({ mask: r.mask, samIou: null, sAct: null, sTrf: null, fixed: r.label === 1 ? 'actionable' : 'transformed' })));
        setItemsFrame(k);
        setLayerMap(map);
        setHover(null);
        setSelected(null);
        setMode('layer');
        if (!row) setMessage(`frame ${k + 1} has no pre-label (run "Pre-label clip")`);
      } catch (e) {
        setMessage(`could not read the pre-label: ${messageOf(e)}`);
      }
    },
    [db, clip.id, clip.width, clip.height, session],
  );

  const runClip = useCallback(async () => {
    if (!sam || !clipModel || job) return;
    const abort = new AbortController();
    setJob({ kind: 'clip', fraction: 0, text: `0 / ${clip.frameCount} frames`, abort });
    setMessage('');
    try {
      const client = await inferenceClient();
      const r = await prelabelClip(client, clipFrames(db, clip.id, clip.frameCount), {
        models: { sam: sam.id, clip: clipModel.id },
        prompts,
        gridSize,
        tau: params.tau,
        delta: params.delta,
        frameCount: clip.frameCount,
        signal: abort.signal,
        store: { db, clipId: clip.id },
        onProgress: (done, total, eta) =>
          setJob((j) => (j && j.abort === abort ? { ...j, fraction: total ? done / total : 0, text: `${done} / ${total ?? '?'} frames${eta !== null ? ` · about ${Math.ceil(eta / 1000)} s left` : ''}` } : j)),
        // Between frame reports the bar creeps with the current frame's SAM points (decoding is most of a frame).
        onFrameProgress: (k, f) => setJob((j) => (j && j.abort === abort ? { ...j, fraction: Math.max(j.fraction, (k + f) / Math.max(1, clip.frameCount)) } : j)),
      });
      setMessage(`pre-label written: ${r.frames.length} frames, ${r.records.length} proposals in ${r.tracks} tracks, ${Math.round(r.ms / 1000)} s (tau ${params.tau}, delta ${params.delta})`);
      await showLayer(session.snapshot.frameIndex);
    } catch (e) {
      setMessage(abort.signal.aborted ? 'pre-label cancelled: nothing was written' : `pre-label failed (nothing was written): ${messageOf(e)}`);
    } finally {
      setJob(null);
    }
  }, [sam, clipModel, job, db, clip.id, clip.frameCount, prompts, gridSize, params.tau, params.delta, showLayer, session]);

  // Frame proposals belong to their frame; the pre-label layer follows the shown frame.
  useEffect(() => {
    if (mode === 'off') return;
    return session.onFrame(() => {
      if (mode === 'frame') leave();
      else void showLayer(session.snapshot.frameIndex);
    });
  }, [session, mode, leave, showLayer]);

  // ---- accepting -------------------------------------------------------------------------------
  const accept = useCallback(
    (i: number | null) => {
      if (i === null || !items[i]) return;
      if (session.snapshot.readOnly) {
        setMessage('this clip is open read-only here: proposals cannot be accepted');
        return;
      }
      const ctx = session.toolContext;
      if (ctx.frameIndex !== itemsFrame) return;
      const cls = classForAccept(labels[i], ctx.activeClass);
      if (cls === null) {
        setMessage('this proposal has no state: choose class 1 or 2 to accept it');
        return;
      }
      const patch = ctx.edit('proposal-accept', (map) => applyProposalMask(map, items[i].mask, cls, ctx.protect));
      setMessage(patch ? `accepted as ${cls === 1 ? 'actionable' : 'transformed'} (${items[i].mask.area} px)` : 'nothing changed (protected pixels?)');
      setItems((list) => list.filter((_, j) => j !== i));
      focusCanvas(canvas);
      setHover(null);
      setSelected(null);
    },
    [items, labels, itemsFrame, session, canvas],
  );

  const acceptFrame = useCallback(
    (how: FrameAcceptMode) => {
      if (!layerMap) return;
      if (session.snapshot.readOnly) {
        setMessage('this clip is open read-only here: the pre-label cannot be accepted');
        return;
      }
      const ctx = session.toolContext;
      if (ctx.frameIndex !== itemsFrame) return;
      const patch = ctx.edit(`proposal-frame-${how}`, (map) => acceptLayer(map, layerMap, how));
      setMessage(patch ? `pre-label of frame ${ctx.frameIndex + 1} accepted (${how})` : 'nothing to accept');
      focusCanvas(canvas);
      setItems([]);
      setHover(null);
      setSelected(null);
    },
    [layerMap, itemsFrame, session, canvas],
  );

  // ---- pointer: while the mode is on, the canvas is the picking tool's (the paint tool gets nothing) --
  // The session routes the canvas's pointer input here (docs/architecture.md, "Room tools"): a
  // hover highlights the proposal under the pointer, the primary button accepts it. Picking never
  // writes by itself: the accept goes through `edit`, so the tool works on a read-only clip too and
  // the accept says why it is refused.
  const picking = useRef({ items, accept });
  useEffect(() => {
    picking.current = { items, accept };
  });
  const picks = mode !== 'off';
  const pickTool = useMemo<RoomTool | null>(
    () =>
      picks
        ? {
            scope: 'proposals',
            edits: false,
            onPointerMove: (p) => {
              const i = proposalAt(picking.current.items, p.x, p.y);
              setHover((h) => (h === i ? h : i));
            },
            onPointerDown: (p) => {
              if (p.button === 0) picking.current.accept(proposalAt(picking.current.items, p.x, p.y));
            },
            onPointerUp: () => undefined,
          }
        : null,
    [picks],
  );
  useRoomTool(session, pickTool);

  // ---- keys --------------------------------------------------------------------------------------
  // Proposals mode's keys, in the editor's one action table (assistActions.ts): they act while the
  // mode is on (or a run can be cancelled), before the active tool's and the editor's own keys.
  const on = mode !== 'off' || job !== null;
  usePublishScope('proposals', on);
  const none = mode === 'off' ? 'proposals are not open (Shift+A)' : null;
  usePublishRunners({
    [PROPOSAL_ACTION_IDS.leave]: {
      disabled: on ? null : 'proposals are not open (Shift+A)',
      run: () => {
        job?.abort.abort();
        leave();
      },
    },
    [PROPOSAL_ACTION_IDS.accept]: { disabled: none, run: () => accept(selected ?? hover) },
    // Shift+Enter takes the frame's pre-label where gt is empty; outside the pre-label view it accepts like Enter.
    [PROPOSAL_ACTION_IDS.acceptPrelabel]: { disabled: none, run: () => (mode === 'layer' ? acceptFrame('fill-empty') : accept(selected ?? hover)) },
    [PROPOSAL_ACTION_IDS.next]: { disabled: none, run: () => setSelected((s) => cycleIndex(items.length, s, 1)) },
    [PROPOSAL_ACTION_IDS.previous]: { disabled: none, run: () => setSelected((s) => cycleIndex(items.length, s, -1)) },
  });

  usePublishRunners({ [ASSIST_ACTION_IDS.proposals]: { disabled: null, run: () => (mode !== 'off' ? leave() : void runFrame()) } });

  // ---- view --------------------------------------------------------------------------------------
  const loaded = { sam: sam !== null, clip: clipModel !== null };
  const proposalsNeed = aiActionNeed('proposals', loaded);
  const prelabelNeed = aiActionNeed('prelabel', loaded);
  const proposalsTip = proposalsNeed?.reason ?? `Automatic proposals on this frame: SAM ${gridSize}x${gridSize} grid + NMS${clipModel ? ' + CLIP state labels (Eq. 1)' : ' (no CLIP model loaded: unlabelled)'} (Shift+A)`;
  const prelabelTip = prelabelNeed?.reason ?? 'Pre-label every frame into the proposal layer (SAM grid + CLIP + Eq. 1 + tracking); gt is never touched';
  // The missing models, said once beside the buttons (the pre-label need covers the proposals one).
  const need = prelabelNeed ?? proposalsNeed;
  const counts = labels.reduce<Record<string, number>>((acc, l) => ({ ...acc, [l]: (acc[l] ?? 0) + 1 }), {});

  return (
    <>
      <span title={proposalsTip}>
        <button
          className={`rounded px-2 py-0.5 text-xs ${mode === 'frame' ? 'bg-cyan-800 text-white' : 'text-zinc-300 hover:bg-zinc-800'} disabled:opacity-40`}
          data-testid="proposals-button"
          disabled={!sam || job !== null}
          aria-describedby={proposalsNeed ? 'proposals-need-reason' : undefined}
          aria-pressed={mode === 'frame'}
          onClick={() => (mode === 'frame' ? leave() : void runFrame())}
        >
          Proposals
        </button>
      </span>
      <span title={prelabelTip}>
        <button className="rounded px-2 py-0.5 text-xs text-zinc-300 hover:bg-zinc-800 disabled:opacity-40" data-testid="prelabel-button" disabled={!sam || !clipModel || job !== null} aria-describedby={prelabelNeed ? 'prelabel-need-reason' : undefined} onClick={() => void runClip()}>
          Pre-label clip
        </button>
      </span>
      {need && (
        <button className="rounded px-1 py-0.5 text-xs text-amber-300 underline hover:bg-zinc-800" data-testid="ai-needs" title={need.reason} onClick={() => openModelsDialog()}>
          {need.short}
        </button>
      )}
      {proposalsNeed && (
        <span id="proposals-need-reason" className="sr-only">
          {proposalsNeed.reason}
        </span>
      )}
      {prelabelNeed && (
        <span id="prelabel-need-reason" className="sr-only">
          {prelabelNeed.reason}
        </span>
      )}
      <span title="Show the stored pre-label (proposal layer) of this frame; click a region to accept it">
        <button
          className={`rounded px-2 py-0.5 text-xs ${mode === 'layer' ? 'bg-cyan-800 text-white' : 'text-zinc-300 hover:bg-zinc-800'}`}
          data-testid="prelabel-show"
          aria-pressed={mode === 'layer'}
          onClick={() => (mode === 'layer' ? leave() : void showLayer(session.snapshot.frameIndex))}
        >
          Show pre-label
        </button>
      </span>
      <button
        className="rounded px-1 py-0.5 text-xs text-zinc-400 hover:bg-zinc-800"
        data-testid="proposals-settings"
        aria-expanded={settingsOpen}
        title="Proposal settings: CLIP prompts, grid size, Eq. 1 thresholds for this verb"
        onClick={() => setSettingsOpen((o) => !o)}
      >
        ▾
      </button>
      {(settingsOpen || mode !== 'off' || job || message) && (
        <div
          className="fixed right-2 top-20 z-40 flex max-h-[75vh] w-96 flex-col gap-1 rounded border border-zinc-700 bg-zinc-900/95 p-2 text-xs text-zinc-200 shadow-lg"
          data-testid="proposals-panel"
          data-mode={mode}
          data-count={items.length}
          onKeyDown={(e) => e.stopPropagation()}
        >
          <div className="flex items-center gap-2">
            <span className="flex-1 font-medium">{mode === 'layer' ? `Pre-label · frame ${itemsFrame + 1}` : mode === 'frame' ? `Proposals · frame ${itemsFrame + 1}` : 'Proposals'}</span>
            <button
              className="rounded px-1.5 hover:bg-zinc-800"
              onClick={() => {
                if (job) return job.abort.abort();
                leave();
                setMessage('');
                setSettingsOpen(false);
              }}
              title="Esc"
            >
              {job ? 'Cancel' : 'Close'}
            </button>
          </div>
          {job && <JobProgress job={job} />}
          {message && (
            <p className="text-zinc-400" data-testid="proposals-message">
              {message}
            </p>
          )}
          <ProposalSettings
            busy={job !== null}
            prompts={prompts}
            setPrompts={setPrompts}
            gridSize={gridSize}
            setGridSize={setGridSize}
            verb={verb}
            params={params}
            setParam={setParam}
          />
          {mode !== 'off' && (
            <p className="text-zinc-400" data-testid="proposal-counts">
              {(['actionable', 'transformed', 'ambiguous', 'background', 'unlabelled'] as const)
                .filter((l) => counts[l])
                .map((l) => (
                  <span key={l} className="mr-2" style={{ color: LABEL_COLOURS[l] }}>
                    {counts[l]} {l}
                  </span>
                ))}
              {items.length === 0 && 'none left'} · click or Enter/A accept, Tab select, Esc leave
            </p>
          )}
          {mode === 'layer' && layerMap && (
            <div className="flex gap-1">
              <button className="rounded bg-zinc-700 px-2 py-0.5 hover:bg-zinc-600" data-testid="prelabel-accept-frame" onClick={() => acceptFrame('fill-empty')} title="Copy the pre-label into the empty gt pixels of this frame (Shift+Enter)">
                Accept frame (fill empty)
              </button>
              <button className="rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700" data-testid="prelabel-replace-frame" onClick={() => acceptFrame('replace')} title="Make this frame's gt exactly the pre-label">
                Replace frame
              </button>
            </div>
          )}
          {mode !== 'off' && items.length > 0 && (
            <ProposalTable items={items} labels={labels} frame={itemsFrame} selected={selected} hover={hover} onSelect={setSelected} onAccept={accept} />
          )}
        </div>
      )}
    </>
  );
}
