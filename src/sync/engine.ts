/**
 * The sync loop of one project (docs/sync.md "The browser client"): push what this browser wrote,
 * then pull what others wrote, whenever something may have changed, and say where it stands.
 *
 * Triggers: this tab's writes (store/localWrites.ts, after a short quiet time so a stroke's rows go
 * together), the server's live socket (a WebSocket, reconnected with backoff), the browser's
 * `online` event, and `syncNow()`. While the socket is open, others' rows arrive on it and are
 * applied without a request (liveNews.ts; docs/sync.md "Live rows"); the engine pulls over HTTP when
 * the socket (re)opens, when the server says `changed`, when the news has a gap, on `online` and on
 * `syncNow()`, and after every push while no socket is open. Network failures and 408/429/5xx
 * answers are retried with exponential backoff and jitter (status `offline`); 401 stops the loop
 * (signed out) until `start()` is called again; any other failure is shown as `error` and retried
 * on the next trigger.
 *
 * Status is a tiny external store: `engine.status` and `engine.subscribe(fn)`, which is exactly what
 * React's `useSyncExternalStore(engine.subscribe, () => engine.status)` wants.
 */
import type { SpocDb } from '../store/db';
import { onLocalWrites } from '../store/localWrites';
import { isPulledRow } from './applyPull';
import { ensureFrameImage } from './frameImages';
import { LiveNews } from './liveNews';
import { compareCursors } from './protocol';
import { applyLiveNews, pullAll, type PullRound } from './pull';
import { pushOnce } from './push';
import { readLink } from './syncState';
import { isRetryable, SyncHttpError, type LiveConnection, type SyncTransport } from './transport';

export type SyncStatus =
  | { state: 'stopped' }
  | { state: 'synced'; at: number }
  | { state: 'pending'; count: number }
  | { state: 'offline'; since: number; retryAt: number | null }
  | { state: 'error'; message: string; signedOut: boolean };

export interface SyncEngineOptions {
  /** Quiet time after a local write before pushing (ms). */
  debounceMs?: number;
  /** First retry delay (ms), doubled at each failure up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  random?: () => number;
  /** Where `online` events come from (window in the app). */
  events?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null;
  /** Page size of pulls (the server's default when absent). */
  pullPageSize?: number;
}

/** Tables whose local writes may need pushing. */
const WATCHED = ['projects', 'clips', 'frames', 'comments', 'reviewFlags', 'revisions', 'clipEvents', 'frameVerdicts'] as const;

export class SyncEngine {
  private current: SyncStatus = { state: 'stopped' };
  private readonly listeners = new Set<(s: SyncStatus) => void>();
  private readonly appliedListeners = new Set<(round: PullRound) => void>();
  private readonly presenceListeners = new Set<() => void>();
  /** clip id -> user names with it open, as the server last said (live `presence`). */
  private presenceNow: Readonly<Record<string, readonly string[]>> = {};
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  private offlineSince: number | null = null;
  private stopWatching: (() => void)[] = [];
  private live: LiveConnection | null = null;
  private liveTimer: ReturnType<typeof setTimeout> | null = null;
  private liveFailures = 0;
  /** The socket said hello: its news can stand in for pulls. */
  private liveReady = false;
  private readonly news = new LiveNews();
  /** Local writes may wait to be pushed. */
  private pushDue = true;
  /** News may have been missed: the next cycle pulls over HTTP. */
  private pullDue = true;
  private openClip: string | null = null;
  private writtenSince = 0;
  private readonly opts: Required<Omit<SyncEngineOptions, 'events' | 'pullPageSize'>> & Pick<SyncEngineOptions, 'events' | 'pullPageSize'>;

  constructor(
    readonly db: SpocDb,
    readonly projectId: string,
    readonly transport: SyncTransport,
    options: SyncEngineOptions = {},
  ) {
    this.opts = {
      debounceMs: options.debounceMs ?? 400,
      backoffMs: options.backoffMs ?? 1000,
      maxBackoffMs: options.maxBackoffMs ?? 60_000,
      random: options.random ?? Math.random,
      events: options.events === undefined ? (typeof window === 'object' ? window : null) : options.events,
      pullPageSize: options.pullPageSize,
    };
  }

  get status(): SyncStatus {
    return this.current;
  }

