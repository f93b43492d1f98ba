/**
 * Automatic proposals as outlines, each in its label's colour: one canvas for all of them, however
 * many. The highlighted ones (hover, selection) are filled, one small canvas each.
 */
import { useMemo } from 'react';
import { Image } from 'react-konva';
import { hexRgb } from '../../../annotator/canvas/maskPixels';
import type { CanvasOverlayProps } from '../../../annotator/ui/canvasOverlays';
import { useStageData } from '../../../annotator/ui/useStageData';
import { useProposalOutlines, type OutlineItem } from './proposalOutlinesState';

export function ProposalOutlinesOverlay({ clip, stage }: CanvasOverlayProps) {
  const items = useProposalOutlines((s) => s.items);
  const highlight = useProposalOutlines((s) => s.highlight);
  const { width, height } = clip;
  const outlines = useMemo(() => (items && items.length > 0 ? outlinesCanvas(items, width, height) : null), [items, width, height]);
  const filled = useMemo(() => highlight.filter((i) => items?.[i]).map((i) => ({ index: i, item: items![i], canvas: filledCanvas(items![i]) })), [items, highlight]);
  useStageData(stage, 'data-proposals', String(items?.length ?? 0));
  useStageData(stage, 'data-proposal-highlight', filled.map((f) => f.index).join(','));
  return (
    <>
      {outlines && <Image image={outlines} x={0} y={0} />}
      {filled.map(({ index, item, canvas }) => canvas && <Image key={index} image={canvas} x={item.box.x} y={item.box.y} width={item.box.w} height={item.box.h} />)}
    </>
  );
}

/** The edge pixels of every item, in the item's colour, on one frame-sized canvas. */
function outlinesCanvas(items: readonly OutlineItem[], width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d')!;
  const img = ctx.createImageData(width, height);
  for (const it of items) {
    const [r, g, b] = hexRgb(it.colour);
    const { x: bx, y: by, w, h } = it.box;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (!it.data[i]) continue;
        const edge = x === 0 || y === 0 || x === w - 1 || y === h - 1 || !it.data[i - 1] || !it.data[i + 1] || !it.data[i - w] || !it.data[i + w];
        const fx = bx + x;
        const fy = by + y;
        if (!edge || fx < 0 || fy < 0 || fx >= width || fy >= height) continue;
        const o = (fy * width + fx) * 4;
        img.data[o] = r;
        img.data[o + 1] = g;
        img.data[o + 2] = b;
        img.data[o + 3] = 255;
      }
    }
  }
  ctx.putImageData(img, 0, 0);
  return canvas;
}

/** The item's box with its inside filled in its colour, translucent; null for an empty box. */
function filledCanvas(it: OutlineItem): HTMLCanvasElement | null {
  const { w, h } = it.box;
  if (w <= 0 || h <= 0) return null;
  const [r, g, b] = hexRgb(it.colour);
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d')!;
  const img = ctx.createImageData(w, h);
  for (let k = 0; k < w * h; k++) {
    if (!it.data[k]) continue;
    img.data[k * 4] = r;
    img.data[k * 4 + 1] = g;
    img.data[k * 4 + 2] = b;
    img.data[k * 4 + 3] = 120;
  }
  ctx.putImageData(img, 0, 0);
  return canvas;
}
