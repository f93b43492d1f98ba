/**
 * What the editor's own actions do (the action table's `commands`, src/annotator/actions.ts): the
 * session's tools and edits, frame moves that tell the session before the URL, phases, the next
 * frame to annotate, ignoring a frame, the view and the dialogs.
 */
import { useEffect, useMemo, type RefObject } from 'react';
import type { SpocDb } from '../../../store/db';
import { setFrameIgnored, setFramePhases } from '../../../store/frames';
import type { LayerAreas } from '../../../store/layers';
import type { Clip, Frame } from '../../../store/types';
import { navigate, parseRoute } from '../../../workspace/router';
import { notify, messageOf } from '../../../workspace/notices';
import type { EditorCommands } from '../../actions';
import type { EditorSession, SessionState } from '../../session/editorSession';
import { withEditedAreas } from '../../frameAreas';
import { phaseChangesFor, rangeBounds, type FrameRange } from '../../phases';
import type { CanvasHandle } from '../CanvasHost';
import type { EditorSlotContext } from '../editorSlots';
import { frameState } from '../Timeline';
import { useEditorView } from '../editorViewState';
import { useWatchMode } from '../watchMode';
import { frameUrlWriter } from './frameUrl';

/** What the commands read when they run, not when they were made. */
export interface CommandFacts {
  frames: readonly Frame[];
  areas: readonly LayerAreas[];
  editedAreas: EditorSlotContext['editedAreas'];
  state: SessionState;
  selection: FrameRange | null;
}

export interface CommandPorts {
  db: SpocDb;
  clip: Clip;
  session: EditorSession;
  facts: RefObject<CommandFacts>;
  canvas: RefObject<CanvasHandle | null>;
  toggleMasks: () => void;
  openShortcuts: () => void;
  openPalette: () => void;
  openIgnoreForm: () => void;
}

export function useEditorCommands({ db, clip, session, facts, canvas, toggleMasks, openShortcuts, openPalette, openIgnoreForm }: CommandPorts): EditorCommands {
  const { id: clipId, frameCount } = clip;
  // The URL follows the frame, folding quick runs of switches into one write (frameUrl.ts).
  const url = useMemo(
    () =>
      frameUrlWriter((frame) => {
        const here = parseRoute(window.location.hash);
        if (here.name === 'clip' && here.clipId === clipId) navigate({ name: 'clip', clipId, frame }, { replace: true });
      }),
    [clipId],
  );
  useEffect(() => () => url.cancel(), [url]);
  return useMemo<EditorCommands>(() => {
    const goTo = (k: number) => {
      const frame = Math.max(0, Math.min(frameCount - 1, k));
      // Tell the session first: a key pressed right after (undo) must act on the new frame, not
      // wait for React to re-render from the URL.
      void session.goToFrame(frame);
      url.set(frame);
    };
    return {
      setClass: (v) => session.setClass(v),
      setTool: (id) => session.setTool(id),
      setInstanceId: (id) => session.setInstanceId(id),
      setBrushSize: (s) => session.setBrushSize(s),
      toggleProtect: () => session.toggleProtect(),
      toggleMasks,
      undo: () => session.undo(),
      redo: () => session.redo(),
      goToFrame: goTo,
      // The frame panel's phase buttons do the same (phases.ts phaseChangesFor).
      setPhase: (p) => {
        const { frames: fs, state: st, selection: sel } = facts.current;
        const range = sel ? rangeBounds(sel) : null;
        const changes = phaseChangesFor(fs, st.frameIndex, range, p);
        void setFramePhases(db, clipId, changes).catch((err: unknown) => notify('error', `Could not set the phase: ${messageOf(err)}`));
      },
      nextUnannotated: () => {
        const { frames: fs, areas: stored, editedAreas: edited, state: st } = facts.current;
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
        const f = facts.current.frames[facts.current.state.frameIndex];
        if (f?.ignored) void setFrameIgnored(db, clipId, f.index, null);
        else openIgnoreForm();
      },
      clearFrame: () => session.clearFrame(),
      showShortcuts: openShortcuts,
      toggleOnion: () => useEditorView.getState().set({ onion: !useEditorView.getState().onion }),
      toggleOutline: () => useEditorView.getState().set({ style: useEditorView.getState().style === 'fill' ? 'outline' : 'fill' }),
      fitView: () => canvas.current?.fit(),
      actualSize: () => canvas.current?.actualSize(),
      openPalette,
      toggleWatch: () => useWatchMode.getState().toggle(),
      playPauseWatch: () => useWatchMode.getState().playPause(),
    };
  }, [session, clipId, frameCount, db, facts, canvas, toggleMasks, openShortcuts, openPalette, openIgnoreForm, url]);
}
