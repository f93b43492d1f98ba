/**
 * Errors as JSON `{error: message}` with the right status, never a stack trace: a thrown HttpError or
 * AccountError carries its status and a message meant for the user; Fastify's own client errors
 * (bad JSON, body too large, schema) keep theirs; anything else is a 500 with a generic message and
 * the details go to the server log only. A database that cannot be reached is a 503 (with
 * Retry-After), which clients retry, since nothing is wrong with the request or the server's code.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { AccountError } from '../auth/accounts';
import { isDatabaseUnavailable } from '../db/unavailable';

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_S = 5;

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
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable');
      return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_S)).send({ error: 'the database is not answering; try again shortly' });
    }
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      request.log.error(err);
      return reply.code(status).send({ error: status === 503 ? err.message : 'internal server error' });
    }
    return reply.code(status).send({ error: err.message });
  });
}
