/**
 * The live sockets of this server process, by project: passes on what their project gained (fed by
 * liveFeed.ts, so pushes through any process reach every process's sockets) and knows which clip
 * each has open (presence.ts shares that with the other processes through the database). No I/O of
 * its own: a peer is anything that takes message texts. A message is serialized once per project,
 * not once per socket: a stroke's rows go to every member.
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

  /** Forgets the peer; true when it had a clip open (presence changed). */
  leave(projectId: string, peer: LivePeer): boolean {
    const peers = this.projects.get(projectId);
    if (!peers?.has(peer)) return false;
    const hadClip = peers.get(peer) !== null;
    peers.delete(peer);
    if (peers.size === 0) this.projects.delete(projectId);
    return hadClip;
  }

  /** Notes the clip the peer has open (null: none); true when that changed. */
  open(projectId: string, peer: LivePeer, clipId: string | null): boolean {
    const peers = this.projects.get(projectId);
    if (!peers?.has(peer) || peers.get(peer) === clipId) return false;
    peers.set(peer, clipId);
    return true;
  }

  /** The clip the peer has open here (null: none, or not a peer of the project). */
  clipOf(projectId: string, peer: LivePeer): string | null {
    return this.projects.get(projectId)?.get(peer) ?? null;
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
}
