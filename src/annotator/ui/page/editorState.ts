import type { EditorState } from '../../actions';
import type { SessionState } from '../../session/editorSession';

/** The editor's state as the action table judges it: the session's, plus what the page knows. */
export function editorStateOf(s: SessionState, frameCount: number, masksVisible: boolean, approved: boolean, paintsObjects = false): EditorState {
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
    paintsObjects,
    readOnlyReason: !s.readOnly ? null : s.viewOnly ? `read-only: ${s.viewOnly}` : approved ? 'read-only: approved clip' : 'read-only: open in another tab',
  };
}
