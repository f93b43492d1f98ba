/**
 * The AI tool's candidate while the SAM tool is active (SAM or its OpenCV fallback): the mask
 * tinted in the class colour, the clicks and the box. Not in the label map until accepted.
 */
import { useCallback, useEffect, useMemo, useReducer, useSyncExternalStore } from 'react';
import { Circle, Image, Rect } from 'react-konva';
import type { CanvasOverlayProps } from '../../annotator/ui/canvasOverlays';
import { useStageData } from '../../annotator/ui/useStageData';
import type { BinaryMask } from '../models/samPostprocess';
import { useAiTool } from './aiToolState';

export function SamPreviewOverlay({ session, scale: s, stage }: CanvasOverlayProps) {
  const assist = useAiTool((t) => t.sam ?? t.fallback);
  const onState = useCallback((fn: () => void) => session.onState(fn), [session]);
  const active = useSyncExternalStore(onState, () => session.snapshot.tool === 'sam');
  const activeClass = useSyncExternalStore(onState, () => session.snapshot.activeClass);
  // The tool's preview is a getter: redraw on every change the tool announces.
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  useEffect(() => assist?.subscribe(redraw), [assist]);
  const preview = active ? (assist?.preview ?? null) : null;
  const mask = preview?.mask?.bbox ? preview.mask : null;
  const tinted = useMemo(() => (mask ? tintedCrop(mask, activeClass === 2 ? [34, 197, 94] : [239, 68, 68]) : null), [mask, activeClass]);
  const area = useMemo(() => (mask ? mask.data.reduce((n, v) => n + v, 0) : 0), [mask]);
  useStageData(stage, 'data-sam-area', String(area));
  if (!preview) return null;
  const box = preview.box;
  return (
    <>
      {tinted && mask?.bbox && <Image image={tinted} x={mask.bbox.x} y={mask.bbox.y} width={mask.bbox.w} height={mask.bbox.h} />}
      {box && <Rect x={Math.min(box.x0, box.x1)} y={Math.min(box.y0, box.y1)} width={Math.abs(box.x1 - box.x0)} height={Math.abs(box.y1 - box.y0)} stroke="#facc15" strokeWidth={1.5 / s} dash={[5 / s, 3 / s]} />}
      {preview.points.map((p, i) => (
        <Circle key={i} x={p.x} y={p.y} radius={4.5 / s} fill={p.positive ? '#22d3ee' : '#f43f5e'} stroke="#000" strokeWidth={1 / s} />
      ))}
    </>
  );
}

/** The mask's box as a canvas, its pixels tinted `rgb` at a fixed translucency. */
function tintedCrop(mask: BinaryMask, rgb: readonly [number, number, number]): HTMLCanvasElement | null {
  const b = mask.bbox;
  if (!b) return null;
  const canvas = document.createElement('canvas');
  canvas.width = b.w;
  canvas.height = b.h;
  const ctx = canvas.getContext('2d')!;
  const img = ctx.createImageData(b.w, b.h);
  for (let y = 0; y < b.h; y++) {
    const row = (b.y + y) * mask.width + b.x;
    for (let x = 0; x < b.w; x++) {
      if (!mask.data[row + x]) continue;
      const o = (y * b.w + x) * 4;
      img.data[o] = rgb[0];
      img.data[o + 1] = rgb[1];
      img.data[o + 2] = rgb[2];
      img.data[o + 3] = 140;
    }
  }
  ctx.putImageData(img, 0, 0);
  return canvas;
}
