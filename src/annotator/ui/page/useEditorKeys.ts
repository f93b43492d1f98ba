/**
 * The editor's one key handler (docs/architecture.md, "Keys: one handler, modes in order"): a key is
 * tried against the actions of the modes that are on, then the active tool's keys, then the
 * editor's own actions. Space held pans the canvas (CanvasHost reads the returned ref).
 */
import { useEffect, useRef, type RefObject } from 'react';
import { dialogOpen, isTypingTarget } from '../../../workspace/keyboard';
import { handleShortcut, type Action, type ActionContext, type EditorCommands } from '../../actions';
import type { EditorSession } from '../../session/editorSession';
import { activeScopes } from '../roomActions';
import { editorStateOf } from './editorState';

/** Keys the active tool may take (Tool.onKey, the SAM tool's onKey) before the editor's own actions. */
const TOOL_KEYS = new Set(['Enter', 'Escape', 'Backspace', 'Tab']);

export interface KeyPorts {
  session: EditorSession;
  commands: EditorCommands;
  registry: readonly Action[];
  frameCount: number;
  /** Whether the masks show now, and whether the clip is approved now (between renders). */
  masksVisible: RefObject<{ visible: boolean }>;
  approved: RefObject<boolean>;
  /** Escape while a dialog of the editor's is open. */
  closeDialogs: () => void;
}

/** Listens for the editor's keys while mounted; returns whether Space is held. */
export function useEditorKeys({ session, commands, registry, frameCount, masksVisible, approved, closeDialogs }: KeyPorts): RefObject<boolean> {
  const spaceHeld = useRef(false);
  useEffect(() => {
    const mac = /Mac|iPhone|iPad/.test(navigator.platform);
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target)) return;
      if (dialogOpen()) {
        if (e.key === 'Escape') closeDialogs();
        return;
      }
      if (e.key === ' ') {
        spaceHeld.current = true;
        e.preventDefault();
        return;
      }
      // Judge the key against the session and the modes as they are now, not as React last rendered them.
      const now: ActionContext = {
        state: editorStateOf(session.snapshot, frameCount, masksVisible.current.visible, approved.current),
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
  }, [session, commands, frameCount, registry, masksVisible, approved, closeDialogs]);
  return spaceHeld;
}
