/**
 * Where the n-th stroke of a run goes: every stroke gets its own spot on the demo clip, far enough
 * from every other that the stored mask tells exactly which strokes survived. A stroke is a short
 * horizontal brush drag (brush 16, so radius 8) of STROKE_HALF_LENGTH on each side of its centre.
 */

export interface StrokeSpot {
  /** Position of the stroke in the run, from 0. */
  n: number;
  frameIndex: number;
  /** Centre of the stroke in image pixels. */
  x: number;
  y: number;
}

export const STROKE_HALF_LENGTH = 6;
const BRUSH_RADIUS = 8;
/** Footprint is 2*(6+8) = 28 px wide and 16 px tall; the pitch leaves a gap of 8 and 6 px. */
const PITCH_X = 36;
const PITCH_Y = 22;
/** Centres keep this far from the edges, so a whole footprint (half width 14, half height 8) fits. */
const MARGIN_X = STROKE_HALF_LENGTH + BRUSH_RADIUS + 6;
const MARGIN_Y = BRUSH_RADIUS + 6;

export interface FrameSize {
  width: number;
  height: number;
  frameCount: number;
}

export function spotsPerFrame(size: FrameSize): number {
  return columns(size) * rows(size);
}

export function strokeSpot(n: number, size: FrameSize): StrokeSpot {
  const perFrame = spotsPerFrame(size);
  const frameIndex = Math.floor(n / perFrame);
  if (perFrame === 0 || frameIndex >= size.frameCount) {
    throw new Error(`strokePlan: stroke ${n} does not fit on a ${size.width}x${size.height} clip of ${size.frameCount} frames (${perFrame} per frame)`);
  }
  const k = n % perFrame;
  const cols = columns(size);
  return { n, frameIndex, x: MARGIN_X + (k % cols) * PITCH_X, y: MARGIN_Y + Math.floor(k / cols) * PITCH_Y };
}

function columns(size: FrameSize): number {
  return Math.max(0, Math.floor((size.width - 2 * MARGIN_X) / PITCH_X) + 1);
}

function rows(size: FrameSize): number {
  return Math.max(0, Math.floor((size.height - 2 * MARGIN_Y) / PITCH_Y) + 1);
}
