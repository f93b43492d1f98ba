/**
 * The editor for one clip at frame k (#/c/<clip>/<k>). Opens an EditorSession (holding the clip's
 * edit lock, else read-only), wires keyboard actions, and lays out toolbar, canvas, side panel and
 * timeline. Pixels never pass through React: the session and the canvas view own them.
 *
 * Other rooms (review, metrics, AI assist) plug in through `slots` (see editorSlots.ts); the app
 * composes them in src/app/editor/EditorPage.tsx, so the annotator never imports them.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ComponentProps } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { navigate, parseRoute } from '../../workspace/router';
import { notify, messageOf } from '../../workspace/notices';
import { dialogOpen, isTypingTarget } from '../../workspace/keyboard';
import { getClip } from '../../store/clips';
import { listFrames, setFrameIgnored, setFramePhases } from '../../store/frames';
import { layerAreas, listLayerSources } from '../../store/layers';
import { listFrameVerdicts } from '../../store/frameVerdicts';
import { authorNow, userNames } from '../../workspace/user';
import { pendingEditsPort } from '../../workspace/journal';
import type { Clip, LayerSource } from '../../store/types';
import type { LayerAreas } from '../../store/layers';
import { ACTIONS, handleShortcut, type Action, type ActionContext, type EditorCommands, type EditorState } from '../actions';
import { EditorSession, type SessionState } from '../session/editorSession';
import { FrameImageCache } from '../session/frameImages';
import { acquireClipLock } from '../session/clipLock';
import { externalChangeNotice, watchExternalGtChanges, type ExternalGtChange } from '../session/externalChanges';
import type { PersistStatus } from '../persistQueue';
import { CanvasHost, type CanvasHandle } from './CanvasHost';
import { OverlayLayer } from './OverlayLayer';
import { orderOverlays } from './canvasOverlays';
import { ANNOTATOR_OVERLAYS } from './overlays/annotatorOverlays';
import { Toolbar } from './Toolbar';
import { Timeline, frameState, largestArea } from './Timeline';
import { SidePanel } from './SidePanel';
import { ShortcutSheet } from './ShortcutSheet';
import { CommandPalette } from './CommandPalette';
import { useEditorView } from './editorViewState';
import { useWatchMode } from './watchMode';
import { FillConfirm } from './FillConfirm';
import { usePersistedBrushSize } from './usePersistedBrushSize';
import { phaseChangesFor, rangeBounds, type FrameRange } from '../phases';
import type { EditorSlotContext, EditorSlots, FrameFlagStore } from './editorSlots';
import { activeScopes } from './roomActions';
import { useGtAreas } from './useGtAreas';
import { withEditedAreas } from '../frameAreas';
import { holdRequest, inForce, masksShown, toggledChoice, type HeldRequest, type MasksChoice, type MasksRequest, type MasksRequestInForce } from '../masksShown';

/** Keys the active tool may take (Tool.onKey, the SAM tool's onKey) before the editor's own actions. */
const TOOL_KEYS = new Set(['Enter', 'Escape', 'Backspace', 'Tab']);

const NO_FLAG_MAP: ReadonlyMap<number, string> = new Map();
const NO_FLAGS: FrameFlagStore = { subscribe: () => () => undefined, get: () => NO_FLAG_MAP };
const NO_AREAS: LayerAreas[] = [];
const NO_SOURCES: LayerSource[] = [];

export function AnnotatorPage({ clipId, frame, slots = {} }: { clipId: string; frame: number; slots?: EditorSlots }) {
  const db = useDb();
  const clip = useLiveQuery(() => getClip(db, clipId), [db, clipId], null);
  if (clip === null) return null;
  if (clip === undefined) return <p className="p-6 text-zinc-400">This clip does not exist (it may have been deleted).</p>;
  return <Editor key={clip.id} clip={clip} frame={frame} slots={slots} />;
}

interface Opened {
  session: EditorSession;
  images: FrameImageCache;
  /** The user name in force at the moment of asking (the header field can change it any time). */
  author: () => string;
  /** Bumped when the session is reopened after an outside change: the view starts afresh. */
  generation: number;
}

