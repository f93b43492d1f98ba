/**
 * Flood fill: a press fills the 4-connected region of the pressed pixel's label with the active
 * class (or 0 with the secondary button or Alt), through the paint rule; release commits. The
 * region is uniform, so protect either allows the whole fill or none of it.
 *
 * A fill that leaks (reaches the frame border or covers over half the frame, see paint/fillLeak.ts)
 * stays on show but is not kept until confirmed: idle -> confirming, Enter commits it as one patch,
 * Escape (or a tool or frame switch) puts the pixels back. Presses meanwhile are ignored, so a click
 * cannot stack a second fill on an unanswered one.
 */
import { floodRegion } from '../paint/flood';
import { fillLeak } from '../paint/fillLeak';
import { changes, paintTable } from '../paint/paintRule';
import { fillSpans } from '../paint/spans';
import { GestureBackup } from './gestureBackup';
import { BackedTool } from './toolBase';
import { isSubtract, startsGesture, type PointerInput, type ToolPreview } from './types';

interface Filled {
  /** 'filled': pointer still down, commits on release; 'confirming': waits for Enter or Escape. */
  name: 'filled' | 'confirming';
  backup: GestureBackup;
  frameIndex: number;
  action: string;
  fraction: number;
  reachesBorder: boolean;
}

export class FloodFillTool extends BackedTool<Filled> {
  readonly id = 'fill' as const;

  get preview(): ToolPreview | null {
    if (this.s.name !== 'confirming') return null;
    return { kind: 'fill-confirm', fraction: this.s.fraction, reachesBorder: this.s.reachesBorder };
  }

  onPointerDown(p: PointerInput): void {
    if (this.s.name !== 'idle' || !startsGesture(p)) return;
    const { ctx } = this;
    const region = floodRegion(ctx.map, p.x, p.y);
    const value = isSubtract(p) ? 0 : ctx.activeClass;
    const table = paintTable(value, ctx.protect, ctx.locked);
    if (!region || !changes(table, region.label)) return;
    const leak = fillLeak(region, ctx.map.width, ctx.map.height);
    const backup = new GestureBackup(ctx.map);
    backup.save(region.box);
    fillSpans(ctx.map, region, table[region.label]); // uniform region: one native fill per run
    ctx.invalidate(region.box);
    this.s = {
      name: leak.asks ? 'confirming' : 'filled',
      backup,
      frameIndex: ctx.frameIndex,
      action: value === 0 ? 'fill.erase' : 'fill',
      fraction: leak.fraction,
      reachesBorder: leak.reachesBorder,
    };
  }

  onPointerMove(): void {}

  onPointerUp(): void {
    if (this.s.name === 'filled') this.finish();
  }

  /** Enter keeps a fill waiting for confirmation; Escape (ToolBase) abandons it. */
  override onKey(key: string): boolean {
    if (key === 'Enter' && this.s.name === 'confirming') {
      super.finish();
      return true;
    }
    return super.onKey(key);
  }

  /** A tool or frame switch is not a yes: an unconfirmed fill is rolled back. */
  override finish(): void {
    if (this.s.name === 'confirming') this.cancel();
    else super.finish();
  }

  protected actionOf(g: Filled): string {
    return g.action;
  }
}
