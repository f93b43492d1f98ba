/**
 * Move region: press on a labelled pixel to pick its 4-connected region, drag to move it by whole
 * pixels, release to commit. Vacated pixels become 0; the moved pixels land through the protect
 * rule for their own label (with protect on they only cover background, never the other class).
 * With Alt the region is copied instead: the original stays. Pixels dragged off the image are lost.
 *
 * Each move puts the previous placement back from the gesture backup and places the region anew,
 * so the map always shows exactly "original, with the region at the current offset".
 */
import { boxUnion } from '../../masks/geometry';
import type { Box } from '../../masks/labelMap';
import { floodRegion, type Region } from '../paint/flood';
import { paintTable, type WriteTable } from '../paint/paintRule';
import { fillSpans, paintSpans, translateSpans } from '../paint/spans';
import { GestureBackup } from './gestureBackup';
import { BackedTool } from './toolBase';
import { type PointerInput, type ToolPreview } from './types';

interface Moving {
  name: 'moving';
  backup: GestureBackup;
  frameIndex: number;
  region: Region;
  table: WriteTable;
  copy: boolean;
  start: { x: number; y: number };
  dx: number;
  dy: number;
  /** Everything the current placement changed. */
  placed: Box;
}

export class MoveRegionTool extends BackedTool<Moving> {
  readonly id = 'move' as const;

  get preview(): ToolPreview | null {
    return this.s.name === 'moving' ? { kind: 'move', dx: this.s.dx, dy: this.s.dy, copy: this.s.copy } : null;
  }

  onPointerDown(p: PointerInput): void {
    if (this.s.name !== 'idle' || p.button !== 0) return;
    const { ctx } = this;
    const region = floodRegion(ctx.map, p.x, p.y);
    if (!region || region.label === 0) return;
    const backup = new GestureBackup(ctx.map);
    backup.save(region.box);
    this.s = {
      name: 'moving',
      backup,
      frameIndex: ctx.frameIndex,
      region,
      table: paintTable(region.label, ctx.protect, ctx.locked),
      copy: p.alt,
      start: { x: p.x, y: p.y },
      dx: 0,
      dy: 0,
      placed: { ...region.box },
    };
  }

  onPointerMove(p: PointerInput): void {
    const s = this.s;
    if (s.name !== 'moving') return;
    const dx = Math.round(p.x - s.start.x);
    const dy = Math.round(p.y - s.start.y);
    if (dx === s.dx && dy === s.dy) return;
    const { map } = s.backup;
    s.backup.restore(s.placed);
    const dest = translateSpans(s.region, dx, dy, map.width, map.height);
    s.backup.save(dest.box);
    if (!s.copy) fillSpans(map, s.region, 0); // lift the region: its pixels become background
    paintSpans(map, dest, s.table);
    const previous = s.placed;
    s.placed = boxUnion(s.region.box, dest.box);
    s.dx = dx;
    s.dy = dy;
    this.ctx.invalidate(boxUnion(previous, s.placed));
  }

  onPointerUp(p: PointerInput): void {
    if (this.s.name !== 'moving') return;
    this.onPointerMove(p);
    this.finish();
  }

  protected actionOf(g: Moving): string {
    return g.copy ? 'move.copy' : 'move';
  }
}
