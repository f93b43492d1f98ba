/**
 * Writes a drag gesture's pointer input as it happens (store/gestureDrafts.ts), so a stroke whose
 * commit is cut off by a dying browser — in the instant after pointer-up, or mid-stroke — can be
 * replayed at the next start (recoverGestures.ts). The commit settles the rows in its own
 * transaction; a gesture that ends without one (Escape, nothing changed) drops them.
 * Framework-free: the session calls it from its pointer handlers; writes go through a port.
 */
import type { DraftPointer, DraftStart, DraftTool, GestureDraftRef, GestureDraftRow } from '../../store/gestureDrafts';
import type { PointerInput, ToolId } from '../tools/types';

export interface GestureDraftPort {
  write(row: GestureDraftRow): Promise<void>;
  drop(ref: GestureDraftRef): Promise<void>;
}

/** Tools whose gesture the recorder follows; a polygon spans clicks and keys and is not replayed. */
const DRAFTED: ReadonlySet<ToolId> = new Set<DraftTool>(['brush', 'eraser', 'lasso', 'move', 'fill']);

interface OpenGesture {
  ref: GestureDraftRef;
  frameIndex: number;
}

export class GestureDraftRecorder {
  private open: OpenGesture | null = null;
  private lastGesture = 0;
  private lastWrite: Promise<void> = Promise.resolve();

  constructor(
    private readonly clipId: string,
    private readonly port: GestureDraftPort,
    private readonly now: () => number = Date.now,
  ) {}

  get isOpen(): boolean {
    return this.open !== null;
  }

  /** Settles once every row written or dropped so far is (tests, and a clean close). */
  whenWritten(): Promise<void> {
    return this.lastWrite;
  }

  /** A gesture of `tool` started on `frameIndex` with this pointer-down (ignored for tools not drafted). */
  begin(tool: ToolId, frameIndex: number, start: Omit<DraftStart, 'tool'>, p: PointerInput): void {
    if (this.open) this.abandon();
    if (!DRAFTED.has(tool)) return;
    const at = this.now();
    const gesture = Math.max(at, this.lastGesture + 1);
    this.lastGesture = gesture;
    this.open = { ref: { clipId: this.clipId, gesture, rows: 0 }, frameIndex };
    this.append('down', p, at, { ...start, tool: tool as DraftTool });
  }

  /** One more event of the open gesture (nothing when none is open). */
  input(kind: 'down' | 'move' | 'up', p: PointerInput): void {
    if (this.open) this.append(kind, p, this.now());
  }

  /** The gesture committed on `frameIndex`: its rows go with the commit. */
  take(frameIndex: number): GestureDraftRef | null {
    if (!this.open || this.open.frameIndex !== frameIndex) return null;
    const { ref } = this.open;
    this.open = null;
    return ref;
  }

  /** The gesture ended without a commit: its rows are dropped. */
  abandon(): void {
    if (!this.open) return;
    const { ref } = this.open;
    this.open = null;
    if (ref.rows > 0) this.lastWrite = this.port.drop(ref);
  }

  private append(kind: GestureDraftRow['kind'], p: PointerInput, at: number, start?: DraftStart): void {
    const open = this.open!;
    const row: GestureDraftRow = {
      clipId: this.clipId,
      gesture: open.ref.gesture,
      seq: open.ref.rows,
      frameIndex: open.frameIndex,
      kind,
      p: pointerOf(p),
      at,
      ...(start ? { start } : {}),
    };
    open.ref = { ...open.ref, rows: open.ref.rows + 1 };
    this.lastWrite = this.port.write(row);
  }
}

function pointerOf(p: PointerInput): DraftPointer {
  return { x: p.x, y: p.y, button: p.button, shift: p.shift, alt: p.alt, ...(p.clickCount !== undefined ? { clickCount: p.clickCount } : {}) };
}
