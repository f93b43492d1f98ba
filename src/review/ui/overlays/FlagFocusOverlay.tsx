/** The box of the flag picked in the flags panel, dashed around its region on its frame. */
import { Rect } from 'react-konva';
import type { CanvasOverlayProps } from '../../../annotator/ui/canvasOverlays';
import { useReviewUi } from '../reviewUiState';

export function FlagFocusOverlay({ frameIndex, scale: s }: CanvasOverlayProps) {
  const focus = useReviewUi((u) => u.flagFocus);
  if (!focus || focus.frameIndex !== frameIndex) return null;
  const b = focus.box;
  return <Rect x={b.x - 2 / s} y={b.y - 2 / s} width={b.w + 4 / s} height={b.h + 4 / s} stroke="#facc15" strokeWidth={2 / s} dash={[6 / s, 4 / s]} />;
}
