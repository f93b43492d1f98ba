/**
 * Replication over HTTP: push and pull (docs/sync.md "The protocol", src/sync/protocol.ts). The
 * envelope is a closed schema; each row inside it is judged on its own (server/sync/judge.ts).
 */
import type { FastifyInstance } from 'fastify';
import {
  CURSOR_PATTERN,
  CURSOR_START,
  MAX_PUSH_BYTES,
  MAX_PUSH_CHANGES,
  SYNC_ID_PATTERN,
  SYNC_KINDS,
  SYNC_PROTOCOL_VERSION,
  compareCursors,
  type PullResponse,
  type PushRequest,
  type PushResponse,
} from '../../../src/sync/protocol';
import { mayUpload } from '../../auth/syncPermissions';
import type { PushTiming } from '../../sync/pushQueue';
import { lastIssuedCursor, pullPage } from '../../sync/syncStore';
import { requireUser } from '../authenticate';
import { HttpError } from '../httpError';
import type { ServerContext } from '../serverContext';
import { myRole, UUID_PATTERN_SOURCE } from './projectAccess';

export const PULL_LIMIT_DEFAULT = 500;
export const PULL_LIMIT_MAX = 1000;

const changeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'id', 'row'],
  properties: {
    kind: { type: 'string', enum: SYNC_KINDS },
    id: { type: 'string', pattern: SYNC_ID_PATTERN.source },
    row: { type: 'object' },
    base: { type: 'string', pattern: CURSOR_PATTERN.source },
  },
} as const;

const pushSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['protocol', 'clientId', 'changes'],
  properties: {
    protocol: { type: 'integer' },
    clientId: { type: 'string', pattern: UUID_PATTERN_SOURCE },
    upload: { type: 'boolean' },
    changes: { type: 'array', maxItems: MAX_PUSH_CHANGES, items: changeSchema },
  },
} as const;

const pullQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    after: { type: 'string', pattern: CURSOR_PATTERN.source },
    limit: { type: 'string', pattern: '^[1-9][0-9]{0,3}$' },
  },
} as const;

type ProjectParams = { projectId: string };

/** `queue;dur=…, batch;dur=…;desc="<pushes> pushes", total;dur=…` (milliseconds). */
export function serverTiming(t: PushTiming, totalMs: number): string {
  return `queue;dur=${t.queuedMs.toFixed(1)}, batch;dur=${t.batchMs.toFixed(1)};desc="${t.batchPushes} pushes", total;dur=${totalMs.toFixed(1)}`;
}

export function syncRoutes(api: FastifyInstance, ctx: ServerContext): void {
  const auth = { preHandler: requireUser(ctx) };

  api.post<{ Params: ProjectParams; Body: PushRequest }>('/projects/:projectId/sync/push', { ...auth, bodyLimit: MAX_PUSH_BYTES, schema: { body: pushSchema } }, async (request, reply): Promise<PushResponse> => {
    const { projectId, role } = await myRole(ctx, request);
    const body = request.body;
    if (body.protocol !== SYNC_PROTOCOL_VERSION) throw new HttpError(400, `this server speaks sync protocol ${SYNC_PROTOCOL_VERSION}, not ${body.protocol}`);
    if (body.upload) {
      const refusal = mayUpload(role);
      if (refusal) throw new HttpError(403, refusal);
    }
    const timing: PushTiming = { queuedMs: 0, batchMs: 0, batchPushes: 0 };
    const response = await ctx.pushes.push({ projectId, role, user: request.signedIn, request: body }, timing);
    // The server's own time (from the request's arrival, sign-in check included), for benches and proxies' logs.
    reply.header('server-timing', serverTiming(timing, reply.elapsedTime));
    return response;
  });

  api.get<{ Params: ProjectParams; Querystring: { after?: string; limit?: string } }>(
    '/projects/:projectId/sync/pull',
    { ...auth, schema: { querystring: pullQuerySchema } },
    async (request): Promise<PullResponse> => {
      const { projectId } = await myRole(ctx, request);
      const after = request.query.after ?? CURSOR_START;
      const limit = request.query.limit === undefined ? PULL_LIMIT_DEFAULT : Number(request.query.limit);
      if (limit > PULL_LIMIT_MAX) throw new HttpError(400, `limit is at most ${PULL_LIMIT_MAX}`);
      // A cursor this server never handed out (another server's, or made up) would silently skip rows.
      if (compareCursors(after, await lastIssuedCursor(ctx.db)) > 0) throw new HttpError(400, `cursor ${after} is from the future: this server has not issued it`);
      const { changes, more } = await pullPage(ctx.db, projectId, after, limit);
      return { changes, cursor: changes.length > 0 ? changes[changes.length - 1].cursor : after, more };
    },
  );
}
