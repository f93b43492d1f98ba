/**
 * What every tool's state machine shares, written once: the idle state, `state` / `busy` for
 * cursors and tests, Escape cancelling a gesture in progress — and, for tools that paint straight
 * into the map during a gesture (brush, fill, move), ending that gesture from its GestureBackup:
 * rolled back on cancel, one patch on finish.
 */
import { GestureBackup } from './gestureBackup';
import type { Tool, ToolContext, ToolId, ToolPreview, PointerInput } from './types';

export type Idle = { name: 'idle' };
export const IDLE: Idle = { name: 'idle' };

export function isIdle(s: { name: string }): s is Idle {
  return s.name === 'idle';
}

/** `S`: the tool's non-idle states, told apart by `name`. */
export abstract class ToolBase<S extends { name: string }> implements Tool {
  abstract readonly id: ToolId;
  abstract readonly preview: ToolPreview | null;
  protected s: S | Idle = IDLE;

  constructor(protected readonly ctx: ToolContext) {}

  get state(): string {
    return this.s.name;
  }

  get busy(): boolean {
    return !isIdle(this.s);
  }

  /** Escape abandons a gesture in progress; tools with more keys override (and call super). */
  onKey(key: string): boolean {
    if (key !== 'Escape' || !this.busy) return false;
    this.cancel();
    return true;
  }

  abstract onPointerDown(p: PointerInput): void;
  abstract onPointerMove(p: PointerInput): void;
  abstract onPointerUp(p: PointerInput): void;
  abstract cancel(): void;
  abstract finish(): void;
}

/** A gesture that writes into the map as it goes, keeping the pre-gesture pixels in `backup`. */
export interface BackedGesture {
  name: string;
  backup: GestureBackup;
  /** The frame the gesture started on: its patch belongs there even if the frame changed since. */
  frameIndex: number;
}

export abstract class BackedTool<S extends BackedGesture> extends ToolBase<S> {
  /** The revision's action name for a finished gesture ('brush', 'fill.erase', 'move.copy', ...). */
  protected abstract actionOf(gesture: S): string;

  /** Called with a gesture about to be committed (e.g. to remember where a stroke ended). */
  protected finished(_gesture: S): void {}

  cancel(): void {
    this.take()?.backup.rollback(this.ctx);
  }

  finish(): void {
    const g = this.take();
    if (!g) return;
    this.finished(g);
    g.backup.commit(this.ctx, g.frameIndex, this.actionOf(g));
  }

  /** The gesture in progress, with the tool already back to idle (so a failing commit cannot leave it busy). */
  private take(): S | null {
    const g = this.s;
    if (isIdle(g)) return null;
    this.s = IDLE;
    return g;
  }
}
