/**
 * Errors as JSON `{error: message}` with the right status, never a stack trace: a thrown HttpError or
 * AccountError carries its status and a message meant for the user; Fastify's own client errors
 * (bad JSON, body too large, schema) keep theirs; anything else is a 500 with a generic message and
 * the details go to the server log only.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { AccountError } from '../auth/accounts';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AccountError) return reply.code(err.status).send({ error: err.message });
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      request.log.error(err);
      return reply.code(status).send({ error: status === 503 ? err.message : 'internal server error' });
    }
    return reply.code(status).send({ error: err.message });
  });
}
