/**
 * The editor for one clip at frame k (#/c/<clip>/<k>). Opens an EditorSession (holding the clip's
 * edit lock, else read-only), wires keyboard actions, and lays out toolbar, canvas, side panel and
 * timeline. Pixels never pass through React: the session and the canvas view own them.
 *
 * Other rooms (review, metrics, AI assist) plug in through `slots` (see editorSlots.ts); the app
 * composes them in src/app/editor/EditorPage.tsx, so the annotator never imports them. The page's
 * parts are in ./page: opening the session, the clip's live facts, the commands, the one key
 * handler, mask visibility, saving on leave, the header.
 */
import { memo, useCallback, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { getClip } from '../../store/clips';
import type { Clip } from '../../store/types';
import { ACTIONS, type Action, type ActionContext } from '../actions';
import { CanvasHost, type CanvasHandle } from './CanvasHost';
import { OverlayLayer } from './OverlayLayer';
import { orderOverlays } from './canvasOverlays';
import { ANNOTATOR_OVERLAYS } from './overlays/annotatorOverlays';
import { Toolbar } from './Toolbar';
import { SidePanel } from './SidePanel';
import { ObjectsPanel, useClipObjects } from './ObjectsPanel';
import { objectColour, objectColours, useObjectView } from './objectView';
import { useObjectMarks } from './objectMarks';
import { CONTACT_ACTIONS } from './contact/contactActions';
import { ShortcutSheet } from './ShortcutSheet';
import { CommandPalette } from './CommandPalette';
import { FillConfirm } from './FillConfirm';
import { usePersistedBrushSize } from './usePersistedBrushSize';
import { rangeBounds, type FrameRange } from '../phases';
import type { EditorSlotContext, EditorSlots } from './editorSlots';
import { useOpenedSession, type OpenedSession } from './page/useOpenedSession';
import { useClipFacts } from './page/useClipFacts';
import { useEditorCommands } from './page/useEditorCommands';
import { useEditorKeys } from './page/useEditorKeys';
import { useMasksShown, useMasksToggle } from './page/useMasksShown';
import { useRoomActions } from './page/roomHooks';
import { useFrameFromUrl } from './page/useFrameFromUrl';
import { useSaveFailureNotices, useSaveOnLeave } from './page/useSaving';
import { useLatest } from './page/useLatest';
import { editorStateOf } from './page/editorState';
import { ClipHeader } from './page/ClipHeader';
import { LiveTimeline } from './page/LiveTimeline';

export function AnnotatorPage({ clipId, frame, slots = {} }: { clipId: string; frame: number; slots?: EditorSlots }) {
  const db = useDb();
  const clip = useLiveQuery(() => getClip(db, clipId), [db, clipId], null);
  if (clip === null) return null;
  if (clip === undefined) return <p className="p-6 text-zinc-400">This clip does not exist (it may have been deleted).</p>;
  return <Editor key={clip.id} clip={clip} frame={frame} slots={slots} />;
}

function Editor({ clip, frame, slots }: { clip: Clip; frame: number; slots: EditorSlots }) {
  const opened = useOpenedSession(clip, frame);
  if (!opened) return <p className="p-6 text-zinc-500">Opening the clip…</p>;
  const { generation, ...rest } = opened;
  return <EditorView key={generation} clip={clip} slots={slots} {...rest} />;
}

// Memoised, and told the frame by the session rather than the URL: a frame switch re-renders what
// shows the frame, not the whole editor twice (bench: switch frames).
const EditorView = memo(function EditorView({ clip, slots, session, images, author }: { clip: Clip; slots: EditorSlots } & Omit<OpenedSession, 'generation'>) {
  const db = useDb();
  const state = useSyncExternalStore(
    useCallback((fn: () => void) => session.onState(fn), [session]),
    () => session.snapshot,
  );
  const persist = useSyncExternalStore(
    useCallback((fn: () => void) => session.onPersist(fn), [session]),
    () => session.persistStatus,
  );
  const { frames, areas, editedAreas, sources, rejected, flagged } = useClipFacts(db, clip.id, session, slots);
  const [selection, setSelection] = useState<FrameRange | null>(null);
  usePersistedBrushSize(session);
  const [sheet, setSheet] = useState(false);
  const [palette, setPalette] = useState(false);
  const [ignoreOpen, setIgnoreOpen] = useState(false);
  const [zoom, setZoom] = useState(100);
  const approvedNow = useLatest(clip.status === 'approved');
  const canvas = useRef<CanvasHandle | null>(null);
  useFrameFromUrl(session, clip.id);
  useSaveOnLeave(session);
  useSaveFailureNotices(persist);

  const facts = useLatest({ frames, areas, editedAreas, state, selection });
  const masksToggle = useMasksToggle();
  const commands = useEditorCommands({
    db,
    clip,
    session,
    facts,
    canvas,
    toggleMasks: masksToggle.toggle,
    openShortcuts: useCallback(() => setSheet(true), []),
    openPalette: useCallback(() => setPalette(true), []),
    openIgnoreForm: useCallback(() => setIgnoreOpen(true), []),
  });

  const k = state.frameIndex;
  const slot: EditorSlotContext = { db, clip, session, images, canvas, frameIndex: k, frames, areas, editedAreas, sources, zoom, goToFrame: commands.goToFrame };
  // The canvas overlays, the annotator's and the rooms', bottom to top by their declared z.
  const overlays = useMemo(() => orderOverlays([...ANNOTATOR_OVERLAYS, ...(slots.canvasOverlays ?? [])]), [slots]);
  const masksVisible = useMasksShown(masksToggle, slots, slot);
  const ctx: ActionContext = { state: editorStateOf(state, clip.frameCount, masksVisible, clip.status === 'approved', session.codec.kind === 'objects'), commands };
  // The one action table: the editor's own and those the rooms contribute (palette, sheet, keys).
  const roomActions = useRoomActions(slots, slot);
  const registry = useMemo<readonly Action[]>(() => [...ACTIONS, ...CONTACT_ACTIONS, ...roomActions], [roomActions]);
  const closeDialogs = useCallback(() => {
    setSheet(false);
    setPalette(false);
  }, []);
  const spaceHeld = useEditorKeys({ session, commands, registry, frameCount: clip.frameCount, masksVisible: masksToggle.latestRef, approved: approvedNow, closeDialogs });

  const { tools: Tools, canvasOverlay: CanvasOverlay, beforeSidePanel: BeforeSidePanel, afterSidePanel: AfterSidePanel } = slots;
  // An objects project paints objects: their list replaces the two states (docs/objects.md).
  const paintsObjects = session.codec.kind === 'objects';
  const clipObjects = useClipObjects(db, clip);
  const objectView = useObjectView(session);
  const objectMarks = useObjectMarks(db, session, paintsObjects ? clipObjects?.objects : undefined, objectColour);
  const valueColours = useMemo(
    () => (paintsObjects && clipObjects ? objectColours(session, clipObjects.objects, objectView, clipObjects.schema) : null),
    [paintsObjects, clipObjects, session, objectView],
  );
  return (
    <div className="flex h-[calc(100vh-45px)] flex-col">
      <ClipHeader clip={clip} state={state} persist={persist} Header={slots.header} slot={slot} />
      <Toolbar ctx={ctx} states={!paintsObjects}>
        {Tools && <Tools {...slot} />}
      </Toolbar>
      <div className="flex min-h-0 flex-1">
        <div className="relative min-w-0 flex-1">
          <CanvasHost session={session} images={images} spaceHeldRef={spaceHeld} handleRef={canvas} onZoom={setZoom} masksVisible={masksVisible} valueColours={valueColours} renderOverlays={(view) => <OverlayLayer view={view} overlays={overlays} context={slot} />} />
          {CanvasOverlay && <CanvasOverlay {...slot} />}
          <FillConfirm session={session} busy={state.busy} />
          <span className="pointer-events-none absolute bottom-1 left-2 text-xs text-zinc-500">
            {Math.round(zoom)}% · {state.tool} · {state.protect ? 'protecting other class' : 'painting over other class'}
          </span>
        </div>
        {paintsObjects && clipObjects && <ObjectsPanel db={db} clip={clip} session={session} state={state} author={author} objects={clipObjects.objects} schema={clipObjects.schema} view={objectView} />}
        {BeforeSidePanel && <BeforeSidePanel {...slot} />}
        <SidePanel
          db={db}
          clip={clip}
          frame={frames[k]}
          area={areas.find((a) => a.frameIndex === k)}
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
      <LiveTimeline frames={frames} areas={areas} editedAreas={editedAreas} current={k} onPick={(i) => commands.goToFrame(i)} rejected={rejected} selection={selection} onSelect={setSelection} flagged={flagged} objectMarks={objectMarks} />
      {sheet && <ShortcutSheet registry={registry} onClose={() => setSheet(false)} />}
      {palette && <CommandPalette ctx={ctx} registry={registry} onClose={() => setPalette(false)} />}
    </div>
  );
});
