/**
 * Write-through persistence: a committed gesture starts its IndexedDB write at once, inside the
 * pointer-up handler that committed it, so it is in a committed transaction before the next frame is
 * drawn (a delayed write did not survive a crash, reload or tab close in that window: docs/durability.md).
 * Painting still never waits: the write runs asynchronously and `write` (in the app, one Dexie
 * transaction) is independent of Dexie itself so the queue runs in tests.
 *
 * Rules:
 *   - enqueue starts a write immediately when none is in flight; while one is in flight, new items
 *     wait and coalesce per (clip, source, frame): the latest layer wins, every revision is kept, in
 *     order (the revision log is append-only, the layer is a snapshot). They are written the moment
 *     the write in flight ends: that is the only batching there is;
 *   - writes never overlap;
 *   - a failed write is retried with exponential backoff and never dropped: its items are merged
 *     (older first) with anything enqueued since. `write` must be all-or-nothing (one transaction),
 *     or a retry could store a revision twice. While failing, `unsaved()` lists what is not stored,
 *     so the editor can keep it elsewhere (the journal) and warn before the page is left;
 *   - flush() writes now, skipping the backoff (visibilitychange / pagehide / clip switch);
 *   - status is observable for a "saving... / saved / failed, retrying" indicator.
 * Timers (only for the backoff) are injected (default: the global ones) so fake timers drive it.
 */

export interface PendingWrite<L = unknown, R = unknown> {
  clipId: string;
  frameIndex: number;
  /** Layer source: 'gt', 'proposal', 'pred:<name>'. */
  source: string;
  /** The frame's layer after the latest change (e.g. encodeLayer(map)): a snapshot, latest wins. */
  layer: L;
  /** The revisions since the last write, oldest first. */
  revisions: R[];
  /** Draft rows of the gestures these revisions finish, settled by the same write (store/gestureDrafts.ts). */
  drafts?: GestureDraftRef[];
}

import type { GestureDraftRef } from '../store/gestureDrafts';

export type PersistState = 'idle' | 'pending' | 'saving' | 'error';

export interface PersistStatus {
  state: PersistState;
  /** Frame writes (one per clip, source, frame) waiting or in the write in flight. */
  pending: number;
  /** Message of the last failed write; null once a write succeeds. */
  error: string | null;
  /** Failed attempts in a row. */
  retries: number;
}

export interface QueueTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface PersistQueueOptions<L, R> {
  write: (batch: PendingWrite<L, R>[]) => Promise<void>;
  /** First retry delay, doubled per failure (default 500 ms), capped at retryMaxMs (default 30 s). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  timers?: QueueTimers;
}

const globalTimers: QueueTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

interface FlushWaiter {
  /** The write whose success means everything pending at flush() time is stored. */
  target: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class PersistQueue<L = unknown, R = unknown> {
  private readonly write: (batch: PendingWrite<L, R>[]) => Promise<void>;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly timers: QueueTimers;

  private pending = new Map<string, PendingWrite<L, R>>();
  private inFlight: PendingWrite<L, R>[] | null = null;
  private retryTimer: unknown = null;
  private writesStarted = 0;
  private error: string | null = null;
  private retries = 0;
  private waiters: FlushWaiter[] = [];
  private listeners = new Set<(status: PersistStatus) => void>();
  private current: PersistStatus = { state: 'idle', pending: 0, error: null, retries: 0 };
  private destroyed = false;

  constructor(options: PersistQueueOptions<L, R>) {
    this.write = options.write;
    this.retryBaseMs = options.retryBaseMs ?? 500;
    this.retryMaxMs = options.retryMaxMs ?? 30_000;
    this.timers = options.timers ?? globalTimers;
  }

  /** Current status; the same object until something changes (fits useSyncExternalStore). */
  get status(): PersistStatus {
    return this.current;
  }

  /** Calls `listener` on every status change; returns the unsubscribe function. */
  subscribe(listener: (status: PersistStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  enqueue(item: PendingWrite<L, R>): void {
    if (this.destroyed) throw new Error('PersistQueue.enqueue after destroy(): this edit would be lost');
    const key = keyOf(item);
    const prev = this.pending.get(key);
    this.pending.set(key, prev ? merged(prev, item) : { ...item, revisions: item.revisions.slice() });
    // While failing, the retry timer decides when to try again and new items ride along; while a
    // write is in flight, its end starts the next one.
    if (this.retryTimer === null && this.inFlight === null) this.startWrite();
    else this.emit();
  }

  /** Items not yet handed to a write (waiting behind the one in flight, or failed). */
  get waiting(): number {
    return this.pending.size;
  }

  /**
   * The page is going away (pagehide): hand what waits behind the write in flight to a write of its
   * own now instead of after it. IndexedDB runs the two transactions in creation order, so the
   * revisions still land in order; the rule against overlapping writes exists for retries, and
   * there is no retry after this.
   */
  writeBeforeLeaving(): void {
    if (this.inFlight === null || this.pending.size === 0 || this.destroyed) {
      void this.flush().catch(() => undefined);
      return;
    }
    const batch = [...this.pending.values()];
    this.pending = new Map();
    let write: Promise<void>;
    try {
      write = this.write(batch);
    } catch (err) {
      write = Promise.reject(err);
    }
    write.catch(() => {
        // Still here after all (the page stayed): put the batch back for the normal retry path.
        for (const item of batch) {
          const key = keyOf(item);
          const newer = this.pending.get(key);
          this.pending.set(key, newer ? merged(item, newer) : item);
        }
        this.emit();
      });
  }

  /**
   * Forgets every item not handed to a write yet (and a failed batch waiting for its retry): the
   * editor reloaded its clip after another tab changed it, so these were computed from stale masks.
   * A write already in flight still lands. Returns what was forgotten.
   */
  discardQueued(): PendingWrite<L, R>[] {
    const dropped = [...this.pending.values()];
    this.pending = new Map();
    this.clear('retryTimer');
    this.error = null;
    this.retries = 0;
    this.emit();
    return dropped;
  }

  /** Everything not yet stored (waiting, in flight or failed), oldest revisions first, as copies. */
  unsaved(): PendingWrite<L, R>[] {
    const all = new Map<string, PendingWrite<L, R>>();
    for (const item of this.inFlight ?? []) all.set(keyOf(item), { ...item, revisions: item.revisions.slice() });
    for (const [key, newer] of this.pending) {
      const older = all.get(key);
      all.set(key, older ? merged(older, newer) : { ...newer, revisions: newer.revisions.slice() });
    }
    return [...all.values()];
  }

  /**
   * Writes everything enqueued so far, now. Resolves once it is stored; rejects if a write fails
   * (the items stay queued and are retried with backoff).
   */
  flush(): Promise<void> {
    if (this.pending.size === 0 && this.inFlight === null) return Promise.resolve();
    const target = this.pending.size > 0 ? this.writesStarted + 1 : this.writesStarted;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ target, resolve, reject }));
    this.clear('retryTimer');
    if (this.inFlight === null) this.startWrite();
    return done;
  }

