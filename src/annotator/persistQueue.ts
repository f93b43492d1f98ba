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
 *   - a write that has not ended after `stallMs` is reported as stalled (status.stalled): it may
 *     still land, so it is neither retried nor dropped, but what it carries is not known to be
 *     stored, and the editor keeps it elsewhere (IndexedDB can stop answering: docs/durability.md);
 *   - flush() writes now, skipping the backoff (visibilitychange / pagehide / clip switch);
 *   - status is observable for a "saving... / saved / failed, retrying" indicator.
 * Timers (the backoff and the stall watch) are injected (default: the global ones) so fake timers drive them.
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
  /** The write in flight has gone unanswered for longer than `stallMs`. */
  stalled: boolean;
}

export interface QueueTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface PersistQueueOptions<L, R> {
  write: (batch: PendingWrite<L, R>[]) => Promise<void>;
  /**
   * First retry delay, doubled per failure (default 500 ms), capped at retryMaxMs (default 5 s: a
   * failed local write costs next to nothing, and once the person frees space, saving must resume
   * within seconds; nothing tells a page that space came back).
   */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** After this long without an answer, a write in flight counts as stalled (default 8 s). */
  stallMs?: number;
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

/** One write handed to `write`, in the order writes were started. */
interface Flight<L, R> {
  id: number;
  batch: PendingWrite<L, R>[];
  outcome: 'running' | 'stored' | 'failed';
  error?: unknown;
}

export class PersistQueue<L = unknown, R = unknown> {
  private readonly write: (batch: PendingWrite<L, R>[]) => Promise<void>;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly timers: QueueTimers;

  private pending = new Map<string, PendingWrite<L, R>>();
  /**
   * Writes started and not yet accounted for, oldest first. Normally at most one; a second one
   * only after writeBeforeLeaving(). A write is accounted for once every older one has settled.
   */
  private flights: Flight<L, R>[] = [];
  /** Writes of the current run that settled while an older one still ran: the run ends when `flights` is empty. */
  private settledInRun: Flight<L, R>[] = [];
  private retryTimer: unknown = null;
  private stallTimer: unknown = null;
  private stalled = false;
  private readonly stallMs: number;
  private writesStarted = 0;
  private error: string | null = null;
  private retries = 0;
  private waiters: FlushWaiter[] = [];
  private listeners = new Set<(status: PersistStatus) => void>();
  private current: PersistStatus = { state: 'idle', pending: 0, error: null, retries: 0, stalled: false };
  private destroyed = false;

  constructor(options: PersistQueueOptions<L, R>) {
    this.write = options.write;
    this.retryBaseMs = options.retryBaseMs ?? 500;
    this.retryMaxMs = options.retryMaxMs ?? 5_000;
    this.stallMs = options.stallMs ?? 8_000;
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
    if (this.retryTimer === null && !this.writing) this.startWrite();
    else this.emit();
  }

  /** Frames whose items are not handed to a write (waiting behind the one in flight, or failed). */
  get waiting(): number {
    const keys = new Set(this.pending.keys());
    for (const flight of this.settledInRun) if (flight.outcome === 'failed') for (const item of flight.batch) keys.add(keyOf(item));
    return keys.size;
  }

  /**
   * The page is going away (pagehide): hand what waits behind the write in flight to a write of its
   * own now instead of after it. IndexedDB runs the two transactions in creation order, so the
   * revisions still land in order; and should the page stay after all, the two are accounted for
   * in that order too (a failure of either puts its items back in order, and one retry follows).
   */
  writeBeforeLeaving(): void {
    if (!this.writing || this.pending.size === 0 || this.destroyed) {
      void this.flush().catch(() => undefined);
      return;
    }
    this.startWrite();
  }

  /**
   * Forgets every item not handed to a write yet (and a failed batch waiting for its retry): the
   * editor reloaded its clip after another tab changed it, so these were computed from stale masks.
   * A write already in flight still lands. Returns what was forgotten.
   */
  discardQueued(): PendingWrite<L, R>[] {
    const failed = this.settledInRun.filter((f) => f.outcome === 'failed').flatMap((f) => f.batch);
    this.settledInRun = this.settledInRun.filter((f) => f.outcome !== 'failed');
    const dropped = [...failed, ...this.pending.values()];
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
    const add = (item: PendingWrite<L, R>) => {
      const key = keyOf(item);
      const older = all.get(key);
      all.set(key, older ? merged(older, item) : { ...item, revisions: item.revisions.slice() });
    };
    for (const flight of [...this.settledInRun, ...this.flights]) if (flight.outcome !== 'stored') flight.batch.forEach(add);
    for (const item of this.pending.values()) add(item);
    return [...all.values()];
  }

