/**
 * Projects and their members. Every change runs in one transaction with its audit row, and the
 * author is always the signed-in user: bodies are closed schemas, so a stray `author`, `by` or
 * `userId` field is refused (400) rather than trusted or silently dropped.
 */
import type { FastifyInstance } from 'fastify';
import { ROLES, canManageMembers, canReadAuditLog, leavesAManager, type Role } from '../../auth/permissions';
import { checkProjectName, checkUsername } from '../../auth/validation';
import { projectAudit, recordAudit } from '../../store/audit';
import { deleteMember, insertMember, insertProject, lockManagerCount, membersOf, projectsOf, roleIn, updateMemberRole } from '../../store/projects';
import { findUserByName } from '../../store/users';
import { requireUser } from '../authenticate';
import { HttpError } from '../httpError';
import type { ServerContext } from '../serverContext';
import { myRole, requirePermission, uuidParam } from './projectAccess';

const roleSchema = { type: 'string', enum: ROLES } as const;
const closed = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', additionalProperties: false, required, properties });

type ProjectParams = { projectId: string };
type MemberParams = ProjectParams & { userId: string };

export function projectRoutes(api: FastifyInstance, ctx: ServerContext): void {
  const auth = { preHandler: requireUser(ctx) };

  // `id`: "Share to server" keeps the browser's project id (a canonical lower-case UUID, docs/sync.md).
  const projectBody = closed({ name: { type: 'string' }, id: { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' } }, ['name']);
  api.post<{ Body: { name: string; id?: string } }>('/projects', { ...auth, schema: { body: projectBody } }, async (request, reply) => {
    const name = checkProjectName(request.body.name);
    if (!name.ok) throw new HttpError(400, name.message);
    const me = request.signedIn;
    const id = await ctx.db.transaction(async (tx) => {
      const projectId = await insertProject(tx, name.value, me.id, request.body.id);
      if (projectId === null) throw new HttpError(409, 'a project with this id exists already');
      await insertMember(tx, projectId, me.id, 'manager');
      await recordAudit(tx, { userId: me.id, action: 'project.create', projectId, details: { name: name.value } });
      return projectId;
    });
    return reply.code(201).send({ id, name: name.value, role: 'manager' });
  });

  api.get('/projects', auth, async (request) => ({ projects: await projectsOf(ctx.db, request.signedIn.id) }));

  api.get<{ Params: ProjectParams }>('/projects/:projectId/members', auth, async (request) => {
    const { projectId } = await myRole(ctx, request);
    return { members: await membersOf(ctx.db, projectId) };
  });

  api.post<{ Params: ProjectParams; Body: { username: string; role: Role } }>(
    '/projects/:projectId/members',
    { ...auth, schema: { body: closed({ username: { type: 'string' }, role: roleSchema }, ['username', 'role']) } },
    async (request, reply) => {
      const { projectId, role } = await myRole(ctx, request);
      requirePermission(canManageMembers(role), 'add members');
      const username = checkUsername(request.body.username);
      if (!username.ok) throw new HttpError(400, username.message);
      const user = await findUserByName(ctx.db, username.value);
      if (!user) throw new HttpError(404, `there is no user "${username.value}"`);
      await ctx.db.transaction(async (tx) => {
        if (!(await insertMember(tx, projectId, user.id, request.body.role))) throw new HttpError(409, `${user.username} is already a member`);
        await recordAudit(tx, { userId: request.signedIn.id, action: 'member.add', projectId, details: { userId: user.id, username: user.username, role: request.body.role } });
      });
      return reply.code(201).send({ userId: user.id, username: user.username, role: request.body.role });
    },
  );

  api.put<{ Params: MemberParams; Body: { role: Role } }>(
    '/projects/:projectId/members/:userId',
    { ...auth, schema: { body: closed({ role: roleSchema }, ['role']) } },
    async (request) => {
      const { projectId, role } = await myRole(ctx, request);
      requirePermission(canManageMembers(role), 'change roles');
      const userId = uuidParam(request.params.userId, 'member');
      const to = request.body.role;
      await ctx.db.transaction(async (tx) => {
        const managers = await lockManagerCount(tx, projectId);
        const from = await roleIn(tx, projectId, userId);
        if (from === null) throw new HttpError(404, 'no such member');
        if (!leavesAManager({ kind: 'set-role', from, to }, managers)) throw new HttpError(409, 'a project keeps at least one manager');
        await updateMemberRole(tx, projectId, userId, to);
        await recordAudit(tx, { userId: request.signedIn.id, action: 'member.role', projectId, details: { userId, from, to } });
      });
      return { userId, role: to };
    },
  );

  api.delete<{ Params: MemberParams }>('/projects/:projectId/members/:userId', auth, async (request, reply) => {
    const { projectId, role } = await myRole(ctx, request);
    requirePermission(canManageMembers(role), 'remove members');
    const userId = uuidParam(request.params.userId, 'member');
    await ctx.db.transaction(async (tx) => {
      const managers = await lockManagerCount(tx, projectId);
      const from = await roleIn(tx, projectId, userId);
      if (from === null) throw new HttpError(404, 'no such member');
      if (!leavesAManager({ kind: 'remove', from }, managers)) throw new HttpError(409, 'a project keeps at least one manager');
      await deleteMember(tx, projectId, userId);
      await recordAudit(tx, { userId: request.signedIn.id, action: 'member.remove', projectId, details: { userId, role: from } });
    });
    return reply.code(204).send();
  });

  api.get<{ Params: ProjectParams }>('/projects/:projectId/audit', auth, async (request) => {
    const { projectId, role } = await myRole(ctx, request);
    requirePermission(canReadAuditLog(role), 'read the audit log');
    return { entries: await projectAudit(ctx.db, projectId, 500) };
  });
}
