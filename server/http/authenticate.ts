/**
 * Who is asking: a session cookie (browsers) or `Authorization: Bearer spoc_…` (the CLI). A
 * state-changing request on a cookie session must also come from our own origin and carry the
 * session's CSRF token in X-CSRF-Token: a page on another site can make the browser send the cookie,
 * but can neither read the token nor fake Origin/Sec-Fetch-Site. Bearer tokens are never sent by a
 * browser on its own, so they need no CSRF check.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isSameOriginRequest } from '../auth/sameOrigin';
import { API_TOKEN_PREFIX, hashSecret, looksLikeSecret, sameSecret } from '../auth/tokens';
import { extendSession, findApiTokenUser, findSession, type SignedInUser } from '../store/sessions';
import { HttpError } from './httpError';
import type { ServerContext } from './serverContext';

export const SESSION_COOKIE = 'spoc_session';
export const CSRF_HEADER = 'x-csrf-token';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser on routes that need a signed-in user. */
    signedIn: SignedInUser;
    /** The session's CSRF token (null for bearer tokens), for /api/me to hand back to the page. */
    csrfToken: string | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The origin our pages are served from: configured, else what this request was addressed to. */
export function expectedOrigin(ctx: ServerContext, request: FastifyRequest): string {
  return ctx.options.publicOrigin ?? `${request.protocol}://${request.host}`;
}

export function checkSameOrigin(ctx: ServerContext, request: FastifyRequest): void {
  const headers = { origin: header(request, 'origin'), secFetchSite: header(request, 'sec-fetch-site') };
  if (!isSameOriginRequest(headers, expectedOrigin(ctx, request))) throw new HttpError(403, 'cross-origin request refused');
}

interface Authenticated {
  user: SignedInUser;
  csrfToken: string | null;
}

/** Cookie options: httpOnly (page scripts never see the token), SameSite=Strict, Secure over https. */
export function sessionCookieOptions(ctx: ServerContext, request: FastifyRequest) {
  return { path: '/', httpOnly: true, sameSite: 'strict' as const, secure: request.protocol === 'https', maxAge: Math.floor(ctx.options.session.ttlMs / 1000) };
}

async function fromCookie(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply): Promise<Authenticated | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token || !looksLikeSecret(token)) return null;
  const tokenHash = hashSecret(token);
  const session = await findSession(ctx.db, tokenHash);
  if (!session) return null;
  if (!SAFE_METHODS.has(request.method)) {
    checkSameOrigin(ctx, request);
    const sent = header(request, CSRF_HEADER);
    if (!sent || !sameSecret(sent, session.csrf_token)) throw new HttpError(403, 'missing or wrong CSRF token (send the X-CSRF-Token from sign-in or /api/me)');
  }
  const { ttlMs, sliding } = ctx.options.session;
  // Sliding sessions are pushed forward at most once a minute, not written on every request.
  if (sliding && session.expires_at.getTime() - Date.now() < ttlMs - 60_000) {
    await extendSession(ctx.db, tokenHash, new Date(Date.now() + ttlMs));
    reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(ctx, request));
  }
  return { user: { id: session.id, username: session.username }, csrfToken: session.csrf_token };
}

async function fromBearer(ctx: ServerContext, authorization: string): Promise<Authenticated | null> {
  const m = /^Bearer (\S+)$/.exec(authorization);
  if (!m || !looksLikeSecret(m[1], API_TOKEN_PREFIX)) return null;
  const user = await findApiTokenUser(ctx.db, hashSecret(m[1]));
  return user && { user, csrfToken: null };
}

/** preHandler: 401 unless signed in (and 403 for a cookie request that fails the CSRF checks). */
export function requireUser(ctx: ServerContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const authorization = header(request, 'authorization');
    const found = authorization !== undefined ? await fromBearer(ctx, authorization) : await fromCookie(ctx, request, reply);
    if (!found) throw new HttpError(401, 'sign in first (no valid session or token)');
    request.signedIn = found.user;
    request.csrfToken = found.csrfToken;
  };
}

/**
 * The user the request's credentials name now, or null once they name nobody (session expired or
 * ended, token revoked, user disabled). Reads only: a live socket asks this again now and then.
 */
export async function stillSignedIn(ctx: ServerContext, request: FastifyRequest): Promise<SignedInUser | null> {
  const authorization = header(request, 'authorization');
  if (authorization !== undefined) return (await fromBearer(ctx, authorization))?.user ?? null;
  const token = request.cookies[SESSION_COOKIE];
  if (!token || !looksLikeSecret(token)) return null;
  const session = await findSession(ctx.db, hashSecret(token));
  return session && { id: session.id, username: session.username };
}