  /**
   * Writes everything enqueued so far, now. Resolves once it is stored; rejects if a write fails
   * (the items stay queued and are retried with backoff).
   */
  flush(): Promise<void> {
    if (this.pending.size === 0 && !this.writing) return Promise.resolve();
    const target = this.pending.size > 0 ? this.writesStarted + 1 : this.writesStarted;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ target, resolve, reject }));
    if (!this.writing) {
      this.clear('retryTimer');
      this.startWrite();
    }
    return done;
  }

  /** Stops the timers. Call flush() first: anything still queued is not written. */
  destroy(): void {
    this.destroyed = true;
    this.clear('retryTimer');
    this.clear('stallTimer');
    this.listeners.clear();
  }

  private get writing(): boolean {
    return this.flights.length > 0;
  }

  private startWrite(): void {
    if (this.pending.size === 0 || this.destroyed) {
      this.emit();
      return;
    }
    const flight: Flight<L, R> = { id: ++this.writesStarted, batch: [...this.pending.values()], outcome: 'running' };
    this.pending = new Map();
    this.flights.push(flight);
    if (this.stallTimer === null) this.watchForStall();
    this.emit();
    let result: Promise<void>;
    try {
      result = this.write(flight.batch);
    } catch (err) {
      result = Promise.reject(err);
    }
    result.then(
      () => this.settle(flight, 'stored'),
      (err: unknown) => this.settle(flight, 'failed', err),
    );
  }

  /** A write ended. Writes are accounted for in the order they started, once all of them have ended. */
  private settle(flight: Flight<L, R>, outcome: 'stored' | 'failed', error?: unknown): void {
    flight.outcome = outcome;
    flight.error = error;
    while (this.flights.length > 0 && this.flights[0]!.outcome !== 'running') this.settledInRun.push(this.flights.shift()!);
    if (this.writing) return this.emit();
    this.clear('stallTimer');
    this.stalled = false;
    const run = this.settledInRun;
    const failures = run.filter((f) => f.outcome === 'failed');
    if (failures.length === 0) {
      this.settledInRun = [];
      this.succeeded(Math.max(...run.map((f) => f.id)));
    } else {
      this.takeBackFailed();
      this.failed(failures[failures.length - 1]!.error);
    }
  }

  private succeeded(id: number): void {
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

  private failed(err: unknown): void {
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

  /**
   * At the end of a run, moves its failed batches back in front of `pending`: their revisions are older
   * than anything enqueued since. A later write of the run that was stored holds a newer layer of
   * the same frame; the retry must not put the older one back over it.
   */
  private takeBackFailed(): void {
    if (this.settledInRun.length === 0) return;
    const back = new Map<string, PendingWrite<L, R>>();
    for (const flight of this.settledInRun) {
      for (const item of flight.batch) {
        const key = keyOf(item);
        const older = back.get(key);
        if (flight.outcome === 'failed') back.set(key, older ? merged(older, item) : item);
        else if (older) back.set(key, { ...older, layer: item.layer });
      }
    }
    this.settledInRun = [];
    for (const [key, newer] of this.pending) {
      const older = back.get(key);
      back.set(key, older ? merged(older, newer) : newer);
    }
    this.pending = back;
  }

  /** Marks the run stalled if it is still writing `stallMs` from now. */
  private watchForStall(): void {
    if (this.destroyed) return;
    this.stallTimer = this.timers.setTimeout(() => {
      this.stallTimer = null;
      if (!this.writing) return;
      this.stalled = true;
      this.emit();
    }, this.stallMs);
  }

  private clear(which: 'retryTimer' | 'stallTimer'): void {
    const handle = this[which];
    if (handle !== null) this.timers.clearTimeout(handle);
    this[which] = null;
  }

  private emit(): void {
    const pending = this.waiting + this.flights.reduce((n, f) => n + (f.outcome === 'running' ? f.batch.length : 0), 0);
    const state: PersistState = this.writing ? 'saving' : this.error !== null ? 'error' : pending > 0 ? 'pending' : 'idle';
    const c = this.current;
    const stalled = this.stalled;
    if (c.state === state && c.pending === pending && c.error === this.error && c.retries === this.retries && c.stalled === stalled) return;
    this.current = { state, pending, error: this.error, retries: this.retries, stalled };
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
