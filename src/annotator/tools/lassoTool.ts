/**
 * Freehand lasso: idle -> drawing -> idle. While the pointer is down its path is collected (a
 * preview only); on release the enclosed area is filled with the active class, or cut to 0 when
 * the press used the secondary button or Alt. Escape drops the path.
 */
import type { Point } from '../paint/brush';
import { commitPolygon } from './commitSpans';
import { IDLE, ToolBase } from './toolBase';
import { isSubtract, startsGesture, type PointerInput, type ToolPreview } from './types';

/** Samples closer than this (image px) to the previous one add nothing to the shape. */
const MIN_STEP = 0.5;

interface Drawing {
  name: 'drawing';
  points: Point[];
  subtract: boolean;
  frameIndex: number;
}

export class LassoTool extends ToolBase<Drawing> {
  readonly id = 'lasso' as const;

  get preview(): ToolPreview | null {
    if (this.s.name !== 'drawing') return null;
    return { kind: 'path', points: this.s.points.slice(), closed: true, subtract: this.s.subtract, hover: null, willClose: false };
  }

  onPointerDown(p: PointerInput): void {
    if (this.s.name !== 'idle' || !startsGesture(p)) return;
    this.s = { name: 'drawing', points: [{ x: p.x, y: p.y }], subtract: isSubtract(p), frameIndex: this.ctx.frameIndex };
  }

  onPointerMove(p: PointerInput): void {
    if (this.s.name !== 'drawing') return;
    const last = this.s.points[this.s.points.length - 1];
    if (Math.hypot(p.x - last.x, p.y - last.y) >= MIN_STEP) this.s.points.push({ x: p.x, y: p.y });
  }

  onPointerUp(p: PointerInput): void {
    if (this.s.name !== 'drawing') return;
    this.onPointerMove(p);
    this.finish();
  }

  cancel(): void {
    this.s = IDLE;
  }

  finish(): void {
    if (this.s.name !== 'drawing') return;
    const { points, subtract, frameIndex } = this.s;
    this.s = IDLE;
    if (frameIndex !== this.ctx.frameIndex) return;
    commitPolygon(this.ctx, points, subtract, 'lasso');
  }
}
