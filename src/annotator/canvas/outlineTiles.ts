/**
 * The outline's per-tile paths (outlineShape.ts) and when they are built. After a frame switch every
 * tile with content is traced once the frame has stayed shown a moment (SETTLE_MS), in idle time, a
 * few at a time, and the outline is drawn once all are ready: tracing a 720p frame cost ~10 ms of the
 * switch's main thread, and stepping through a clip (a held arrow key repeats every ~33 ms) switches
 * again before the outline would have been seen (bench: switch frames). The fill shows the new frame
 * at once meanwhile. Tiles a stroke touched are traced at the next draw, so
 * painting shows its outline in the same animation frame as before.
 * Pure: the tracer and the idle scheduler are given (the browser's requestIdleCallback in the app).
 */
import type { Box } from '../../masks/labelMap';

export interface IdleScheduler {
  /**
   * Calls `fn` when the page is idle, `delayMs` from now at the earliest, with the time (ms) left
   * before the page needs the thread again.
   */
  request(fn: (timeLeft: () => number) => void, delayMs: number): () => void;
}

/** How long a new frame stays shown before its outline is traced (ms). */
export const SETTLE_MS = 100;

/** The browser's idle callbacks; waiting at most `maxWaitMs` on a busy page, then building a slice anyway. */
export function browserIdle(maxWaitMs = 150, busySliceMs = 6): IdleScheduler {
  return {
    request(fn, delayMs) {
      let cancel = () => undefined as void;
      const whenIdle = () => {
        if (typeof requestIdleCallback !== 'function') {
          const end = performance.now() + busySliceMs;
          return fn(() => end - performance.now());
        }
        const id = requestIdleCallback(
          (deadline) => {
            const end = performance.now() + busySliceMs;
            fn(() => (deadline.didTimeout ? end - performance.now() : deadline.timeRemaining()));
          },
          { timeout: maxWaitMs },
        );
        cancel = () => cancelIdleCallback(id);
      };
      const t = setTimeout(whenIdle, delayMs);
      cancel = () => clearTimeout(t);
      return () => cancel();
    },
  };
}

/** Keeps building in one idle slice while more than this is left (ms): one tile costs well under it. */
const SLICE_MARGIN_MS = 1;

export class OutlineTiles<P> {
  private readonly built = new Map<string, P>();
  /** Traced at the next draw (a stroke touched them). */
  private readonly dirty = new Map<string, Box>();
  /** Traced in idle time (a new frame's tiles). */
  private readonly pending = new Map<string, Box>();
  private cancelIdle: (() => void) | null = null;

  /**
   * `trace` turns a tile into its paths (null: no outline there); `ready` is called when the tiles
   * of a new frame are all traced (the caller draws the outline then).
   */
  constructor(
    private readonly trace: (tile: Box) => P | null,
    private readonly idle: IdleScheduler,
    private readonly ready: () => void,
  ) {}

  /** A new map: forget every path; `tiles` (those holding content) are traced when the page is idle. */
  reset(tiles: readonly Box[]): void {
    this.built.clear();
    this.dirty.clear();
    this.pending.clear();
    for (const t of tiles) this.pending.set(keyOf(t), t);
    this.schedule(SETTLE_MS);
  }

  /** Pixels changed in `tiles`: they are traced again at the next draw. */
  invalidate(tiles: readonly Box[]): void {
    for (const t of tiles) {
      const key = keyOf(t);
      this.pending.delete(key);
      this.dirty.set(key, t);
    }
  }

  /** True while a new frame's tiles are still being traced: its outline is not drawn yet. */
  get tracing(): boolean {
    return this.pending.size > 0;
  }

  /** The paths to draw, tracing the tiles a stroke touched first. Empty while a new frame is traced. */
  paths(): IterableIterator<P> {
    for (const [key, tile] of this.dirty) this.store(key, tile);
    this.dirty.clear();
    return this.pending.size > 0 ? new Map<string, P>().values() : this.built.values();
  }

  /** Stops tracing in idle time (the view is destroyed). */
  destroy(): void {
    this.cancelIdle?.();
    this.cancelIdle = null;
    this.pending.clear();
  }

  private store(key: string, tile: Box): void {
    const p = this.trace(tile);
    if (p === null) this.built.delete(key);
    else this.built.set(key, p);
  }

  private schedule(delayMs: number): void {
    this.cancelIdle?.();
    this.cancelIdle = null;
    if (this.pending.size === 0) return;
    this.cancelIdle = this.idle.request((timeLeft) => {
      this.cancelIdle = null;
      // At least one tile per slice, so a page that is never idle still gets its outline.
      do {
        const next = this.pending.entries().next();
        if (next.done) break;
        const [key, tile] = next.value;
        this.pending.delete(key);
        this.store(key, tile);
      } while (timeLeft() > SLICE_MARGIN_MS);
      if (this.pending.size > 0) this.schedule(0);
      else this.ready();
    }, delayMs);
  }
}

function keyOf(tile: Box): string {
  return `${tile.x},${tile.y}`;
}
