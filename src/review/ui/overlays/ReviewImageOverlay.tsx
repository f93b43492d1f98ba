/**
 * The review overlay modes over the frame (error map, prediction, ...: overlayImage.ts), from the
 * stored gt and prediction layers of the shown frame (live: a saved edit redraws). It also hands
 * the error counts it painted to the review panels. Whether the gt masks show in each mode is
 * declared, not set here: reviewMasks.ts.
 */
import { useLayoutEffect, useMemo } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { Image } from 'react-konva';
import { getLayer } from '../../../store/layers';
import type { CanvasOverlayProps } from '../../../annotator/ui/canvasOverlays';
import { notify, messageOf } from '../../../workspace/notices';
import { layerMap, paintOverlay } from '../overlayImage';
import { useReviewUi } from '../reviewUiState';

export function ReviewImageOverlay({ db, clip, frameIndex, stage }: CanvasOverlayProps) {
  const overlay = useReviewUi((u) => u.overlay);
  const predSource = useReviewUi((u) => u.predSource);
  const active = overlay !== 'gt' && predSource !== null;
  const layers = useLiveQuery(async () => {
    if (!active) return null;
    const [gt, pred] = await Promise.all([getLayer(db, clip.id, 'gt', frameIndex), getLayer(db, clip.id, predSource, frameIndex)]);
    return { frameIndex, source: predSource, gt: gt ?? null, pred: pred ?? null };
  }, [db, clip.id, frameIndex, active, predSource]);

  const { width, height } = clip;
  const painted = useMemo(() => {
    if (!layers || !active) return null;
    try {
      const size = { width, height };
      const gt = layerMap(layers.gt, size);
      const pred = layers.pred ? layerMap(layers.pred, size) : null;
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext('2d')!;
      const img = ctx.createImageData(width, height);
      const counts = paintOverlay(overlay, gt, pred, img);
      ctx.putImageData(img, 0, 0);
      return { canvas, counts, frameIndex: layers.frameIndex, source: layers.source };
    } catch (err) {
      return { error: messageOf(err) };
    }
  }, [layers, active, overlay, width, height]);

  useLayoutEffect(() => {
    if (painted && 'error' in painted) {
      notify('error', `Could not draw the ${overlay} overlay: ${painted.error}`);
      return;
    }
    if (painted) stage.setAttribute('data-overlay', overlay);
    const errors = painted?.counts ? { frameIndex: painted.frameIndex, source: painted.source, counts: painted.counts } : null;
    useReviewUi.getState().set({ errors });
  }, [painted, overlay, stage]);

  if (!painted || !('canvas' in painted)) return null;
  return <Image image={painted.canvas} x={0} y={0} />;
}
