/**
 * A proposed labelling of the shown frame ("Suggest states"), until accepted or discarded: its
 * actionable and transformed pixels each in their state colour, so it can be judged as a whole.
 */
import { useMemo } from 'react';
import { Image } from 'react-konva';
import type { Box, LabelMap } from '../../../masks/labelMap';
import { hexRgb, maskBoxPixels } from '../../../annotator/canvas/maskPixels';
import type { StateColours } from '../../../annotator/canvas/stateColours';
import type { CanvasOverlayProps } from '../../../annotator/ui/canvasOverlays';
import { useEditorView } from '../../../annotator/ui/editorViewState';
import { useStageData } from '../../../annotator/ui/useStageData';
import { useSuggestionPreview } from './suggestionPreviewState';

export function LabelPreviewOverlay({ stage }: CanvasOverlayProps) {
  const labels = useSuggestionPreview((s) => s.labels);
  const colours = useEditorView((v) => v.colours);
  const shown = useMemo(() => (labels ? statesBitmap(labels, colours) : null), [labels, colours]);
  useStageData(stage, 'data-label-preview', shown ? `${shown.act} ${shown.trf}` : undefined);
  if (!shown) return null;
  return <Image image={shown.canvas} x={shown.box.x} y={shown.box.y} width={shown.box.w} height={shown.box.h} opacity={0.65} />;
}

/** The state pixels' tight box drawn in their colours, with their counts; null when the map has none. */
function statesBitmap(labels: LabelMap, colours: StateColours): { canvas: HTMLCanvasElement; box: Box; act: number; trf: number } | null {
  const box = statesBox(labels);
  if (!box) return null;
  const canvas = document.createElement('canvas');
  canvas.width = box.w;
  canvas.height = box.h;
  const ctx = canvas.getContext('2d')!;
  const img = ctx.createImageData(box.w, box.h);
  maskBoxPixels(labels, box, 'fill', img.data, { 1: hexRgb(colours[1]), 2: hexRgb(colours[2]) });
  ctx.putImageData(img, 0, 0);
  let act = 0;
  let trf = 0;
  for (const v of labels.data) {
    if (v === 1) act++;
    else if (v === 2) trf++;
  }
  return { canvas, box, act, trf };
}

/** The tight box of the state pixels (1 or 2) of a label map, or null when it has none. */
function statesBox(map: LabelMap): Box | null {
  const { width, height, data } = map;
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = data[y * width + x];
      if (v !== 1 && v !== 2) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? null : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}
