/**
 * Flood fill: a press fills the 4-connected region of the pressed pixel's label with the active
 * class (or 0 with the secondary button or Alt), through the protect rule; release commits. The
 * region is uniform, so protect either allows the whole fill or none of it.
 */
import { floodRegion } from '../paint/flood';
import { changes, paintTable } from '../paint/paintRule';
import { fillSpans } from '../paint/spans';
import { GestureBackup, escapeCancels } from './gestureBackup';
import { isSubtract, startsGesture, type PointerInput, type Tool, type ToolContext } from './types';

type State = { name: 'idle' } | { name: 'filled'; backup: GestureBackup; frameIndex: number; action: string };

export class FloodFillTool implements Tool {
  readonly id = 'fill' as const;
  readonly preview = null;
  private s: State = { name: 'idle' };

  constructor(private readonly ctx: ToolContext) {}

  get state(): string {
    return this.s.name;
  }

  get busy(): boolean {
    return this.s.name !== 'idle';
  }

  onPointerDown(p: PointerInput): void {
    if (this.s.name !== 'idle' || !startsGesture(p)) return;
    const { ctx } = this;
    const region = floodRegion(ctx.map, p.x, p.y);
    const value = isSubtract(p) ? 0 : ctx.activeClass;
    const table = paintTable(value, ctx.protect, ctx.activeClass);
    if (!region || !changes(table, region.label)) return;
    const backup = new GestureBackup(ctx.map);
    backup.save(region.box);
    fillSpans(ctx.map, region, table[region.label]); // uniform region: one native fill per run
    ctx.invalidate(region.box);
    this.s = { name: 'filled', backup, frameIndex: ctx.frameIndex, action: value === 0 ? 'fill.erase' : 'fill' };
  }

  onPointerMove(): void {}

  onPointerUp(): void {
    this.finish();
  }

  onKey(key: string): boolean {
    return escapeCancels(this, key);
  }

  cancel(): void {
    if (this.s.name !== 'filled') return;
    const { backup } = this.s;
    this.s = { name: 'idle' };
    backup.rollback(this.ctx);
  }

  finish(): void {
    if (this.s.name !== 'filled') return;
    const { backup, frameIndex, action } = this.s;
    this.s = { name: 'idle' };
    backup.commit(this.ctx, frameIndex, action);
  }
}
