/**
 * GET /api/projects/:projectId/sync/live, a WebSocket (docs/sync.md "The protocol": live). The
 * upgrade is authenticated like any request (session cookie or bearer token) and, for a cookie, must
 * come from our own origin: browsers attach cookies to WebSocket handshakes from any site, and the
 * handshake is a GET, which the CSRF check of other requests does not cover.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SYNC_ID_PATTERN, type LiveClientMessage, type LiveServerMessage } from '../../../src/sync/protocol';
import { roleIn } from '../../store/projects';
import type { LivePeer } from '../../sync/liveHub';
import { projectCursor } from '../../sync/syncStore';
import { checkSameOrigin, requireUser, stillSignedIn } from '../authenticate';
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
    const send = (text: string) => {
      if (socket.readyState === socket.OPEN) socket.send(text);
    };
    // Until hello is out, what the hub says waits: the client learns the cursor first, then the news
    // (news older than hello is harmless: the client skips what it holds and pulls over a gap).
    // Of the presence sent meanwhile only the latest is kept: each one replaces the one before.
    let waiting: string[] | null = [];
    let heldPresence: string | null = null;
    const peer: LivePeer = {
      username: request.signedIn.username,
      send: (text, type) => {
        if (!waiting) send(text);
        else if (type === 'presence') heldPresence = text;
        else waiting.push(text);
      },
    };
    // Joining reads the project's presence (every process's sockets: server/sync/presence.ts) and sends it.
    ctx.presence.join(projectId, peer);
    // The socket outlives the checks of its handshake: ask again now and then, and close it when the
    // session ended (expired, signed out, user disabled) or the membership was taken away.
    const recheck = setInterval(() => {
      stillAllowed(ctx, request, projectId).then(
        (refusal) => refusal && socket.close(refusal.code, refusal.reason),
        (err: unknown) => request.log.warn(err),
      );
    }, ctx.options.liveRecheckMs);
    socket.on('message', (data, isBinary) => {
      const message = isBinary ? null : parseLiveClientMessage(data.toString());
      if (!message) return socket.close(1008, 'not a sync protocol message');
      ctx.presence.open(projectId, peer, message.clipId);
    });
    socket.on('close', () => {
      clearInterval(recheck);
      ctx.presence.leave(projectId, peer);
    });
    projectCursor(ctx.db, projectId).then(
      (cursor) => {
        send(JSON.stringify({ type: 'hello', cursor } satisfies LiveServerMessage));
        if (heldPresence) send(heldPresence);
        const held = waiting ?? [];
        waiting = null;
        for (const text of held) send(text);
      },
      (err: unknown) => {
        request.log.error(err);
        socket.close(1011, 'internal server error');
      },
    );
  });
}

/** Close codes of a socket whose rights ended (4000–4999 are the application's). */
export const LIVE_CLOSE_SIGNED_OUT = 4401;
export const LIVE_CLOSE_NOT_A_MEMBER = 4403;

async function stillAllowed(ctx: ServerContext, request: FastifyRequest, projectId: string): Promise<{ code: number; reason: string } | null> {
  const user = await stillSignedIn(ctx, request);
  if (user?.id !== request.signedIn.id) return { code: LIVE_CLOSE_SIGNED_OUT, reason: 'signed out' };
  if ((await roleIn(ctx.db, projectId, user.id)) === null) return { code: LIVE_CLOSE_NOT_A_MEMBER, reason: 'no longer a member of this project' };
  return null;
}
