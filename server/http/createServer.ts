/**
 * The team server as a Fastify app: JSON API under /api and the built app for everything else.
 * `createServer` does not listen, so tests drive it with app.inject() or app.listen() on port 0;
 * cli/commands/serve.ts listens for real. docs/server.md describes the API and the security model.
 */
import fastifyCookie from '@fastify/cookie';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { DEFAULT_SCRYPT } from '../auth/passwords';
import { packageFile } from '../packageFile';
import { DEFAULT_SIGN_IN_LIMITS, SignInLimiter } from '../auth/signInLimiter';
import { pgBlobStore } from '../sync/blobStore';
import { startLiveFeed } from '../sync/liveFeed';
import { PushQueue } from '../sync/pushQueue';
import { LiveHub } from '../sync/liveHub';
import { DEFAULT_PRESENCE_TIMING, Presence } from '../sync/presence';
import { installErrorHandler } from './httpError';
import { blobRoutes } from './routes/blobRoutes';
import { healthRoutes } from './routes/healthRoutes';
import { inviteRoutes } from './routes/inviteRoutes';
import { LIVE_MAX_MESSAGE_BYTES, liveRoutes } from './routes/liveRoutes';
import { projectRoutes } from './routes/projectRoutes';
import { sessionRoutes } from './routes/sessionRoutes';
import { syncRoutes } from './routes/syncRoutes';
import type { ServerContext, ServerOptions } from './serverContext';
import { serveApp } from './staticApp';

export const DEFAULT_DIST_DIR = packageFile('dist');
export const DEFAULT_BODY_LIMIT = 8 * 1024 * 1024;
export const DEFAULT_SESSION_TTL_MS = 12 * 3_600_000;

export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    // Fastify refuses a larger Content-Length before reading the body, and stops reading a chunked one at the limit.
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    trustProxy: options.trustProxy ?? false,
    // Fastify's defaults would coerce types ("1" → 1) and silently drop unknown fields; we want both refused.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    return503OnClosing: true,
  });
  const signInLimits = options.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;
  const live = new LiveHub();
  const ctx: ServerContext = {
    db: options.db,
    options: {
      session: { ttlMs: options.session?.ttlMs ?? DEFAULT_SESSION_TTL_MS, sliding: options.session?.sliding ?? true },
      passwordParams: options.passwordParams ?? DEFAULT_SCRYPT,
      publicOrigin: options.publicOrigin,
      liveRecheckMs: options.liveRecheckMs ?? 30_000,
    },
    limiter: new SignInLimiter(options.db, signInLimits),
    blobs: options.blobStore ?? pgBlobStore(options.db),
    live,
    presence: new Presence(options.db, live, options.presence ?? DEFAULT_PRESENCE_TIMING, (err) => app.log.warn({ err }, 'presence could not be shared')),
    pushes: new PushQueue(options.db),
  };
  installErrorHandler(app);
  await app.register(fastifyCookie);
  await app.register(fastifyWebsocket, { options: { maxPayload: LIVE_MAX_MESSAGE_BYTES } });
  const stopLiveFeed = await startLiveFeed(options.db, ctx.live, (err) => app.log.warn({ err }, 'live rows could not be read; clients were told to pull'));
  app.addHook('onClose', () => stopLiveFeed());
  await ctx.presence.start();
  app.addHook('onClose', () => ctx.presence.stop());
  // Ended sign-in windows would only be reset by their next attempt; sweep them so a spray of
  // usernames does not pile up rows. Every process sweeps (a DELETE of nothing costs little).
  const sweepSignIns = setInterval(() => {
    ctx.limiter.sweep().catch((err: unknown) => app.log.warn({ err }, 'could not sweep ended sign-in windows'));
  }, Math.min(signInLimits.windowMs, 60_000));
  sweepSignIns.unref();
  app.addHook('onClose', async () => clearInterval(sweepSignIns));
  // JSON only: the text/plain a cross-site <form> can send is refused (415) before any route runs.
  app.removeContentTypeParser('text/plain');
  await app.register(
    async (api) => {
      healthRoutes(api, ctx);
      sessionRoutes(api, ctx);
      projectRoutes(api, ctx);
      inviteRoutes(api, ctx);
      syncRoutes(api, ctx);
      liveRoutes(api, ctx);
      await api.register((blobs) => blobRoutes(blobs, ctx));
    },
    { prefix: '/api' },
  );
  await serveApp(app, options.distDir === undefined ? DEFAULT_DIST_DIR : options.distDir);
  return app;
}