function Editor({ clip, frame, slots }: { clip: Clip; frame: number; slots: EditorSlots }) {
  const db = useDb();
  const [opened, setOpened] = useState<Opened | null>(null);
  // The session is created from the clip as it was when the editor opened (only its id and size matter).
  const first = useRef({ clip, frame });
  // An approved clip is read-only until someone reopens it (a review step). The status can change
  // while the clip is open (approved here or in another tab, reopened): the session is then replaced
  // by one opened in the new mode.
  const approved = clip.status === 'approved';
  const approvedRef = useRef(approved);
  const statusChanged = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (approvedRef.current === approved) return;
    approvedRef.current = approved;
    statusChanged.current?.();
  }, [approved]);

  useEffect(() => {
    let alive = true;
    let session: EditorSession | null = null;
    let images: FrameImageCache | null = null;
    const author = authorNow(db);
    let lockGranted = false;
    let generation = 0;
    let release = () => undefined as void;
    let stopWatching = () => undefined as void;
    // Reopens run one after another, and closing waits for the one under way.
    let reopening: Promise<void> = Promise.resolve();
    const { clip: c, frame: k0 } = first.current;

    // Another tab wrote this clip's gt although this tab holds its lock: drop everything cached here
    // and read the clip again, rather than write a stale copy over that change.
    const reopen = (change: ExternalGtChange) => {
      reopening = reopening
        .then(async () => {
          const current = session;
          if (!alive || !current || !images) return;
          notify('warn', externalChangeNotice(c.name, change));
          await current.reloadFromStore();
          if (!alive) return;
          setOpened({ session: current, images, author, generation: ++generation });
        })
        .catch((err: unknown) => {
          notify('error', `Could not reload "${c.name}" after a change in another tab: ${messageOf(err)}. Reload the page.`);
        });
    };

    const readOnly = () => !lockGranted || approvedRef.current;
    // Approved or reopened: a fresh session on the same frame, read-only or not. Closing the old
    // one still writes the edits it had queued.
    statusChanged.current = () => {
      reopening = reopening
        .then(async () => {
          const old = session;
          if (!alive || !old || !images) return;
          session = null;
          await old.close();
          const next = await EditorSession.open(db, c, author, old.snapshot.frameIndex, { readOnly: readOnly(), pending: pendingEditsPort() });
          if (!alive) return void next.close();
          session = next;
          setOpened({ session: next, images, author, generation: ++generation });
        })
        .catch((err: unknown) => {
          notify('error', `Could not reopen "${c.name}" after its review status changed: ${messageOf(err)}. Reload the page.`);
        });
    };

    void (async () => {
      try {
        const lock = await acquireClipLock(c.id);
        release = lock.release;
        // Unmounted while the lock was being granted (a quick remount): give it back at once.
        if (!alive) return lock.release();
        lockGranted = lock.granted;
        // The name the first edit is credited to, if it comes before the header has loaded it.
        await userNames(db).ready();
        if (lock.granted) {
          // Watching starts before the session reads anything, so no outside change is missed.
          const watch = watchExternalGtChanges(db, c.id, reopen);
          stopWatching = watch.stop;
          await watch.ready;
        }
        session = await EditorSession.open(db, c, author, k0, { readOnly: readOnly(), pending: pendingEditsPort() });
        images = new FrameImageCache(db, c.id);
        if (!alive) {
          void session.close().finally(() => lock.release());
          images.destroy();
          return;
        }
        if (!lock.granted) notify('warn', `"${c.name}" is open for editing in another tab; this tab is read-only.`);
        setOpened({ session, images, author, generation });
      } catch (err) {
        notify('error', `Could not open the clip: ${messageOf(err)}`);
      }
    })();
    return () => {
      alive = false;
      statusChanged.current = null;
      stopWatching();
      images?.destroy();
      void reopening.then(() => session?.close()).finally(() => release());
    };
  }, [db]);

  if (!opened) return <p className="p-6 text-zinc-500">Opening the clip…</p>;
  const { generation, ...rest } = opened;
  return <EditorView key={generation} clip={clip} slots={slots} {...rest} />;
}

