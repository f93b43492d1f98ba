/**
 * Click-by-click polygon: idle -> drawing -> idle. Each press adds a vertex; the polygon closes on
 * a press on its first vertex, a double click or Enter, and is then filled with the active class
 * (or cut to 0 when the first press used the secondary button or Alt). Backspace removes the last
 * vertex, Escape drops the polygon. Pixels change only when it closes, so cancelling touches nothing.
 */
import type { Point } from '../paint/brush';
import { commitPolygon } from './commitSpans';
import { IDLE, ToolBase } from './toolBase';
import { isSubtract, startsGesture, type PointerInput, type ToolPreview } from './types';

interface Drawing {
  name: 'drawing';
  points: Point[];
  subtract: boolean;
  frameIndex: number;
}

export class PolygonTool extends ToolBase<Drawing> {
  readonly id = 'polygon' as const;
  private hover: Point | null = null;

  get preview(): ToolPreview | null {
    if (this.s.name !== 'drawing') return null;
    return {
      kind: 'path',
      points: this.s.points.slice(),
      closed: false,
      subtract: this.s.subtract,
      hover: this.hover,
      willClose: this.hover !== null && this.hitsFirst(this.hover),
    };
  }

  onPointerDown(p: PointerInput): void {
    this.hover = { x: p.x, y: p.y };
    if (!startsGesture(p)) return;
    if (this.s.name === 'idle') {
      this.s = { name: 'drawing', points: [{ x: p.x, y: p.y }], subtract: isSubtract(p), frameIndex: this.ctx.frameIndex };
      return;
    }
    // The first press of a double click already placed this vertex; the second one closes.
    if ((p.clickCount ?? 1) >= 2 || this.hitsFirst(p)) {
      this.close();
      return;
    }
    const last = this.s.points[this.s.points.length - 1];
    if (last.x !== p.x || last.y !== p.y) this.s.points.push({ x: p.x, y: p.y });
  }

  onPointerMove(p: PointerInput): void {
    this.hover = { x: p.x, y: p.y };
  }

  onPointerUp(): void {}

  override onKey(key: string): boolean {
    if (this.s.name !== 'drawing') return false;
    if (key === 'Enter') {
      this.close();
      return true;
    }
    if (key === 'Backspace') {
      this.s.points.pop();
      if (this.s.points.length === 0) this.s = IDLE;
      return true;
    }
    return super.onKey(key);
  }

  cancel(): void {
    this.s = IDLE;
  }

  /** An open polygon is not a shape yet: switching away drops it (see Tool.finish). */
  finish(): void {
    this.cancel();
  }

  private hitsFirst(p: Point): boolean {
    if (this.s.name !== 'drawing' || this.s.points.length < 3) return false;
    const first = this.s.points[0];
    return Math.hypot(p.x - first.x, p.y - first.y) <= this.ctx.hitRadius;
  }

  /** Fewer than three vertices enclose nothing: the polygon stays open rather than vanish. */
  private close(): void {
    if (this.s.name !== 'drawing' || this.s.points.length < 3) return;
    const { points, subtract, frameIndex } = this.s;
    this.s = IDLE;
    // Vertices placed on another frame do not describe this one.
    if (frameIndex !== this.ctx.frameIndex) return;
    commitPolygon(this.ctx, points, subtract, 'polygon');
  }
}
