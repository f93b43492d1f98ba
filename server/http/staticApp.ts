/**
 * Serves the built app (dist/) from the same origin as the API, with the cross-origin isolation
 * headers vite.config.ts sets in dev and preview (onnxruntime-web needs SharedArrayBuffer). Paths
 * that are not files fall back to index.html when they look like an app route, so a reload on a deep
 * link works; @fastify/static refuses anything that resolves outside dist/.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
} as const;

/** An app route: no file extension, no dot segments, nothing encoded (the app has no such routes). */
function isAppRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0];
  return !pathname.startsWith('/api/') && /^\/[A-Za-z0-9/_-]*$/.test(pathname) && !pathname.includes('//');
}

export async function serveApp(app: FastifyInstance, distDir: string | null): Promise<void> {
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(ISOLATION_HEADERS);
    reply.header('X-Content-Type-Options', 'nosniff');
  });
  const root = distDir ? path.resolve(distDir) : null;
  const built = root !== null && existsSync(path.join(root, 'index.html'));
  if (built) await app.register(fastifyStatic, { root, index: 'index.html', dotfiles: 'deny' });
  app.setNotFoundHandler((request, reply) => {
    if (built && isAppRoute(request)) return reply.sendFile('index.html');
    const hint = !built && isAppRoute(request) ? ' (the app is not built here: run "npm run build", or pass --dist)' : '';
    return reply.code(404).send({ error: `not found${hint}` });
  });
}
