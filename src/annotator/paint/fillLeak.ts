/**
 * Whether a flood fill "leaked": a gap of one pixel between two strokes is enough for a fill meant
 * for the inside of an outline to pour over the whole frame. A fill whose region reaches the frame
 * border or covers more than half the frame is therefore asked about before it is kept.
 */
import type { Box } from '../../masks/labelMap';

/** Share of the frame above which a fill asks first, even if it stays clear of the border. */
export const LEAK_FRACTION = 0.5;

export interface FillLeak {
  /** Share of the frame the region covers, 0..1. */
  fraction: number;
  /** Some pixel of the region lies on the frame's edge. */
  reachesBorder: boolean;
  /** The fill should be confirmed before it is kept. */
  asks: boolean;
}

/** `region`: the flood region's tight box and pixel count. */
export function fillLeak(region: { box: Box; area: number }, width: number, height: number): FillLeak {
  const { box, area } = region;
  const fraction = area / (width * height);
  // The box is tight, so touching an edge of the frame means a region pixel lies on it.
  const reachesBorder = area > 0 && (box.x <= 0 || box.y <= 0 || box.x + box.w >= width || box.y + box.h >= height);
  return { fraction, reachesBorder, asks: reachesBorder || fraction > LEAK_FRACTION };
}

/** The question put to the user, e.g. "This fill covers 62 % of the frame and reaches its border — fill anyway?". */
export function fillQuestion(leak: Pick<FillLeak, 'fraction' | 'reachesBorder'>): string {
  const percent = Math.round(leak.fraction * 100);
  const share = percent < 1 ? 'less than 1 %' : `${percent} %`;
  return `This fill covers ${share} of the frame${leak.reachesBorder ? ' and reaches its border' : ''} — fill anyway?`;
}
