/**
 * How a room's component lends the canvas to its input mode (docs/architecture.md, "Room tools"):
 * the tool is entered on the session while `tool` is non-null and the component is mounted, and
 * left otherwise, which gives the input back to the paint tool. Pass the same object from render to
 * render (useMemo) and read changing state through a ref, or the tool is left and entered again.
 * A tool the session refuses (one that edits masks, on a read-only clip) is simply not entered.
 */
import { useEffect } from 'react';
import type { EditorSession } from '../session/editorSession';
import type { RoomTool } from '../tools/roomTool';

export function useRoomTool(session: EditorSession, tool: RoomTool | null): void {
  useEffect(() => {
    if (!tool) return;
    const entry = session.enterRoomTool(tool);
    return entry.status === 'active' ? entry.leave : undefined;
  }, [session, tool]);
}
