/** The caller's role in the project named by the URL, or 404: non-members learn nothing, not even that it exists. */
import type { FastifyRequest } from 'fastify';
import type { Role } from '../../auth/permissions';
import { roleIn } from '../../store/projects';
import { HttpError } from '../httpError';
import type { ServerContext } from '../serverContext';

export const UUID_PATTERN_SOURCE = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const UUID = new RegExp(UUID_PATTERN_SOURCE);

/** Ids in URLs are checked before they reach a uuid column (a malformed one would be a database error). */
export function uuidParam(value: string, what: string): string {
  if (!UUID.test(value)) throw new HttpError(404, `no such ${what}`);
  return value.toLowerCase();
}

export async function myRole(ctx: ServerContext, request: FastifyRequest<{ Params: { projectId: string } }>): Promise<{ projectId: string; role: Role }> {
  const projectId = uuidParam(request.params.projectId, 'project');
  const role = await roleIn(ctx.db, projectId, request.signedIn.id);
  if (role === null) throw new HttpError(404, 'no such project');
  return { projectId, role };
}

export function requirePermission(allowed: boolean, what: string): void {
  if (!allowed) throw new HttpError(403, `only a project manager may ${what}`);
}
