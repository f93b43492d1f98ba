/**
 * The live sockets of this server process, by project: passes on what their project gained (fed by
 * liveFeed.ts, so pushes through any process reach every process's sockets) and who has which clip
 * open. Presence is per process: people connected through another server process are not listed
 * (docs/server.md). No I/O of its own: a peer is anything that takes message texts. A message is
 * serialized once per project, not once per socket: a stroke's rows go to every member.
 */
import type { LiveServerMessage } from '../../src/sync/protocol';

export interface LivePeer {
  readonly username: string;
  /** A LiveServerMessage as JSON, and its type. */
  send(text: string, type: LiveServerMessage['type']): void;
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

  /** Sends one message to every socket of the project here. */
  broadcast(projectId: string, message: LiveServerMessage): void {
    if (this.projects.has(projectId)) this.broadcastText(projectId, JSON.stringify(message), message.type);
  }

  /** Sends a message already serialized (LiveServerMessage as JSON) to every socket of the project here. */
  broadcastText(projectId: string, text: string, type: LiveServerMessage['type']): void {
    for (const peer of this.projects.get(projectId)?.keys() ?? []) peer.send(text, type);
  }

  /** Whether any socket here follows the project. */
  has(projectId: string): boolean {
    return this.projects.has(projectId);
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
    this.broadcast(projectId, { type: 'presence', clips: this.presence(projectId) });
  }
}
