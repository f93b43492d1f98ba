/**
 * Presence shared by every server process on one database: who has which clip of a project open.
 * Each live socket with a clip open is a row of live_presence, named by this process's random id and
 * the socket's number here; every change to a row notifies `spoc_presence` with its project id, and
 * every process with sockets on that project reads the project's rows and sends them the new
 * `presence`. A row expires ttlMs after it was last written; a process moves its rows' expiry ahead on
 * a heartbeat and sweeps expired rows (of a process that died, or lost its database for that long),
 * notifying their projects, so no ghost outlives its process by much more than ttlMs. docs/server.md "Live", docs/sync.md "The protocol".
 *
 * Writes go out one at a time, in the order the sockets did things (a close right after an open must
 * not be overtaken by the open's upsert), and each writes what the socket holds when it runs.
 * Reads of a project go out one at a time too, a change arriving meanwhile asking for one more, so
 * the last presence a socket is sent is never older than the last change it was told of.
 */
import { randomUUID } from 'node:crypto';
import type { LiveServerMessage } from '../../src/sync/protocol';
import type { Db } from '../db/db';
import type { LiveHub, LivePeer } from './liveHub';

export const PRESENCE_CHANNEL = 'spoc_presence';

export interface PresenceTiming {
  /** How often this process refreshes its rows and sweeps expired ones (ms). */
  heartbeatMs: number;
  /** How long a row lives unless refreshed: a process silent this long is taken for gone (ms). */
  ttlMs: number;
}

export const DEFAULT_PRESENCE_TIMING: PresenceTiming = { heartbeatMs: 10_000, ttlMs: 30_000 };

type Clips = Extract<LiveServerMessage, { type: 'presence' }>['clips'];

/** Clip id → the names of the people who have it open, sorted, each once. */
export function presenceOf(rows: readonly { clip_id: string; username: string }[]): Clips {
  // A Map, not an object: a clip id is client text, and "__proto__" must stay a plain key.
  const clips = new Map<string, Set<string>>();
  for (const { clip_id: clipId, username } of rows) clips.set(clipId, (clips.get(clipId) ?? new Set<string>()).add(username));
  return Object.fromEntries([...clips].map(([clipId, names]) => [clipId, [...names].sort()]));
}

const notifyEach = (rows: string) => `SELECT pg_notify('${PRESENCE_CHANNEL}', p::text) FROM (SELECT DISTINCT project_id AS p FROM ${rows}) changed`;

/** $1 is the ttl in ms wherever this appears. */
const EXPIRES = "now() + $1::float8 * interval '1 millisecond'";
const UPSERT_SQL = `WITH w AS (
    INSERT INTO live_presence (instance_id, peer_id, project_id, clip_id, username, expires_at) VALUES ($2, $3, $4, $5, $6, ${EXPIRES})
    ON CONFLICT (instance_id, peer_id) DO UPDATE SET clip_id = EXCLUDED.clip_id, expires_at = EXCLUDED.expires_at
    RETURNING project_id)
  ${notifyEach('w')}`;
const DELETE_SQL = `WITH gone AS (DELETE FROM live_presence WHERE instance_id = $1 AND peer_id = $2 RETURNING project_id) ${notifyEach('gone')}`;
const DELETE_ALL_SQL = `WITH gone AS (DELETE FROM live_presence WHERE instance_id = $1 RETURNING project_id) ${notifyEach('gone')}`;
const REFRESH_SQL = `UPDATE live_presence SET expires_at = ${EXPIRES} WHERE instance_id = $2 RETURNING peer_id`;
const SWEEP_SQL = `WITH gone AS (DELETE FROM live_presence WHERE expires_at < now() RETURNING project_id) ${notifyEach('gone')}`;
const READ_SQL = 'SELECT clip_id, username FROM live_presence WHERE project_id = $1 AND expires_at >= now()';

interface Held {
  projectId: string;
  peer: LivePeer;
}

