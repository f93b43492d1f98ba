/**
 * Sign in (POST /api/session), sign out (DELETE /api/session) and who am I (GET /api/me).
 * Sign-in answers the same "wrong username or password" for an unknown user and a wrong password,
 * and hashes a password in both cases, so neither the message nor the timing tells which names exist.
 * A disabled account (spoc-studio user disable) is refused with 403 after its password checked out.
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SCRYPT, hashPassword, needsRehash, verifyPassword } from '../../auth/passwords';
import { hashSecret, newSecret } from '../../auth/tokens';
import { checkPassword, checkUsername } from '../../auth/validation';
import { deleteExpiredSessions, deleteSession, insertSession } from '../../store/sessions';
import { findUserByName, setPasswordHash } from '../../store/users';
import { SESSION_COOKIE, checkSameOrigin, requireUser, sessionCookieOptions } from '../authenticate';
import { HttpError } from '../httpError';
import type { ServerContext } from '../serverContext';

const signInBody = {
  type: 'object',
  required: ['username', 'password'],
  additionalProperties: false,
  properties: { username: { type: 'string' }, password: { type: 'string' } },
} as const;

export function sessionRoutes(api: FastifyInstance, ctx: ServerContext): void {
  // Made once, so an unknown username costs the same scrypt work as a known one.
  const decoyHash = hashPassword(newSecret(), ctx.options.passwordParams ?? DEFAULT_SCRYPT);

  api.post<{ Body: { username: string; password: string } }>('/session', { schema: { body: signInBody } }, async (request, reply) => {
    // Login CSRF: another site must not sign a browser into an account of its choosing.
    checkSameOrigin(ctx, request);
    const username = checkUsername(request.body.username);
    if (!username.ok) throw new HttpError(400, username.message);
    const password = checkPassword(request.body.password);
    if (!password.ok) throw new HttpError(400, password.message);

    // Counted before the password is checked (a good one takes its attempt back): parallel guesses
    // through any server process cannot slip past the limit together.
    const waitMs = await ctx.limiter.attempt(request.ip, username.value);
    if (waitMs > 0) {
      reply.header('Retry-After', String(Math.ceil(waitMs / 1000)));
      throw new HttpError(429, `too many failed sign-ins; try again in ${Math.ceil(waitMs / 60_000)} min`);
    }
    const user = await findUserByName(ctx.db, username.value);
    const good = await verifyPassword(password.value, user?.password_hash ?? (await decoyHash));
    if (!user || !good) throw new HttpError(401, 'wrong username or password');
    await ctx.limiter.succeeded(request.ip, username.value);
    // Said only to whoever knows the password, so it tells a stranger nothing about which names exist.
    if (user.disabled) throw new HttpError(403, 'this account is disabled; ask the server\'s administrator');
    if (needsRehash(user.password_hash, ctx.options.passwordParams)) {
      await setPasswordHash(ctx.db, user.id, await hashPassword(password.value, ctx.options.passwordParams));
    }

    const token = newSecret();
    const csrfToken = newSecret();
    await deleteExpiredSessions(ctx.db);
    await insertSession(ctx.db, hashSecret(token), user.id, new Date(Date.now() + ctx.options.session.ttlMs), csrfToken);
    reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(ctx, request));
    return { user: { id: user.id, username: user.username }, csrfToken };
  });

  api.delete('/session', { preHandler: requireUser(ctx) }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deleteSession(ctx.db, hashSecret(token));
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.code(204).send();
  });

  api.get('/me', { preHandler: requireUser(ctx) }, async (request) => ({ user: request.signedIn, csrfToken: request.csrfToken }));
}
