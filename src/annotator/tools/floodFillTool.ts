/**
 * Flood fill: a press fills the 4-connected region of the pressed pixel's label with the active
 * class (or 0 with the secondary button or Alt), through the protect rule; release commits. The
 * region is uniform, so protect either allows the whole fill or none of it.
 */
import { floodRegion } from '../paint/flood';
import { changes, paintTable } from '../paint/paintRule';
import { fillSpans } from '../paint/spans';
import { GestureBackup } from './gestureBackup';
import { BackedTool } from './toolBase';
import { isSubtract, startsGesture, type PointerInput } from './types';

interface Filled {
  name: 'filled';
  backup: GestureBackup;
  frameIndex: number;
  action: string;
}

export class FloodFillTool extends BackedTool<Filled> {
  readonly id = 'fill' as const;
  readonly preview = null;

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

  protected actionOf(g: Filled): string {
    return g.action;
  }
}