export class Presence {
  readonly instanceId = randomUUID();
  private nextPeerId = 1;
  private readonly peerIds = new WeakMap<LivePeer, number>();
  /** This process's sockets with a clip open, by their number: what its rows should say. */
  private readonly withClip = new Map<number, Held>();
  private writes: Promise<void> = Promise.resolve();
  /** Projects being read: true when a change arrived during the read, so one more is due. */
  private readonly reading = new Map<string, boolean>();
  private stopListening: (() => Promise<void>) | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly hub: LiveHub,
    private readonly timing: PresenceTiming = DEFAULT_PRESENCE_TIMING,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  async start(): Promise<void> {
    this.stopListening = await this.db.listen(
      PRESENCE_CHANNEL,
      (projectId) => {
        if (this.hub.has(projectId)) this.refresh(projectId);
      },
      // Notifications sent while the listening connection was gone are lost: read everything again.
      () => this.hub.projectIds().forEach((projectId) => this.refresh(projectId)),
    );
    this.heartbeat = setInterval(() => this.beat(), this.timing.heartbeatMs);
    this.heartbeat.unref();
  }

  /** A socket joined: it (and the project's other sockets here) are sent the project's presence. */
  join(projectId: string, peer: LivePeer): void {
    this.hub.join(projectId, peer);
    this.peerIds.set(peer, this.nextPeerId++);
    this.refresh(projectId);
  }

  open(projectId: string, peer: LivePeer, clipId: string | null): void {
    if (this.hub.open(projectId, peer, clipId)) this.changed(projectId, peer);
  }

  leave(projectId: string, peer: LivePeer): void {
    if (this.hub.leave(projectId, peer)) this.changed(projectId, peer);
  }

  /** Stops listening and beating, and takes this process's rows away (telling the others). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.stopListening?.();
    await this.writes;
    await this.db.query(DELETE_ALL_SQL, [this.instanceId]).catch(this.onError);
  }

  private changed(projectId: string, peer: LivePeer): void {
    const peerId = this.peerIds.get(peer);
    if (peerId === undefined) return;
    if (this.hub.clipOf(projectId, peer) === null) this.withClip.delete(peerId);
    else this.withClip.set(peerId, { projectId, peer });
    this.write(() => this.writeRow(peerId));
  }

  /** Makes the socket's row say what the socket holds now (no row without a clip). */
  private async writeRow(peerId: number): Promise<void> {
    const held = this.withClip.get(peerId);
    const clipId = held && this.hub.clipOf(held.projectId, held.peer);
    if (!held || !clipId) await this.db.query(DELETE_SQL, [this.instanceId, peerId]);
    else await this.db.query(UPSERT_SQL, [this.timing.ttlMs, this.instanceId, peerId, held.projectId, clipId, held.peer.username]);
  }

  private write(run: () => Promise<void>): void {
    this.writes = this.writes.then(() => (this.stopped ? undefined : run().catch(this.onError)));
  }

  /** Refreshes this process's rows (writing again any a sweep took meanwhile) and sweeps expired ones. */
  private beat(): void {
    this.write(async () => {
      const refreshed = await this.db.query<{ peer_id: number }>(REFRESH_SQL, [this.timing.ttlMs, this.instanceId]);
      const present = new Set(refreshed.map((r) => r.peer_id));
      for (const peerId of this.withClip.keys()) if (!present.has(peerId)) await this.writeRow(peerId);
      await this.db.query(SWEEP_SQL);
    });
  }

  private refresh(projectId: string): void {
    if (this.reading.has(projectId)) {
      this.reading.set(projectId, true);
      return;
    }
    this.reading.set(projectId, false);
    const read = async (): Promise<void> => {
      try {
        const rows = await this.db.query<{ clip_id: string; username: string }>(READ_SQL, [projectId]);
        this.hub.broadcast(projectId, { type: 'presence', clips: presenceOf(rows) });
      } catch (err) {
        this.onError(err);
      }
      if (this.reading.get(projectId) && !this.stopped && this.hub.has(projectId)) {
        this.reading.set(projectId, false);
        return read();
      }
      this.reading.delete(projectId);
    };
    void read();
  }
}
