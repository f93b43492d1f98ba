/**
 * Invite links: a manager makes one for a role; whoever opens it signed in joins with that role —
 * once, before it expires. The link carries a random secret; only its hash is stored.
 */
import type { FastifyInstance } from 'fastify';
import { ROLES, canInvite, type Role } from '../../auth/permissions';
import { hashSecret, looksLikeSecret, newSecret } from '../../auth/tokens';
import { recordAudit } from '../../store/audit';
import { insertInvite, insertMember, lockInvite, markInviteUsed } from '../../store/projects';
import { requireUser } from '../authenticate';
import { HttpError } from '../httpError';
import type { ServerContext } from '../serverContext';
import { myRole, requirePermission } from './projectAccess';

export const DEFAULT_INVITE_HOURS = 7 * 24;
const MAX_INVITE_HOURS = 30 * 24;

export function inviteRoutes(api: FastifyInstance, ctx: ServerContext): void {
  const auth = { preHandler: requireUser(ctx) };

  api.post<{ Params: { projectId: string }; Body: { role: Role; expiresInHours?: number } }>(
    '/projects/:projectId/invites',
    {
      ...auth,
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['role'],
          properties: { role: { type: 'string', enum: ROLES }, expiresInHours: { type: 'number', exclusiveMinimum: 0, maximum: MAX_INVITE_HOURS } },
        },
      },
    },
    async (request, reply) => {
      const { projectId, role } = await myRole(ctx, request);
      requirePermission(canInvite(role), 'invite people');
      const token = newSecret();
      const expiresAt = new Date(Date.now() + (request.body.expiresInHours ?? DEFAULT_INVITE_HOURS) * 3_600_000);
      await ctx.db.transaction(async (tx) => {
        const inviteId = await insertInvite(tx, hashSecret(token), projectId, request.body.role, request.signedIn.id, expiresAt);
        await recordAudit(tx, { userId: request.signedIn.id, action: 'invite.create', projectId, details: { inviteId, role: request.body.role, expiresAt } });
      });
      return reply.code(201).send({ token, path: `/invite/${token}`, role: request.body.role, expiresAt });
    },
  );

  api.post<{ Body: { token: string } }>(
    '/invites/accept',
    { ...auth, schema: { body: { type: 'object', additionalProperties: false, required: ['token'], properties: { token: { type: 'string' } } } } },
    async (request) => {
      const { token } = request.body;
      if (!looksLikeSecret(token)) throw new HttpError(404, 'no such invite');
      const me = request.signedIn;
      return ctx.db.transaction(async (tx) => {
        const invite = await lockInvite(tx, hashSecret(token));
        if (!invite) throw new HttpError(404, 'no such invite');
        if (invite.used_by !== null) throw new HttpError(410, 'this invite has already been used');
        if (invite.expired) throw new HttpError(410, 'this invite has expired; ask a manager for a new one');
        if (!(await insertMember(tx, invite.project_id, me.id, invite.role))) throw new HttpError(409, 'you are already a member of this project');
        await markInviteUsed(tx, invite.id, me.id);
        await recordAudit(tx, { userId: me.id, action: 'invite.accept', projectId: invite.project_id, details: { inviteId: invite.id, role: invite.role } });
        return { projectId: invite.project_id, role: invite.role };
      });
    },
  );
}
