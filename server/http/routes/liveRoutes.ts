/**
 * GET /api/projects/:projectId/sync/live, a WebSocket (docs/sync.md "The protocol": live). The
 * upgrade is authenticated like any request (session cookie or bearer token) and, for a cookie, must
 * come from our own origin: browsers attach cookies to WebSocket handshakes from any site, and the
 * handshake is a GET, which the CSRF check of other requests does not cover.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SYNC_ID_PATTERN, compareCursors, type LiveClientMessage, type LiveServerMessage } from '../../../src/sync/protocol';
import type { LivePeer } from '../../sync/liveHub';
import { projectCursor } from '../../sync/syncStore';
import { checkSameOrigin, requireUser } from '../authenticate';
import type { ServerContext } from '../serverContext';
import { myRole } from './projectAccess';

type ProjectParams = { projectId: string };

/** What this route uses of a `ws` socket (the package ships no types of its own). */
interface LiveSocket {
  readonly readyState: number;
  readonly OPEN: number;
  send(text: string): void;
  close(code: number, reason: string): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'close', listener: () => void): void;
}

/** Largest message a client may send (an `open` is a few dozen bytes). */
export const LIVE_MAX_MESSAGE_BYTES = 4096;

/** The client's message, or null when it is not one the protocol knows. */
export function parseLiveClientMessage(text: string): LiveClientMessage | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (Object.keys(o).length !== 2 || o.type !== 'open') return null;
  if (o.clipId === null) return { type: 'open', clipId: null };
  return typeof o.clipId === 'string' && SYNC_ID_PATTERN.test(o.clipId) ? { type: 'open', clipId: o.clipId } : null;
}

export function liveRoutes(api: FastifyInstance, ctx: ServerContext): void {
  const projectOf = new WeakMap<FastifyRequest, string>();
  const access = async (request: FastifyRequest<{ Params: ProjectParams }>) => {
    if (request.csrfToken !== null) checkSameOrigin(ctx, request);
    projectOf.set(request, (await myRole(ctx, request)).projectId);
  };

  api.get<{ Params: ProjectParams }>('/projects/:projectId/sync/live', { websocket: true, preHandler: [requireUser(ctx), access] }, (socket: LiveSocket, request) => {
    const projectId = projectOf.get(request)!;
    const send = (m: LiveServerMessage) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(m));
    };
    // Until hello is out, what the hub says waits (a change committed meanwhile may be newer than hello's cursor).
    let waiting: LiveServerMessage[] | null = [];
    const peer: LivePeer = { username: request.signedIn.username, send: (m) => (waiting ? waiting.push(m) : send(m)) };
    ctx.live.join(projectId, peer);
    socket.on('message', (data, isBinary) => {
      const message = isBinary ? null : parseLiveClientMessage(data.toString());
      if (!message) return socket.close(1008, 'not a sync protocol message');
      ctx.live.open(projectId, peer, message.clipId);
    });
    socket.on('close', () => ctx.live.leave(projectId, peer));
    projectCursor(ctx.db, projectId).then(
      (cursor) => {
        send({ type: 'hello', cursor });
        send({ type: 'presence', clips: ctx.live.presence(projectId) });
        const held = waiting ?? [];
        waiting = null;
        for (const m of held) if (m.type === 'changed' && compareCursors(m.cursor, cursor) > 0) send(m);
      },
      (err: unknown) => {
        request.log.error(err);
        socket.close(1011, 'internal server error');
      },
    );
  });
}
