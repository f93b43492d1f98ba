/**
 * One simulated annotator for the sync bench: a headless client on loopback that speaks the sync
 * protocol as the browser's engine does (bearer token instead of a cookie): it pushes one stroke
 * revision every `periodMs` on its own clip and follows the live socket, applying the rows it brings
 * when they continue from its cursor and pulling (one pull in flight at a time, changes meanwhile
 * coalesced into the next) on hello, on `changed` and over a gap (src/sync/engine.ts).
 * It notes when every revision of another annotator first became visible to it.
 */
import WebSocket from 'ws';
import { CURSOR_START, compareCursors, type Cursor, type LiveServerMessage, type PulledChange, type PullResponse, type PushResponse } from '../../src/sync/protocol';
import { LiveNews } from '../../src/sync/liveNews';
import { emptyMap, strokeRevision } from './strokes';
import type { LabelMap } from '../../src/masks/labelMap';

export interface AnnotatorOptions {
  base: string;
  projectId: string;
  clipId: string;
  username: string;
  token: string;
  clientId: string;
  periodMs: number;
  /** Frames of the clip the strokes spread over. */
  frames: number;
  random: () => number;
  /** Shared by every annotator: push send time per revision id. */
  sentAt: Map<string, number>;
  /** Push-to-visible latencies seen by this client (ms). */
  latencies: number[];
  /** Shared: the server's own time per accepted push, from its Server-Timing header. */
  serverTimes: ServerTimes;
}

/** Per push, in milliseconds (server/http/routes/syncRoutes.ts `serverTiming`). */
export interface ServerTimes {
  total: number[];
  queued: number[];
  batch: number[];
  batchPushes: number[];
}

export function newServerTimes(): ServerTimes {
  return { total: [], queued: [], batch: [], batchPushes: [] };
}

function noteServerTiming(header: string | null, into: ServerTimes): void {
  if (!header) return;
  const dur = (name: string) => Number(new RegExp(`(?:^|, )${name};dur=([0-9.]+)`).exec(header)?.[1] ?? NaN);
  const total = dur('total');
  if (Number.isNaN(total)) return;
  into.total.push(total);
  into.queued.push(dur('queue'));
  into.batch.push(dur('batch'));
  into.batchPushes.push(Number(/desc="([0-9]+) pushes"/.exec(header)?.[1] ?? NaN));
}

export class SimulatedAnnotator {
  cursor: Cursor = CURSOR_START;
  readonly seen = new Set<string>();
  readonly accepted: string[] = [];
  refused = 0;
  pushErrors = 0;
  /** Pull requests made (hello, `changed`, gaps, the drain). */
  pulls = 0;
  private socket: WebSocket | null = null;
  private timer: NodeJS.Timeout | null = null;
  private pulling = false;
  private readonly news = new LiveNews();
  private pullAgain = false;
  private readonly maps: LabelMap[];
  private pushing: Promise<void> = Promise.resolve();

  constructor(private readonly o: AnnotatorOptions) {
    this.maps = Array.from({ length: o.frames }, emptyMap);
  }

  private headers(json = false): Record<string, string> {
    return { authorization: `Bearer ${this.o.token}`, ...(json ? { 'content-type': 'application/json' } : {}) };
  }

  async connect(): Promise<void> {
    const url = `${this.o.base.replace(/^http/, 'ws')}/api/projects/${this.o.projectId}/sync/live`;
    this.socket = new WebSocket(url, { headers: this.headers() });
    await new Promise<void>((resolve, reject) => {
      this.socket!.once('open', () => resolve());
      this.socket!.once('error', reject);
    });
    this.socket.on('message', (data) => {
      const m = JSON.parse(data.toString()) as LiveServerMessage;
      if (m.type === 'rows') this.news.add(m);
      else if (m.type !== 'presence') this.news.announce(m.cursor);
      if (m.type === 'rows') this.applyNews();
      else if (m.type !== 'presence' && compareCursors(m.cursor, this.cursor) > 0) void this.pull();
    });
  }

  start(): void {
    // Spread the annotators' ticks over the period, as people do not stroke in step.
    const first = this.o.random() * this.o.periodMs;
    this.timer = setTimeout(() => {
      this.timer = setInterval(() => {
        this.pushing = this.pushing.then(() => this.pushOne());
      }, this.o.periodMs);
    }, first);
  }

  async stop(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      clearInterval(this.timer);
    }
    await this.pushing;
  }

  close(): void {
    this.socket?.close();
  }

  private async pushOne(): Promise<void> {
    const frame = Math.floor(this.o.random() * this.o.frames);
    const id = crypto.randomUUID();
    const row = { id, clipId: this.o.clipId, frameIndex: frame, source: 'gt', author: this.o.username, at: Date.now(), ...strokeRevision(this.maps[frame], this.o.random) };
    this.o.sentAt.set(id, performance.now());
    try {
      const res = await fetch(`${this.o.base}/api/projects/${this.o.projectId}/sync/push`, {
        method: 'POST',
        headers: this.headers(true),
        body: JSON.stringify({ protocol: 1, clientId: this.o.clientId, changes: [{ kind: 'revision', id, row, base: this.cursor }] }),
      });
      if (!res.ok) {
        this.pushErrors++;
        return;
      }
      noteServerTiming(res.headers.get('server-timing'), this.o.serverTimes);
      const body = (await res.json()) as PushResponse;
      for (const outcome of body.outcomes) {
        if (outcome.status === 'accepted') this.accepted.push(outcome.id);
        else this.refused++;
      }
    } catch {
      this.pushErrors++;
    }
  }

  /** The rows the socket brought that continue from the cursor; a pull over a gap (as the engine does). */
  private applyNews(): void {
    if (this.pulling) return; // applied after the pull
    for (let page = this.news.takeFrom(this.cursor); page; page = this.news.takeFrom(this.cursor)) {
      this.see(page.changes);
      this.cursor = page.cursor;
    }
    if (this.news.gapAfter(this.cursor)) void this.pull();
  }

  private see(changes: readonly PulledChange[]): void {
    const now = performance.now();
    for (const change of changes) {
      if (change.kind !== 'revision' || this.seen.has(change.id)) continue;
      this.seen.add(change.id);
      const sent = this.o.sentAt.get(change.id);
      if (sent !== undefined && change.by !== this.o.username) this.o.latencies.push(now - sent);
    }
  }

  async pull(): Promise<void> {
    if (this.pulling) {
      this.pullAgain = true;
      return;
    }
    this.pulling = true;
    try {
      do {
        this.pullAgain = false;
        let more = true;
        while (more) {
          this.pulls++;
          const res = await fetch(`${this.o.base}/api/projects/${this.o.projectId}/sync/pull?after=${this.cursor}&limit=1000`, { headers: this.headers() });
          if (!res.ok) throw new Error(`pull: ${res.status} ${await res.text()}`);
          const page = (await res.json()) as PullResponse;
          this.see(page.changes);
          if (compareCursors(page.cursor, this.cursor) > 0) this.cursor = page.cursor;
          more = page.more;
        }
      } while (this.pullAgain);
    } finally {
      this.pulling = false;
    }
    this.applyNews();
  }
}
