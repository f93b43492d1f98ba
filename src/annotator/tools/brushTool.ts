/**
 * Brush and eraser: idle -> painting -> idle. Each pointer move paints the capsule from the last
 * sample to this one straight into the map and invalidates only its box; pointer-up turns the
 * whole stroke into one patch. The eraser is the same tool painting class 0; with the brush, the
 * secondary button or Alt erases for the length of the stroke.
 *
 * Shift-press continues from where the last stroke on this frame ended with a straight capsule, as
 * in Photoshop or GIMP: click, then shift-click along an edge to lay straight segments. The line is
 * part of the new stroke, so it is one undo step with it.
 */
import type { Box } from '../../masks/labelMap';
import { capsuleBox, snapBrushCentre, stampCapsule, type Point } from '../paint/brush';
import { paintTable, type PaintClass, type WriteTable } from '../paint/paintRule';
import { GestureBackup } from './gestureBackup';
import { BackedTool } from './toolBase';
import { isSubtract, startsGesture, type PointerInput, type ToolContext, type ToolPreview } from './types';

interface Painting {
  name: 'painting';
  backup: GestureBackup;
  frameIndex: number;
  table: WriteTable;
  size: number;
  erase: boolean;
  last: Point;
}

export class BrushTool extends BackedTool<Painting> {
  readonly id: 'brush' | 'eraser';
  private hover: Point | null = null;
  /** Where the last finished stroke ended, for shift-press straight lines (same frame only). */
  private lastEnd: { frameIndex: number; point: Point } | null = null;

  constructor(ctx: ToolContext, mode: 'paint' | 'erase' = 'paint') {
    super(ctx);
    this.id = mode === 'erase' ? 'eraser' : 'brush';
  }

  get preview(): ToolPreview | null {
    if (!this.hover) return null;
    const size = this.s.name === 'painting' ? this.s.size : this.ctx.brushSize;
    const erase = this.s.name === 'painting' ? this.s.erase : this.id === 'eraser' || this.ctx.activeClass === 0;
    const c = snapBrushCentre(this.hover, size);
    return { kind: 'brush', x: c.x, y: c.y, radius: size / 2, erase };
  }

  onPointerDown(p: PointerInput): void {
    this.hover = { x: p.x, y: p.y };
    if (this.s.name !== 'idle' || !startsGesture(p)) return;
    const { ctx } = this;
    const erase = this.id === 'eraser' || isSubtract(p) || ctx.activeClass === 0;
    const value: PaintClass = erase ? 0 : ctx.activeClass;
    const size = Math.max(1, ctx.brushSize);
    const start = snapBrushCentre(p, size);
    this.s = {
      name: 'painting',
      backup: new GestureBackup(ctx.map),
      frameIndex: ctx.frameIndex,
      table: paintTable(value, ctx.protect, ctx.locked),
      size,
      erase,
      last: start,
    };
    const from = p.shift && this.lastEnd?.frameIndex === ctx.frameIndex ? snapBrushCentre(this.lastEnd.point, size) : start;
    this.stamp(from, start);
  }

  onPointerMove(p: PointerInput): void {
    this.hover = { x: p.x, y: p.y };
    if (this.s.name !== 'painting') return;
    const next = snapBrushCentre(p, this.s.size);
    if (next.x === this.s.last.x && next.y === this.s.last.y) return;
    this.stamp(this.s.last, next);
    this.s.last = next;
  }

  onPointerUp(p: PointerInput): void {
    if (this.s.name !== 'painting') return;
    this.onPointerMove(p);
    this.finish();
  }

  protected actionOf(g: Painting): string {
    return g.erase ? 'erase' : 'brush';
  }

  protected override finished(g: Painting): void {
    this.lastEnd = { frameIndex: g.frameIndex, point: g.last };
  }

  private stamp(a: Point, b: Point): void {
    if (this.s.name !== 'painting') return;
    const { backup, size, table } = this.s;
    const r = size / 2;
    const box = capsuleBox(a, b, r, backup.map.width, backup.map.height);
    backup.save(box);
    stampCapsule(backup.map, a, b, r, table);
    this.invalidate(box);
  }

  private invalidate(box: Box): void {
    if (box.w > 0 && box.h > 0) this.ctx.invalidate(box);
  }
}
