/**
 * Where the session's pointer and keys go: to the room tool that has the input while one is
 * entered (docs/architecture.md, "Room tools"), else to the active tool: the tag tool, the SAM tool,
 * or a paint tool, whose stroke input is written as a draft as it comes (docs/durability.md).
 * Framework-free, like the session that owns it.
 */
import type { EditorToolId } from '../actions';
import { createTool } from '../tools/createTool';
import type { RoomTool } from '../tools/roomTool';
import type { PointerInput, Tool, WritableToolContext } from '../tools/types';
import type { GestureDraftRecorder } from './gestureDraftRecorder';
import { RoomTools } from './roomTools';
import type { SamToolPort, SessionState, ShownFrameHost } from './sessionTypes';

/** The session's own view of the shown frame, which it updates as frames and settings change; the tools read it. */
export interface MutableToolContext extends WritableToolContext, Pick<ShownFrameHost, 'edit'> {}

export interface ToolRouterHost {
  /** The session's state now (tool, read-only, instance number). */
  state(): SessionState;
  /** Who is editing now, for a stroke's draft. */
  author(): string;
  /** In an objects project, the object the active value paints (a stroke's draft names it: slots are per session). */
  paintedObject(): string | undefined;
  /** The objects the stroke must leave alone (recorded so a replay after a crash leaves them too). */
  lockedObjects(): readonly string[];
  /** Tags the region under (x, y) (the tag tool). */
  tagAt(x: number, y: number): void;
  /** A gesture may have begun or ended: refresh busy and the undo state. */
  settle(): void;
  /** Another room tool has the input now, or none. */
  roomToolChanged(): void;
}

export class ToolRouter {
  private tool: Tool;
  /** Set by the AI-assist UI once a SAM model is loaded; null otherwise. */
  private sam: SamToolPort | null = null;
  /** Tools other rooms lend for their input modes; while one is active the paint tool gets no input. */
  private readonly rooms: RoomTools;

  constructor(
    private readonly ctx: MutableToolContext,
    /** Writes the input of a stroke in progress (null on a read-only session). */
    private readonly drafts: GestureDraftRecorder | null,
    private readonly host: ToolRouterHost,
  ) {
    this.tool = createTool('brush', ctx);
    this.rooms = new RoomTools(() => host.roomToolChanged());
  }

  /** A paint-tool gesture is under way. */
  get busy(): boolean {
    return this.tool.busy;
  }

  get preview() {
    return this.rooms.active ? null : this.tool.preview;
  }

  /** The room tool that gets the pointer now, or null. */
  get roomTool(): RoomTool | null {
    return this.rooms.active;
  }

  /** Switches from the active tool to `id`, finishing a gesture under way. */
  switchTool(from: EditorToolId, id: EditorToolId): void {
    this.endGesture();
    if (from === 'sam') this.sam?.clear();
    // The tag and SAM tools have no Tool class: pixels keep the last painting tool.
    if (id !== 'tag' && id !== 'sam') this.tool = createTool(id, this.ctx);
  }

  setSamTool(tool: SamToolPort | null): void {
    if (this.sam && this.sam !== tool) this.sam.clear();
    this.sam = tool;
  }

  clearSam(): void {
    this.sam?.clear();
  }

  /** Lends the input to a room tool until the returned function is called. */
  enterRoomTool(tool: RoomTool): () => void {
    return this.rooms.enter(tool);
  }

  /** Commits a paint gesture under way. */
  finishGesture(): void {
    this.tool.finish();
  }

  /** Commits a paint gesture under way and closes its draft. */
  endGesture(): void {
    this.tool.finish();
    this.closeDraftIfIdle();
  }

  /** Throws away a gesture under way and the SAM tool's clicks (the clip is read again). */
  dropGesture(): void {
    this.tool.cancel();
    this.sam?.clear();
    this.closeDraftIfIdle();
  }

  /** The pointer was taken away mid-press. */
  cancel(): void {
    this.rooms.cancel();
    this.tool.cancel();
  }

  /** A drafted gesture that ended without committing (Escape, nothing changed) drops its rows. */
  closeDraftIfIdle(): void {
    if (this.drafts?.isOpen && !this.tool.busy) this.drafts.abandon();
  }

  /** Forgets the room tools (the session closes). */
  clearRoomTools(): void {
    this.rooms.clear();
  }

  pointerDown(p: PointerInput): void {
    if (this.ctx.frameIndex < 0 || this.rooms.down(p, this.host.state().readOnly)) return;
    const { readOnly, tool } = this.host.state();
    if (readOnly) return;
    if (tool === 'tag') {
      if (p.button === 0) this.host.tagAt(p.x, p.y);
      return;
    }
    if (tool === 'sam') {
      this.sam?.onPointerDown(p);
      return;
    }
    const wasBusy = this.tool.busy;
    this.tool.onPointerDown(p);
    if (!wasBusy && this.tool.busy) {
      const { activeClass, protect, brushSize, hitRadius, frameIndex } = this.ctx;
      const object = this.host.paintedObject();
      const locked = this.host.lockedObjects();
      this.drafts?.begin(
        this.tool.id,
        frameIndex,
        { activeClass, protect, brushSize, hitRadius, author: this.host.author(), ...(object ? { object } : {}), ...(locked.length > 0 ? { locked: [...locked] } : {}) },
        p,
      );
    } else this.drafts?.input('down', p);
    this.host.settle();
  }

  pointerMove(p: PointerInput): void {
    if (this.rooms.move(p, this.host.state().readOnly)) return;
    const { readOnly, tool } = this.host.state();
    if (readOnly || tool === 'tag') return;
    if (tool === 'sam') return this.sam?.onPointerMove(p);
    this.tool.onPointerMove(p);
    if (this.tool.busy) this.drafts?.input('move', p);
  }

  pointerUp(p: PointerInput): void {
    if (this.rooms.up(p, this.host.state().readOnly)) return;
    const { readOnly, tool } = this.host.state();
    if (readOnly || tool === 'tag') return;
    if (tool === 'sam') return this.sam?.onPointerUp(p);
    // The up row is written before the tool commits, so the commit settles it along with the rest.
    this.drafts?.input('up', p);
    this.tool.onPointerUp(p);
    this.host.settle();
  }

  /** Enter, Escape, Backspace (and Tab for SAM) for the active tool; true when the tool used the key. */
  key(key: string, shift: boolean): boolean {
    const { readOnly, tool } = this.host.state();
    if (tool === 'sam') return !readOnly && (this.sam?.onKey(key, shift) ?? false);
    const used = this.tool.onKey(key);
    this.host.settle();
    return used;
  }
}