  /** Calls `fn` on every status change; returns the unsubscribe. (Arrow: usable unbound, as useSyncExternalStore calls it.) */
  subscribe = (fn: (s: SyncStatus) => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** Calls `fn` after each pull that stored rows: the editor reloads the frames listed in `round.rebuilt`. */
  onApplied(fn: (round: PullRound) => void): () => void {
    this.appliedListeners.add(fn);
    return () => this.appliedListeners.delete(fn);
  }

  /** Who has which clip open (the server's word; this browser's own user included). */
  get presence(): Readonly<Record<string, readonly string[]>> {
    return this.presenceNow;
  }

  /** Calls `fn` whenever the presence changes; returns the unsubscribe. (Arrow, as `subscribe`.) */
  subscribePresence = (fn: () => void): (() => void) => {
    this.presenceListeners.add(fn);
    return () => this.presenceListeners.delete(fn);
  };

  start(): void {
    if (this.started) return;
    this.started = true;
    this.failures = 0;
    this.pushDue = this.pullDue = true;
    for (const table of WATCHED) {
      this.stopWatching.push(
        onLocalWrites(this.db, table, (_keys, values) => {
          // The engine's own writes need no push: log rows carry a cursor, other rows were pulled.
          if (values.every((v) => typeof (v as { cursor?: unknown }).cursor === 'string' || isPulledRow(v))) return;
          // Rows written, not yet counted by an outbox: shown as pending until the push says more exactly.
          this.writtenSince += values.length;
          this.pushDue = true;
          if (this.current.state === 'synced' || this.current.state === 'pending') this.set({ state: 'pending', count: Math.max(this.writtenSince, this.current.state === 'pending' ? this.current.count : 0) });
          this.schedule(this.opts.debounceMs, false);
        }),
      );
    }
    const onOnline = () => {
      this.pullDue = this.pushDue = true;
      this.trigger();
    };
    this.opts.events?.addEventListener('online', onOnline);
    this.stopWatching.push(() => this.opts.events?.removeEventListener('online', onOnline));
    void this.connectLive();
    this.trigger();
  }

  stop(): void {
    this.halt({ state: 'stopped' });
  }

  private halt(final: SyncStatus): void {
    this.started = false;
    for (const fn of this.stopWatching.splice(0)) fn();
    if (this.timer) clearTimeout(this.timer);
    if (this.liveTimer) clearTimeout(this.liveTimer);
    this.timer = this.liveTimer = null;
    this.live?.close();
    this.live = null;
    this.liveReady = false;
    this.news.clear();
    this.set(final);
  }

  /**
   * Makes sure a frame's image is here, fetching a pulled frame's bytes from the server (checked
   * against the SHA-256 its row names). False when the frame has neither (frameImages.ts).
   */
  ensureFrameImage(clipId: string, index: number): Promise<boolean> {
    return ensureFrameImage(this.db, this.transport, this.projectId, clipId, index);
  }

  /** Tells the server's presence which clip this browser has open (null: none). */
  setOpenClip(clipId: string | null): void {
    this.openClip = clipId;
    this.live?.send({ type: 'open', clipId });
  }

  /** Runs a push-then-pull cycle now (also while stopped: tests, "Sync now"); resolves when it and any cycle it triggered end. */
  async syncNow(): Promise<void> {
    this.failures = 0;
    this.pushDue = this.pullDue = true;
    return this.run();
  }

  /**
   * A cycle from a timer: a retry or a local write. Unlike `syncNow` it keeps the failure count, or
   * the backoff would restart from its first step at every retry and never grow.
   */
  private async run(): Promise<void> {
    this.again = true;
    while (this.running) await this.running;
    if (!this.again) return;
    this.running = this.loop().finally(() => (this.running = null));
    await this.running;
  }

  /** A trigger that should act at once (online, live message): resets the backoff. */
  private trigger(): void {
    this.failures = 0;
    this.schedule(0, true);
  }

  private schedule(delay: number, force: boolean): void {
    if (!this.started) return;
    // While backing off, a local write waits for the retry (the network will not be back sooner).
    if (!force && this.current.state === 'offline' && this.timer) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run().catch(() => undefined);
    }, delay);
  }

  private async loop(): Promise<void> {
    while (this.again) {
      this.again = false;
      try {
        await this.cycle();
        this.failures = 0;
        this.offlineSince = null;
      } catch (err) {
        this.fail(err);
        return;
      }
    }
  }

  private async cycle(): Promise<void> {
    if (this.pushDue) await this.pushAll();
    const pulled = await this.pull();
    if (pulled.applied > 0) for (const fn of this.appliedListeners) fn(pulled);
    this.set({ state: 'synced', at: Date.now() });
  }

  private async pushAll(): Promise<void> {
    this.writtenSince = 0;
    this.pushDue = false;
    try {
      for (;;) {
        const round = await pushOnce(this.db, this.transport, this.projectId);
        if (round.left > 0) this.set({ state: 'pending', count: round.left });
        if (round.left === 0 || round.sent === 0) break;
      }
    } catch (err) {
      this.pushDue = true;
      throw err;
    }
    // Without a socket nothing tells of what others pushed meanwhile: pull after each push.
    if (!this.liveReady) this.pullDue = true;
  }

  /** The live news when it continues from the checkpoint; over HTTP when it does not, or news may have been missed. */
  private async pull(): Promise<PullRound> {
    let fromNews: PullRound | null = null;
    if (!this.pullDue && this.liveReady) {
      const { gap, ...round } = await applyLiveNews(this.db, this.projectId, this.news);
      if (!gap) return round;
      fromNews = round; // applied already: reported with what the pull brings
    }
    this.pullDue = false;
    try {
      const pulled = await pullAll(this.db, this.transport, this.projectId, this.opts.pullPageSize);
      return fromNews ? joinRounds(fromNews, pulled) : pulled;
    } catch (err) {
      this.pullDue = true;
      throw err;
    }
  }

  private fail(err: unknown): void {
    if (err instanceof SyncHttpError && err.status === 401) {
      this.halt({ state: 'error', message: 'Signed out of the server: sign in again to sync this project.', signedOut: true });
      return;
    }
    const delay = this.backoff(this.failures++);
    if (isRetryable(err)) {
      this.offlineSince ??= Date.now();
      this.set({ state: 'offline', since: this.offlineSince, retryAt: this.started ? Date.now() + delay : null });
    } else {
      this.set({ state: 'error', message: err instanceof Error ? err.message : String(err), signedOut: false });
    }
    if (this.started) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.run().catch(() => undefined);
      }, delay);
    }
  }

  /** Exponential backoff with "equal jitter": between half and all of base * 2^n, capped. */
  private backoff(n: number): number {
    const d = Math.min(this.opts.maxBackoffMs, this.opts.backoffMs * 2 ** Math.min(n, 30));
    return d / 2 + (d / 2) * this.opts.random();
  }

  private async connectLive(): Promise<void> {
    if (!this.started) return;
    const link = await readLink(this.db, this.projectId);
    if (!link || !this.started) return;
    this.live = this.transport.live(link.serverProjectId, {
      message: (m) => {
        this.liveFailures = 0;
        if (m.type === 'hello') this.liveReady = true;
        if (m.type === 'hello' || m.type === 'changed') {
          this.news.announce(m.cursor);
          void readLink(this.db, this.projectId).then((l) => {
            if (!l || compareCursors(m.cursor, l.cursor) <= 0) return;
            this.pullDue = true;
            this.trigger();
          });
        } else if (m.type === 'rows') {
          this.news.add(m);
          this.trigger();
        } else if (m.type === 'presence') {
          this.presenceNow = m.clips;
          for (const fn of this.presenceListeners) fn();
        }
      },
      closed: () => {
        this.live = null;
        // News stops here: until the next hello, pull after pushing, and pull once it comes.
        this.liveReady = false;
        this.news.clear();
        if (!this.started) return;
        const delay = this.backoff(this.liveFailures++);
        this.liveTimer = setTimeout(() => {
          this.liveTimer = null;
          void this.connectLive();
        }, delay);
      },
    });
    if (this.live && this.openClip !== null) this.live.send({ type: 'open', clipId: this.openClip });
  }

  private set(status: SyncStatus): void {
    this.current = status;
    this.emit();
  }

  private emit(): void {
    for (const fn of this.listeners) fn(this.current);
  }
}

const joinRounds = (a: PullRound, b: PullRound): PullRound => ({
  pages: a.pages + b.pages,
  applied: a.applied + b.applied,
  problems: a.problems + b.problems,
  rebuilt: [...a.rebuilt, ...b.rebuilt],
});
