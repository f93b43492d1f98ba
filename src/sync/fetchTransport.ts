/**
 * SyncTransport over `fetch` and WebSocket, as a page of the app served by the team server calls it
 * (docs/server.md): same-origin requests carrying the session cookie, and on every change (POST,
 * PUT) the session's CSRF token in `X-CSRF-Token`; the browser adds `Origin` itself.
 */
import { SyncHttpError, type LiveConnection, type LiveHandlers, type SyncTransport } from './transport';
import type { Cursor, LiveServerMessage, PullResponse, PushRequest, PushResponse } from './protocol';

export interface FetchTransportOptions {
  /** The server's origin; '' (the default) for the page's own. */
  origin?: string;
  /** The session's CSRF token (from sign-in or GET /api/me), read at every request so a new sign-in is picked up. */
  csrfToken: () => string | null;
  fetch?: typeof fetch;
  /** Builds the live socket; absent where WebSocket is not available. */
  webSocket?: (url: string) => WebSocket;
}

export function fetchTransport(options: FetchTransportOptions): SyncTransport {
  const origin = options.origin ?? '';
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const base = (projectId: string) => `${origin}/api/projects/${encodeURIComponent(projectId)}`;

  async function request(method: 'GET' | 'POST' | 'PUT', url: string, body?: BodyInit, contentType?: string): Promise<Response> {
    const headers: Record<string, string> = {};
    if (contentType) headers['content-type'] = contentType;
    if (method !== 'GET') {
      const token = options.csrfToken();
      if (token) headers['x-csrf-token'] = token;
    }
    let res: Response;
    try {
      res = await doFetch(url, { method, headers, body, credentials: 'same-origin', cache: 'no-store' });
    } catch (err) {
      throw new SyncHttpError(0, `The server could not be reached (${err instanceof Error ? err.message : String(err)})`);
    }
    if (!res.ok) throw new SyncHttpError(res.status, await errorText(res));
    return res;
  }

  return {
    async push(projectId: string, req: PushRequest): Promise<PushResponse> {
      const res = await request('POST', `${base(projectId)}/sync/push`, JSON.stringify(req), 'application/json');
      return (await res.json()) as PushResponse;
    },
    async pull(projectId: string, after: Cursor, limit?: number): Promise<PullResponse> {
      const q = new URLSearchParams({ after, ...(limit ? { limit: String(limit) } : {}) });
      const res = await request('GET', `${base(projectId)}/sync/pull?${q.toString()}`);
      return (await res.json()) as PullResponse;
    },
    // Raw bytes, whatever the image type: the server sniffs the type it serves them with.
    async putBlob(projectId: string, sha256: string, bytes: Uint8Array): Promise<void> {
      await request('PUT', `${base(projectId)}/blobs/${sha256}`, new Blob([bytes as BlobPart]), 'application/octet-stream');
    },
    async getBlob(projectId: string, sha256: string): Promise<{ bytes: Uint8Array; mime: string }> {
      const res = await request('GET', `${base(projectId)}/blobs/${sha256}`);
      return { bytes: new Uint8Array(await res.arrayBuffer()), mime: res.headers.get('content-type') ?? '' };
    },
    live(projectId: string, handlers: LiveHandlers): LiveConnection | null {
      const make = options.webSocket ?? (typeof WebSocket === 'function' ? (url: string) => new WebSocket(url) : null);
      if (!make) return null;
      const pageOrigin = origin || (typeof location === 'object' ? location.origin : '');
      const url = `${pageOrigin.replace(/^http/, 'ws')}/api/projects/${encodeURIComponent(projectId)}/sync/live`;
      let socket: WebSocket;
      try {
        socket = make(url);
      } catch {
        queueMicrotask(() => handlers.closed());
        return null;
      }
      let open = false;
      const queued: string[] = [];
      socket.onopen = () => {
        open = true;
        for (const m of queued.splice(0)) socket.send(m);
      };
      socket.onmessage = (event: MessageEvent) => {
        try {
          handlers.message(JSON.parse(String(event.data)) as LiveServerMessage);
        } catch {
          // A message we cannot read changes nothing: the next pull catches up anyway.
        }
      };
      // An error is always followed by a close, which reconnects; a listener keeps it from being thrown.
      socket.onerror = () => undefined;
      socket.onclose = () => handlers.closed();
      return {
        send(message) {
          const text = JSON.stringify(message);
          if (open) socket.send(text);
          else queued.push(text);
        },
        close() {
          socket.onclose = null;
          socket.close();
        },
      };
    },
  };
}

async function errorText(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: unknown; message?: unknown };
    const text = typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : '';
    if (text) return text;
  } catch {
    // not JSON: fall back to the status
  }
  return `The server answered ${res.status} ${res.statusText}`.trim();
}
