/**
 * Placing a comment on the editor canvas: the 'placing-comment' mode (its Escape action) and, while
 * it is on, the room tool that turns the next click on the frame into the comment's point. The pins
 * themselves are a canvas overlay (overlays/CommentPinsOverlay.tsx).
 */
import { useMemo } from 'react';
import type { Clip } from '../../store/types';
import type { EditorSession } from '../../annotator/session/editorSession';
import type { RoomTool } from '../../annotator/tools/roomTool';
import { useRoomTool } from '../../annotator/ui/useRoomTool';
import { useReviewUi } from './reviewUiState';
import { usePublishRunners, usePublishScope } from '../../annotator/ui/roomActions';
import { COMMENT_ACTION_IDS } from './reviewActions';

interface Props {
  clip: Clip;
  session: EditorSession;
}

export function CommentPlacing({ clip, session }: Props) {
  const placing = useReviewUi((s) => s.placing);

  // Escape stops placing a comment: an action of the 'placing-comment' mode (reviewActions.ts).
  usePublishScope('placing-comment', placing);
  usePublishRunners({ [COMMENT_ACTION_IDS.cancelPlacing]: { disabled: placing ? null : 'no comment is being placed', run: () => useReviewUi.getState().set({ placing: false }) } });

  // While placing, the canvas is the placing tool's (docs/architecture.md, "Room tools"): the paint
  // tool gets nothing, and a click on the frame is the comment's point. A comment is review data, not
  // masks, so it may be placed on a read-only clip too.
  const { width, height } = clip;
  const placeTool = useMemo<RoomTool | null>(
    () =>
      placing
        ? {
            scope: 'placing-comment',
            edits: false,
            cursor: 'crosshair',
            hint: 'Click where the comment belongs (Esc to cancel)',
            onPointerDown: (p) => {
              if (p.button !== 0) return;
              const x = Math.floor(p.x);
              const y = Math.floor(p.y);
              if (x < 0 || y < 0 || x >= width || y >= height) return; // outside the frame: keep waiting
              useReviewUi.getState().set({ placing: false, pending: { frameIndex: session.snapshot.frameIndex, x, y } });
            },
            onPointerMove: () => undefined,
            onPointerUp: () => undefined,
          }
        : null,
    [placing, session, width, height],
  );
  useRoomTool(session, placeTool);
  return null;
}
