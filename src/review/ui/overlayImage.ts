/** Pixels of the review overlay modes: the error map, or a prediction in the state colours. */
import type { LabelMap } from '../../masks/labelMap';
import { decodeLayer, parseLayer } from '../../masks/layers';
import type { Layer } from '../../store/types';
import { errorMap, paintErrorMap, type ErrorCounts } from '../errorMap';
import type { OverlayMode } from './reviewUiState';

/** A stored layer decoded, or an empty map when the frame has none. */
export function layerMap(layer: Pick<Layer, 'act' | 'trf'> | null | undefined, size: { width: number; height: number }): LabelMap {
  if (!layer) return { width: size.width, height: size.height, data: new Uint8Array(size.width * size.height) };
  return decodeLayer(parseLayer({ act: layer.act, trf: layer.trf }), size);
}

const PRED_RGBA: Record<number, readonly [number, number, number, number]> = {
  1: [239, 68, 68, 150],
  2: [34, 197, 94, 150],
};

/**
 * Paints the overlay of `mode` into `out` (RGBA, the frame's size) and returns the error counts
 * (error mode only). gt mode paints nothing.
 */
export function paintOverlay(mode: OverlayMode, gt: LabelMap, pred: LabelMap | null, out: { width: number; height: number; data: Uint8ClampedArray }): ErrorCounts | null {
  out.data.fill(0);
  if (mode === 'error') {
    const em = errorMap(gt, pred);
    paintErrorMap(em, out);
    return em.counts;
  }
  if ((mode === 'pred' || mode === 'both') && pred) {
    const alpha = mode === 'both' ? 0.6 : 1;
    for (let i = 0; i < pred.data.length; i++) {
      const c = PRED_RGBA[pred.data[i]];
      if (!c) continue;
      const o = i * 4;
      out.data[o] = c[0];
      out.data[o + 1] = c[1];
      out.data[o + 2] = c[2];
      // In "both" the prediction is drawn fainter on top of the gt masks.
      out.data[o + 3] = Math.round(c[3] * alpha);
    }
  }
  return null;
}

/** FP / FN / wrong-state pixel totals of an error map's counts (both states). */
export function errorTotals(c: ErrorCounts): { fp: number; fn: number; wrong: number; tp: number } {
  return { fp: c.fpAct + c.fpTrf, fn: c.fnAct + c.fnTrf, wrong: c.actAsTrf + c.trfAsAct, tp: c.tpAct + c.tpTrf };
}
