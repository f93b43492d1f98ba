/** The comment pins of the shown frame, numbered as the side panel lists them; the selected one in yellow, resolved ones grey. */
import { useLiveQuery } from 'dexie-react-hooks';
import { Circle, Text } from 'react-konva';
import { listComments } from '../../../store/comments';
import type { CanvasOverlayProps } from '../../../annotator/ui/canvasOverlays';
import { useStageData } from '../../../annotator/ui/useStageData';
import { useReviewUi } from '../reviewUiState';

export function CommentPinsOverlay({ db, clip, frameIndex, scale: s, stage }: CanvasOverlayProps) {
  const comments = useLiveQuery(() => listComments(db, clip.id), [db, clip.id]);
  const selected = useReviewUi((u) => u.selected);
  const roots = (comments ?? []).filter((c) => !c.parentId && c.frameIndex === frameIndex);
  useStageData(stage, 'data-pins', roots.map((c) => `${c.x},${c.y}`).join(';'));
  return roots.map((c, i) => {
    const colour = c.resolved ? '#a1a1aa' : c.id === selected ? '#facc15' : '#38bdf8';
    return [
      <Circle key={`pin${c.id}`} x={c.x + 0.5} y={c.y + 0.5} radius={7 / s} fill={colour} stroke="#000" strokeWidth={1.5 / s} />,
      <Text key={`n${c.id}`} x={c.x + 0.5 - 3 / s} y={c.y + 0.5 - 5 / s} text={String(i + 1)} fontSize={10 / s} fill="#000" />,
    ];
  });
}
