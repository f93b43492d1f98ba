/**
 * How the sync client talks to a server (docs/sync.md "The protocol"), behind one small interface so
 * the engine's tests can run it against the real server in-process and the app over `fetch`.
 */
import type { Cursor, LiveClientMessage, LiveServerMessage, PullResponse, PushRequest, PushResponse } from './protocol';

export interface LiveConnection {
  send(message: LiveClientMessage): void;
  close(): void;
}

export interface LiveHandlers {
  message(message: LiveServerMessage): void;
  /** The socket closed or could not open (the engine reconnects with backoff). */
  closed(): void;
}

export interface SyncTransport {
  push(serverProjectId: string, request: PushRequest): Promise<PushResponse>;
  pull(serverProjectId: string, after: Cursor, limit?: number): Promise<PullResponse>;
  putBlob(serverProjectId: string, sha256: string, bytes: Uint8Array, mime: string): Promise<void>;
  getBlob(serverProjectId: string, sha256: string): Promise<{ bytes: Uint8Array; mime: string }>;
  /** A live socket, or null where there is none (tests, or no WebSocket); the engine then relies on local writes and `online`. */
  live(serverProjectId: string, handlers: LiveHandlers): LiveConnection | null;
}

/**
 * A request that did not get a usable answer. `status` is the HTTP status, or 0 when the network
 * failed (no answer at all). The engine retries 0, 408, 429 and 5xx with backoff, stops on 401.
 */
export class SyncHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SyncHttpError';
  }
}

export function isRetryable(err: unknown): boolean {
  if (!(err instanceof SyncHttpError)) return false;
  return err.status === 0 || err.status === 408 || err.status === 429 || err.status >= 500;
}
