/**
 * Colours a label map for display: actionable red, transformed green, everything else transparent.
 * Pure (writes into a caller's RGBA buffer), so it is shared by the viewer, the editor's layers and
 * thumbnails, and can work on a dirty rectangle only.
 */
import type { Box, LabelMap } from '../masks/labelMap';

export type Rgb = readonly [number, number, number];

export const STATE_COLOURS: Record<1 | 2, Rgb> = {
  1: [239, 68, 68],
  2: [34, 197, 94],
};

export function paintOverlay(map: LabelMap, out: Uint8ClampedArray, opacity = 0.5, box?: Box): void {
  const { width } = map;
  const x0 = box?.x ?? 0;
  const y0 = box?.y ?? 0;
  const x1 = box ? box.x + box.w : map.width;
  const y1 = box ? box.y + box.h : map.height;
  const a = Math.round(Math.min(1, Math.max(0, opacity)) * 255);
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * width + x;
      const v = map.data[i];
      const o = i * 4;
      if (v === 1 || v === 2) {
        const c = STATE_COLOURS[v];
        out[o] = c[0];
        out[o + 1] = c[1];
        out[o + 2] = c[2];
        out[o + 3] = a;
      } else {
        out[o + 3] = 0;
      }
    }
  }
}
