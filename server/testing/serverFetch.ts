/**
 * A `fetch` that sends requests to the real server in-process (Fastify's inject): what a page of the
 * app served by it would send, with the session cookie and our own Origin added as the browser adds
 * them. For testing the browser's sync client (src/sync/fetchTransport.ts) against the server's code.
 */
import type { FastifyInstance } from 'fastify';
import { ORIGIN, type Client } from './testServer';

export function serverFetch(app: FastifyInstance, client: Client): typeof fetch {
  return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers: Record<string, string> = { ...((init.headers as Record<string, string> | undefined) ?? {}), cookie: client.cookie, origin: ORIGIN };
    let payload: Buffer | string | undefined;
    if (init.body instanceof Blob) payload = Buffer.from(await init.body.arrayBuffer());
    else if (typeof init.body === 'string') payload = init.body;
    const res = await app.inject({ method: (init.method ?? 'GET') as 'GET', url: String(input), headers, ...(payload === undefined ? {} : { payload }) });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out.set(k, v);
    return new Response(res.statusCode === 204 ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: out });
  }) as typeof fetch;
}
