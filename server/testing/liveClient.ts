/**
 * A WebSocket client for the live-route tests: the `ws` package (already installed with
 * @fastify/websocket; Node 20 has no global WebSocket), with the headers a browser would send.
 */
import { createRequire } from 'node:module';
import type { LiveClientMessage, LiveServerMessage } from '../../src/sync/protocol';

interface WsLike {
  on(event: 'open', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: (code: number) => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  on(event: 'unexpected-response', listener: (req: unknown, res: { statusCode: number }) => void): void;
  send(text: string): void;
  close(): void;
}
type WsConstructor = new (url: string, options: { headers: Record<string, string> }) => WsLike;
// `ws` ships no types; this is the part of it the tests use.
const WebSocket = createRequire(import.meta.url)('ws') as WsConstructor;

export interface LiveClient {
  /** The next message not yet taken that matches (every message when no test is given). */
  next(match?: (m: LiveServerMessage) => boolean): Promise<LiveServerMessage>;
  send(message: LiveClientMessage | string): void;
  close(): void;
  /** Resolves with the close code once the server or we closed the socket. */
  closed: Promise<number>;
}

/** Opens the socket; rejects with "HTTP <status>" when the server refuses the upgrade. */
export function openLive(url: string, headers: Record<string, string>): Promise<LiveClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const inbox: LiveServerMessage[] = [];
    let waiters: { match: (m: LiveServerMessage) => boolean; resolve: (m: LiveServerMessage) => void }[] = [];
    let onClosed: (code: number) => void = () => {};
    const closed = new Promise<number>((r) => (onClosed = r));
    const deliver = () => {
      waiters = waiters.filter((w) => {
        const i = inbox.findIndex(w.match);
        if (i < 0) return true;
        w.resolve(inbox.splice(i, 1)[0]);
        return false;
      });
    };
    ws.on('message', (data) => {
      inbox.push(JSON.parse(data.toString()) as LiveServerMessage);
      deliver();
    });
    ws.on('close', (code) => onClosed(code));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        next: (match = () => true) =>
          new Promise((r) => {
            waiters.push({ match, resolve: r });
            deliver();
          }),
        send: (m) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
        close: () => ws.close(),
        closed,
      }),
    );
  });
}
