/** The paint tool's preview under the pointer: the brush outline, or the lasso / polygon path with its first point. */
import { useSyncExternalStore } from 'react';
import { Circle, Line } from 'react-konva';
import type { CanvasOverlayProps } from '../canvasOverlays';
import { useEditorView } from '../editorViewState';
import { toolPreviewOf } from './toolPreviewStore';

const NEUTRAL = '#e5e7eb';

export function ToolPreviewOverlay({ session, scale: s }: CanvasOverlayProps) {
  const store = toolPreviewOf(session);
  const { preview, activeClass } = useSyncExternalStore(store.subscribe, store.get);
  const colours = useEditorView((v) => v.colours);
  if (!preview) return null;
  const stroke = preview.kind === 'brush' && preview.erase ? NEUTRAL : activeClass === 1 || activeClass === 2 ? colours[activeClass] : NEUTRAL;
  if (preview.kind === 'brush') {
    return <Circle x={preview.x} y={preview.y} radius={preview.radius} stroke={stroke} strokeWidth={1.5 / s} dash={preview.erase ? [4 / s, 3 / s] : undefined} />;
  }
  if (preview.kind !== 'path' || preview.points.length === 0) return null;
  const points = preview.points.flatMap((p) => [p.x, p.y]);
  if (preview.hover && !preview.closed) points.push(preview.hover.x, preview.hover.y);
  const first = preview.points[0];
  return (
    <>
      <Line points={points} closed={preview.closed} stroke={preview.subtract ? NEUTRAL : stroke} strokeWidth={1.5 / s} dash={preview.subtract ? [4 / s, 3 / s] : undefined} />
      <Circle x={first.x} y={first.y} radius={(preview.willClose ? 6 : 3.5) / s} fill={preview.willClose ? '#facc15' : stroke} />
    </>
  );
}