// Memoised, and told the frame by the session rather than the URL: a frame switch re-renders what
// shows the frame, not the whole editor twice (bench: switch frames).
const EditorView = memo(function EditorView({ clip, slots, session, images, author }: { clip: Clip; slots: EditorSlots } & Omit<Opened, 'generation'>) {
  const db = useDb();
  const state = useSyncExternalStore(
    useCallback((fn: () => void) => session.onState(fn), [session]),
    () => session.snapshot,
  );
  const persist = useSyncExternalStore(
    useCallback((fn: () => void) => session.onPersist(fn), [session]),
    () => session.persistStatus,
  );
  const frames = useLiveQuery(() => listFrames(db, clip.id), [db, clip.id]) ?? [];
  const areas = useLiveQuery(() => layerAreas(db, clip.id, 'gt'), [db, clip.id]) ?? NO_AREAS;
  // The areas of frames edited here, ahead of the store: one store per session, handed to the
  // timeline and to the rooms (useGtAreas), so the sparkline and the panels show the same numbers.
  const editedAreas = useMemo(() => slots.liveAreas?.(session) ?? null, [slots, session]);
  useEffect(() => editedAreas?.attach(), [editedAreas]);
  const sources = useLiveQuery(() => listLayerSources(db, clip.id), [db, clip.id]) ?? NO_SOURCES;
  // The reviewer's rejections, shown on the timeline whether or not reviewer mode is on.
  const verdicts = useLiveQuery(() => listFrameVerdicts(db, clip.id), [db, clip.id]);
  const rejected = useMemo(() => new Map([...(verdicts ?? new Map()).entries()].filter(([, v]) => v.verdict === 'reject')), [verdicts]);
  const flagStore = useMemo(() => slots.timelineFlags?.(session) ?? NO_FLAGS, [slots, session]);
  const flagged = useSyncExternalStore(flagStore.subscribe, flagStore.get);
  const [selection, setSelection] = useState<FrameRange | null>(null);
  usePersistedBrushSize(session);
  const [sheet, setSheet] = useState(false);
  const [palette, setPalette] = useState(false);
  const [ignoreOpen, setIgnoreOpen] = useState(false);
  const [zoom, setZoom] = useState(100);
  const spaceHeld = useRef(false);
  const approvedNow = useRef(clip.status === 'approved');
  useEffect(() => {
    approvedNow.current = clip.status === 'approved';
  });
  const canvas = useRef<CanvasHandle | null>(null);
  // The user's last press of the mask toggle (null: none yet); the toggle command is its only writer.
  const [masksChoice, setMasksChoice] = useState<MasksChoice | null>(null);
  // What the key handler and the toggle read between renders: the request in force and what shows.
  const masksLatest = useRef<{ request: MasksRequestInForce | null; visible: boolean }>({ request: null, visible: true });

  // Follow the URL when it changes from outside (links, back / forward, typed). Frame commands tell
  // the session first, so the URL they write next finds it already on its way there.
  useEffect(() => {
    const follow = () => {
      const here = parseRoute(window.location.hash);
      if (here.name !== 'clip' || here.clipId !== clip.id) return;
      void session.goToFrame(here.frame).catch((err: unknown) => notify('error', `Could not open frame ${here.frame + 1}: ${messageOf(err)}`));
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [session, clip.id]);

  // Nothing is lost: write pending edits when the tab is hidden or closed.
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

  // A failed save is shown (and retried by the queue), never swallowed.
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

  const latest = useRef({ frames, areas, editedAreas, state, selection });
  useEffect(() => {
    latest.current = { frames, areas, editedAreas, state, selection };
  });

  const commands = useMemo<EditorCommands>(() => {
    const goTo = (k: number) => {
      const frame = Math.max(0, Math.min(clip.frameCount - 1, k));
      // Tell the session first: a key pressed right after (undo) must act on the new frame, not
      // wait for React to re-render from the URL.
      void session.goToFrame(frame);
      navigate({ name: 'clip', clipId: clip.id, frame }, { replace: true });
    };
    return {
      setClass: (v) => session.setClass(v),
      setTool: (id) => session.setTool(id),
      setInstanceId: (id) => session.setInstanceId(id),
      setBrushSize: (s) => session.setBrushSize(s),
      toggleProtect: () => session.toggleProtect(),
      toggleMasks: () => setMasksChoice((c) => toggledChoice(c, masksLatest.current.request)),
      undo: () => session.undo(),
      redo: () => session.redo(),
      goToFrame: goTo,
      // The frame panel's phase buttons do the same (phases.ts phaseChangesFor).
      setPhase: (p) => {
        const { frames: fs, state: st, selection: sel } = latest.current;
        const range = sel ? rangeBounds(sel) : null;
        const changes = phaseChangesFor(fs, st.frameIndex, range, p);
        void setFramePhases(db, clip.id, changes).catch((err: unknown) => notify('error', `Could not set the phase: ${messageOf(err)}`));
      },
      nextUnannotated: () => {
        const { frames: fs, areas: stored, editedAreas: edited, state: st } = latest.current;
        // As the timeline shows them: a frame painted here a moment ago is not empty.
        const as = edited ? withEditedAreas(stored, edited.getSnapshot().edited) : stored;
        const byFrame = new Map(as.map((a) => [a.frameIndex, a]));
        const n = fs.length;
        for (let d = 1; d <= n; d++) {
          const f = fs[(st.frameIndex + d) % n];
          if (f && frameState(f, byFrame.get(f.index)) === 'empty') return goTo(f.index);
        }
        notify('info', 'Every frame is annotated or ignored.');
      },
      copyPreviousFrame: () => void session.copyPreviousFrame(),
      toggleIgnoreFrame: () => {
        const f = latest.current.frames[latest.current.state.frameIndex];
        if (f?.ignored) void setFrameIgnored(db, clip.id, f.index, null);
        else setIgnoreOpen(true);
      },
      clearFrame: () => session.clearFrame(),
      showShortcuts: () => setSheet(true),
      toggleOnion: () => useEditorView.getState().set({ onion: !useEditorView.getState().onion }),
      toggleOutline: () => useEditorView.getState().set({ style: useEditorView.getState().style === 'fill' ? 'outline' : 'fill' }),
      fitView: () => canvas.current?.fit(),
      actualSize: () => canvas.current?.actualSize(),
      openPalette: () => setPalette(true),
      toggleWatch: () => useWatchMode.getState().toggle(),
      playPauseWatch: () => useWatchMode.getState().playPause(),
    };
  }, [session, clip.id, clip.frameCount, db]);

  const k = state.frameIndex;
  const slot: EditorSlotContext = { db, clip, session, images, canvas, frameIndex: k, frames, areas, editedAreas, sources, zoom, goToFrame: commands.goToFrame };
  // The canvas overlays, the annotator's and the rooms', bottom to top by their declared z.
  const overlays = useMemo(() => orderOverlays([...ANNOTATOR_OVERLAYS, ...(slots.canvasOverlays ?? [])]), [slots]);
  // Whether the masks show: derived from the user's toggle (held here, its one writer) and what
  // the rooms' views ask (the useMasksRequest slot). docs/architecture.md, "One owner per UI fact".
  const masksRequest = useMasksRequestOf(slots, slot);
  const heldRequest = useHeldRequest(masksRequest);
  const requestInForce = useMemo(() => inForce(heldRequest, masksRequest), [heldRequest, masksRequest]);
  const masksVisible = masksShown(masksChoice, requestInForce);
  useEffect(() => {
    masksLatest.current = { request: requestInForce, visible: masksVisible };
  });
  const editorState = editorStateOf(state, clip.frameCount, masksVisible, clip.status === 'approved');
  const ctx: ActionContext = { state: editorState, commands };
  // The one action table: the editor's own and those the rooms contribute (palette, sheet, keys).
  const roomActions = useRoomActions(slots, slot);
  const registry = useMemo<readonly Action[]>(() => [...ACTIONS, ...roomActions], [roomActions]);

  useEffect(() => {
    const mac = /Mac|iPhone|iPad/.test(navigator.platform);
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target)) return;
      if (dialogOpen()) {
        if (e.key === 'Escape') {
          setSheet(false);
          setPalette(false);
        }
        return;
      }
      if (e.key === ' ') {
        spaceHeld.current = true;
        e.preventDefault();
        return;
      }
      // Judge the key against the session and the modes as they are now, not as React last rendered them.
      const now: ActionContext = {
        state: editorStateOf(session.snapshot, clip.frameCount, masksLatest.current.visible, approvedNow.current),
        commands,
        scopes: activeScopes(),
      };
      // One handler, one order: the active modes' keys, then the active tool's, then the editor's.
      if (handleShortcut(e, now, { mac }, registry, 'scoped')) {
        e.preventDefault();
        return;
      }
      if (TOOL_KEYS.has(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
        // Tab belongs to the SAM tool while it is active (cycling its masks), never to focus navigation.
        if (session.toolKey(e.key, e.shiftKey) || (e.key === 'Tab' && session.snapshot.tool === 'sam')) {
          e.preventDefault();
          return;
        }
      }
      if (handleShortcut(e, now, { mac }, registry, 'unscoped')) e.preventDefault();
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.key === ' ') spaceHeld.current = false;
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKeyUp);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKeyUp);
    };
  }, [session, commands, clip.frameCount, registry]);

  const current = frames[k];
  const area = areas.find((a) => a.frameIndex === k);
  const { header: Header, tools: Tools, canvasOverlay: CanvasOverlay, beforeSidePanel: BeforeSidePanel, afterSidePanel: AfterSidePanel } = slots;
  return (
    <div className="flex h-[calc(100vh-45px)] flex-col">
      <div className="flex items-center gap-3 whitespace-nowrap border-b border-zinc-800 px-4 py-1.5 text-sm">
        <a href={`#/p/${clip.projectId}`} className="text-zinc-400 hover:underline">
          ← clips
        </a>
        <span className="font-medium" data-testid="clip-title">
          {clip.name}
        </span>
        <span className="min-w-0 truncate text-zinc-400">
          {clip.osc.verb} {clip.osc.noun} · <span className="text-red-400">{clip.osc.actionable}</span> → <span className="text-emerald-400">{clip.osc.transformed}</span>
        </span>
        <span className="flex-1" />
        {state.readOnly && (
          <span className="rounded bg-amber-700 px-2 py-0.5 text-xs" data-testid="read-only" data-reason={clip.status === 'approved' ? 'approved' : 'other-tab'}>
            {clip.status === 'approved' ? 'read-only: approved' : 'read-only: open in another tab'}
          </span>
        )}
        {Header && <Header {...slot} />}
        <SaveStatus status={persist} kept={state.unsavedKept} />
        <span data-testid="frame-indicator" className="tabular-nums">
          frame {k + 1} / {clip.frameCount}
        </span>
      </div>
      <Toolbar ctx={ctx}>{Tools && <Tools {...slot} />}</Toolbar>
      <div className="flex min-h-0 flex-1">
        <div className="relative min-w-0 flex-1">
          <CanvasHost session={session} images={images} spaceHeldRef={spaceHeld} handleRef={canvas} onZoom={setZoom} masksVisible={masksVisible} renderOverlays={(view) => <OverlayLayer view={view} overlays={overlays} context={slot} />} />
          {CanvasOverlay && <CanvasOverlay {...slot} />}
          <FillConfirm session={session} busy={state.busy} />
          <span className="pointer-events-none absolute bottom-1 left-2 text-xs text-zinc-500">
            {Math.round(zoom)}% · {state.tool} · {state.protect ? 'protecting other class' : 'painting over other class'}
          </span>
        </div>
        {BeforeSidePanel && <BeforeSidePanel {...slot} />}
        <SidePanel
          db={db}
          clip={clip}
          frame={current}
          area={area}
          author={author}
          readOnly={state.readOnly}
          ignoreOpen={ignoreOpen}
          setIgnoreOpen={setIgnoreOpen}
          frames={frames}
          selection={selection ? rangeBounds(selection) : null}
          onClearSelection={() => setSelection(null)}
        />
        {AfterSidePanel && <AfterSidePanel {...slot} />}
      </div>
      <LiveTimeline frames={frames} areas={areas} editedAreas={editedAreas} current={k} onPick={(i) => commands.goToFrame(i)} rejected={rejected} selection={selection} onSelect={setSelection} flagged={flagged} />
      {sheet && <ShortcutSheet registry={registry} onClose={() => setSheet(false)} />}
      {palette && <CommandPalette ctx={ctx} registry={registry} onClose={() => setPalette(false)} />}
    </div>
  );
});

