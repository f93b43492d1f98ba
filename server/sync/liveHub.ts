/**
 * The live sockets of this server process, by project: tells them when their project gained rows
 * (fed by LISTEN spoc_sync, so pushes through any process reach every process's sockets) and who
 * has which clip open. Presence is per process: people connected through another server process
 * are not listed (docs/server.md). No I/O of its own: a peer is anything that takes messages.
 */
import type { LiveServerMessage } from '../../src/sync/protocol';

export interface LivePeer {
  readonly username: string;
  send(message: LiveServerMessage): void;
}

export class LiveHub {
  /** Project id → its peers and the clip each has open. */
  private readonly projects = new Map<string, Map<LivePeer, string | null>>();

  join(projectId: string, peer: LivePeer): void {
    let peers = this.projects.get(projectId);
    if (!peers) this.projects.set(projectId, (peers = new Map()));
    peers.set(peer, null);
  }

  leave(projectId: string, peer: LivePeer): void {
    const peers = this.projects.get(projectId);
    if (!peers?.has(peer)) return;
    const hadClip = peers.get(peer) !== null;
    peers.delete(peer);
    if (peers.size === 0) this.projects.delete(projectId);
    else if (hadClip) this.broadcastPresence(projectId);
  }

  open(projectId: string, peer: LivePeer, clipId: string | null): void {
    const peers = this.projects.get(projectId);
    if (!peers?.has(peer) || peers.get(peer) === clipId) return;
    peers.set(peer, clipId);
    this.broadcastPresence(projectId);
  }

  changed(projectId: string, cursor: string): void {
    for (const peer of this.projects.get(projectId)?.keys() ?? []) peer.send({ type: 'changed', cursor });
  }

  /** Projects with at least one socket here. */
  projectIds(): string[] {
    return [...this.projects.keys()];
  }

  /** Clip id → the names of the people who have it open, sorted, each once. */
  presence(projectId: string): Record<string, string[]> {
    // A Map, not an object: a clip id is client text, and "__proto__" must stay a plain key.
    const clips = new Map<string, Set<string>>();
    for (const [peer, clipId] of this.projects.get(projectId) ?? []) {
      if (clipId === null) continue;
      const names = clips.get(clipId) ?? new Set<string>();
      clips.set(clipId, names.add(peer.username));
    }
    return Object.fromEntries([...clips].map(([clipId, names]) => [clipId, [...names].sort()]));
  }

  private broadcastPresence(projectId: string): void {
    const message: LiveServerMessage = { type: 'presence', clips: this.presence(projectId) };
    for (const peer of this.projects.get(projectId)?.keys() ?? []) peer.send(message);
  }
}
