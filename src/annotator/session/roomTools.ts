/**
 * The room tools entered on a session and which one gets the pointer now (docs/architecture.md,
 * "Room tools"). Framework-free, like the session that owns it.
 */
import { ACTION_SCOPES } from '../actions';
import type { RoomTool } from '../tools/roomTool';
import type { PointerInput } from '../tools/types';

export class RoomTools {
  private entered: RoomTool[] = [];
  /** The tool a press began in: the moves and the release of that press are its own, even after it left. */
  private pressed: RoomTool | null = null;

  constructor(private readonly changed: () => void) {}

  /** The tool that gets the input: the first mode in ACTION_SCOPES order, the latest entered among equals. */
  get active(): RoomTool | null {
    let best: RoomTool | null = null;
    for (const t of this.entered) if (!best || ACTION_SCOPES.indexOf(t.scope) <= ACTION_SCOPES.indexOf(best.scope)) best = t;
    return best;
  }

  enter(tool: RoomTool): () => void {
    this.entered.push(tool);
    this.changed();
    return () => {
      const at = this.entered.indexOf(tool);
      if (at < 0) return;
      this.entered.splice(at, 1);
      this.changed();
    };
  }

  clear(): void {
    this.entered = [];
    this.pressed = null;
  }

  /** The pointer was taken away mid-press (pointercancel): no release will come. */
  cancel(): void {
    this.pressed = null;
  }

  /** True when the input belongs to a room tool (delivered, or dropped: an editing tool on a read-only clip). */
  down(p: PointerInput, readOnly: boolean): boolean {
    const tool = this.active;
    if (!tool) return false;
    this.pressed = tool;
    if (this.accepts(tool, readOnly)) tool.onPointerDown(p);
    return true;
  }

  move(p: PointerInput, readOnly: boolean): boolean {
    const tool = this.pressed ?? this.active;
    if (!tool) return false;
    if (this.entered.includes(tool) && this.accepts(tool, readOnly)) tool.onPointerMove(p);
    return true;
  }

  up(p: PointerInput, readOnly: boolean): boolean {
    const tool = this.pressed ?? this.active;
    this.pressed = null;
    if (!tool) return false;
    if (this.entered.includes(tool) && this.accepts(tool, readOnly)) tool.onPointerUp(p);
    return true;
  }

  private accepts(tool: RoomTool, readOnly: boolean): boolean {
    return !(tool.edits && readOnly);
  }
}