/** The rooms' actions (the `useActions` slot); the slots object never changes, so the hook order holds. */
function useRoomActions(slots: EditorSlots, slot: EditorSlotContext): readonly Action[] {
  const none = useMemo<readonly Action[]>(() => [], []);
  return slots.useActions?.(slot) ?? none;
}

/** The timeline with the areas as the editor knows them: re-rendered alone as a stroke changes them, not the whole editor. */
function LiveTimeline({ areas, editedAreas, ...rest }: Omit<ComponentProps<typeof Timeline>, 'areas'> & { areas: readonly LayerAreas[]; editedAreas: EditorSlotContext['editedAreas'] }) {
  const storedLargest = useMemo(() => largestArea(areas), [areas]);
  return <Timeline areas={useGtAreas(areas, editedAreas)} scaleArea={storedLargest} {...rest} />;
}

/** The rooms' request for the masks (the `useMasksRequest` slot); the slots object never changes, so the hook order holds. */
function useMasksRequestOf(slots: EditorSlots, slot: EditorSlotContext): MasksRequest | null {
  return slots.useMasksRequest?.(slot) ?? null;
}

/**
 * The request numbered each time its key changes, so a choice made under one view never carries to
 * the next (nor back to an earlier one). Adjusted while rendering, as React advises for state that
 * follows a prop, so the first render of a new view already reads the new number.
 */