  /** Stops the timers. Call flush() first: anything still queued is not written. */
  destroy(): void {
    this.destroyed = true;
    this.clear('retryTimer');
    this.listeners.clear();
  }

  private startWrite(): void {
    if (this.pending.size === 0 || this.destroyed) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.inFlight = batch;
    const id = ++this.writesStarted;
    this.emit();
    let result: Promise<void>;
    try {
      result = this.write(batch);
    } catch (err) {
      result = Promise.reject(err);
    }
    result.then(
      () => this.succeeded(id),
      (err: unknown) => this.failed(batch, err),
    );
  }

  private succeeded(id: number): void {
    this.inFlight = null;
    this.error = null;
    this.retries = 0;
    this.waiters = this.waiters.filter((w) => {
      if (w.target > id) return true;
      w.resolve();
      return false;
    });
    if (this.pending.size > 0) this.startWrite();
    else this.emit();
  }

  private failed(batch: PendingWrite<L, R>[], err: unknown): void {
    this.inFlight = null;
    // Put the batch back in front: its revisions are older than anything enqueued since.
    const back = new Map<string, PendingWrite<L, R>>();
    for (const item of batch) back.set(keyOf(item), item);
    for (const [key, newer] of this.pending) {
      const older = back.get(key);
      back.set(key, older ? merged(older, newer) : newer);
    }
    this.pending = back;
    this.error = err instanceof Error ? err.message : String(err);
    this.retries++;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(err);
    this.clear('retryTimer');
    if (!this.destroyed) {
      const delay = Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** (this.retries - 1));
      this.retryTimer = this.timers.setTimeout(() => {
        this.retryTimer = null;
        this.startWrite();
      }, delay);
    }
    this.emit();
  }

  private clear(which: 'retryTimer'): void {
    const handle = this[which];
    if (handle !== null) this.timers.clearTimeout(handle);
    this[which] = null;
  }

  private emit(): void {
    const pending = this.pending.size + (this.inFlight?.length ?? 0);
    const state: PersistState =
      this.inFlight !== null ? 'saving' : this.error !== null ? 'error' : pending > 0 ? 'pending' : 'idle';
    const c = this.current;
    if (c.state === state && c.pending === pending && c.error === this.error && c.retries === this.retries) return;
    this.current = { state, pending, error: this.error, retries: this.retries };
    for (const listener of this.listeners) listener(this.current);
  }
}

/** One frame's older and newer items as one: the newer layer, every revision and draft in order. */
function merged<L, R>(older: PendingWrite<L, R>, newer: PendingWrite<L, R>): PendingWrite<L, R> {
  const drafts = [...(older.drafts ?? []), ...(newer.drafts ?? [])];
  return { ...newer, revisions: [...older.revisions, ...newer.revisions], ...(drafts.length > 0 ? { drafts } : {}) };
}

function keyOf(item: { clipId: string; source: string; frameIndex: number }): string {
  return `${item.clipId}\u0000${item.source}\u0000${item.frameIndex}`;
}
