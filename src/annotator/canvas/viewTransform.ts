/** Zoom and pan as plain numbers: screen = image * scale + offset. Pure, so it is tested headless. */
export interface ViewTransform {
  scale: number;
  x: number;
  y: number;
}

export const MIN_SCALE = 1 / 32;
export const MAX_SCALE = 16;

export function clampScale(s: number): number {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));
}

/** The whole image centred in the viewport with a small margin. */
export function fitTransform(imageW: number, imageH: number, viewW: number, viewH: number, margin = 16): ViewTransform {
  const scale = clampScale(Math.min((viewW - 2 * margin) / imageW, (viewH - 2 * margin) / imageH));
  return { scale, x: (viewW - imageW * scale) / 2, y: (viewH - imageH * scale) / 2 };
}

/** Zooms by `factor` keeping the image point under screen point (sx, sy) fixed. */
export function zoomAround(t: ViewTransform, factor: number, sx: number, sy: number): ViewTransform {
  const scale = clampScale(t.scale * factor);
  const ix = (sx - t.x) / t.scale;
  const iy = (sy - t.y) / t.scale;
  return { scale, x: sx - ix * scale, y: sy - iy * scale };
}

export function toImage(t: ViewTransform, sx: number, sy: number): { x: number; y: number } {
  return { x: (sx - t.x) / t.scale, y: (sy - t.y) / t.scale };
}
