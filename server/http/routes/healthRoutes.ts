/** GET /api/health: 200 when the database answers, 503 when it does not (for proxies and monitors). */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../serverContext';

export function healthRoutes(api: FastifyInstance, ctx: ServerContext): void {
  api.get('/health', async (request, reply) => {
    try {
      await ctx.db.query('SELECT 1');
      return { status: 'ok', database: ctx.db.kind };
    } catch (err) {
      request.log.warn({ err }, 'database unavailable');
      return reply.code(503).send({ status: 'unavailable', error: 'the database is not answering' });
    }
  });
}
