/**
 * A `fetch` over real HTTP to a listening server (Node's fetch), adding the session cookie and the
 * Origin a page of the app served from `origin` would send. Unlike serverFetch (in-process inject),
 * it has a network under it that can fail: a refused connection, a socket closed before the answer.
 */
import type { Client } from './testServer';

export function networkFetch(origin: string, client: Client, serverOrigin = origin): typeof fetch {
  return ((input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = { ...((init.headers as Record<string, string> | undefined) ?? {}), cookie: client.cookie, origin: serverOrigin };
    return fetch(new URL(String(input), origin), { ...init, headers });
  }) as typeof fetch;
}