function useHeldRequest(request: MasksRequest | null): HeldRequest {
  const [held, setHeld] = useState<HeldRequest>(() => holdRequest({ key: null, serial: 0 }, request));
  const next = holdRequest(held, request);
  if (next !== held) setHeld(next);
  return next;
}

function editorStateOf(s: SessionState, frameCount: number, masksVisible: boolean, approved: boolean): EditorState {
  return {
    tool: s.tool,
    instanceId: s.instanceId,
    activeClass: s.activeClass,
    protect: s.protect,
    masksVisible,
    brushSize: s.brushSize,
    frameIndex: s.frameIndex,
    frameCount,
    canUndo: s.canUndo,
    canRedo: s.canRedo,
    busy: s.busy,
    readOnly: s.readOnly,
    readOnlyReason: !s.readOnly ? null : s.viewOnly ? `read-only: ${s.viewOnly}` : approved ? 'read-only: approved clip' : 'read-only: open in another tab',
  };
}

function SaveStatus({ status, kept }: { status: PersistStatus; kept: SessionState['unsavedKept'] }) {
  const base =
    status.stalled
      ? 'saving is not answering…'
      : status.state === 'error'
      ? `save failed, retrying (${status.retries})`
      : status.state === 'idle'
        ? 'all changes saved'
        : status.retries > 0
          ? `retrying a failed save (${status.retries})…`
          : 'saving…';
  // While saves fail, whether closing the tab now would cost anything.
  const text =
    kept === 'kept'
      ? `${base} · kept in the crash journal`
      : kept === 'keeping'
        ? `${base} · keeping in the crash journal…`
        : kept === 'not-kept'
          ? `${base} · not kept anywhere: free some space`
          : base;
  const tone = status.state === 'error' || status.retries > 0 || status.stalled ? 'text-red-400' : status.state === 'idle' ? 'text-zinc-500' : 'text-amber-300';
  return (
    <span className={`text-xs ${tone}`} data-testid="save-status" data-state={status.state} data-retries={status.retries} data-stalled={status.stalled} data-kept={kept ?? 'none'}>
      {text}
    </span>
  );
}

