/**
 * Whether an error means the database cannot be reached (stopped, restarting, network gone), as
 * opposed to a query that failed: a request that meets it is answered 503, which clients retry
 * (docs/sync.md "Faults, tested"), rather than 500, which says the server is broken.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** What node-postgres says when a connection drops or cannot be made in time (it has no code then). */
const LOST = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception); 57P01-57P03: the server is shutting down or starting.
    if (/^08[0-9A-Z]{3}$/.test(code) || code === '57P01' || code === '57P02' || code === '57P03') return true;
  }
  return LOST.test(err.message);
}
