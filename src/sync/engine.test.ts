/**
 * The engine's reactions that need no server: what the fetch transport sends, "offline" when the
 * network fails (rows stay due, a retry is planned, local writes wait for it, `online` retries at
 * once), and a stop with a clear status on 401. Pushing to and pulling from the real server is
 * tested with the server's sync routes (server/sync).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storePool } from '../testing/storeFixtures';
import { CursorLog, linkedProject, Painter } from '../testing/syncFixtures';
import { addComment } from '../store/comments';
import type { LiveHandlers, SyncTransport } from './transport';
import { SyncEngine, type SyncStatus } from './engine';
import { fetchTransport } from './fetchTransport';
import { readLink } from './syncState';
import type { PushRequest } from './protocol';

const pool = storePool();
const engines: SyncEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.stop();
  pool.closeAll();
});

interface Call {
  url: string;
  init: RequestInit;
}

/** A `fetch` as a browser without network has it: every request fails with TypeError. */
function offlineFetch(calls: Call[]): typeof fetch {
  return ((url: string, init: RequestInit) => {
    calls.push({ url, init });
    return Promise.reject(new TypeError('Failed to fetch'));
  }) as unknown as typeof fetch;
}

describe('SyncEngine', () => {
  it('uploads images first, as docs/server.md asks (same-origin, CSRF token), and goes offline when the network fails, keeping every row due', async () => {
    const db = await pool.open();
    const { projectId, clip } = await linkedProject(db);
    await new Painter(db, clip, 'ann').stroke(0, { x: 0, y: 0, w: 2, h: 2 }, 1);
    const calls: Call[] = [];
    const events = new EventTarget();
    const engine = new SyncEngine(db, projectId, fetchTransport({ csrfToken: () => 'tok-1', fetch: offlineFetch(calls), webSocket: undefined }), { events, backoffMs: 3_600_000, debounceMs: 5 });
    engines.push(engine);
    const seen: SyncStatus[] = [];
    engine.subscribe((s) => seen.push(s));
    engine.start();
    await vi.waitFor(() => expect(engine.status.state).toBe('offline'));
    // Images go up first, and nothing else is sent once one fails.
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toMatch(/^\/api\/projects\/srv-project-1\/blobs\/[0-9a-f]{64}$/);
    expect(calls[0].init).toMatchObject({ method: 'PUT', credentials: 'same-origin', headers: { 'x-csrf-token': 'tok-1', 'content-type': 'application/octet-stream' } });
    const status = engine.status as Extract<SyncStatus, { state: 'offline' }>;
    expect(status.retryAt).toBeGreaterThan(status.since);
    expect((await db.revisions.toArray()).every((r) => r.cursor === undefined)).toBe(true);

    // While backing off, a local write waits for the retry; `online` retries at once.
    await new Painter(db, clip, 'ann').stroke(1, { x: 0, y: 0, w: 1, h: 1 }, 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(1);
    events.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    await vi.waitFor(() => expect(engine.status.state).toBe('offline'));
    expect(seen.some((s) => s.state === 'synced')).toBe(false);
  });

  it('sends the batch as JSON with the protocol version and client id, after its images', async () => {
    const db = await pool.open();
    const { projectId, clip } = await linkedProject(db);
    await new Painter(db, clip, 'ann').stroke(0, { x: 0, y: 0, w: 2, h: 2 }, 1);
    const calls: Call[] = [];
    // The image uploads get through; the connection drops on the push itself.
    const dropsPush = ((url: string, init: RequestInit) => {
      calls.push({ url, init });
      return url.includes('/blobs/') ? Promise.resolve(new Response(null, { status: 204 })) : Promise.reject(new TypeError('network error'));
    }) as unknown as typeof fetch;
    const engine = new SyncEngine(db, projectId, fetchTransport({ csrfToken: () => 'tok-2', fetch: dropsPush }), { events: null, backoffMs: 3_600_000 });
    engines.push(engine);
    await engine.syncNow();
    expect(engine.status.state).toBe('offline');
    expect(calls.map((c) => c.url.replace(/[0-9a-f]{64}$/, '<sha>'))).toEqual([...Array(4).fill('/api/projects/srv-project-1/blobs/<sha>'), '/api/projects/srv-project-1/sync/push']);
    const push = calls[4];
    expect(push.init).toMatchObject({ method: 'POST', credentials: 'same-origin', headers: { 'x-csrf-token': 'tok-2', 'content-type': 'application/json' } });
    const body = JSON.parse(String(push.init.body)) as PushRequest;
    expect(body).toMatchObject({ protocol: 1, clientId: 'client-a' });
    expect(body.upload).toBeUndefined();
    expect(body.changes.map((c) => c.kind)).toEqual(['project', 'clip', 'frame', 'frame', 'frame', 'frame', 'revision']);
    expect(body.changes[6]).toMatchObject({ base: '0', row: { author: 'ann', action: 'brush' } });
    expect(body.changes[6].row).not.toHaveProperty('seq');
  });

  it('stops with a "signed out" status on 401 and ignores local writes after it', async () => {
    const db = await pool.open();
    const { projectId, clip } = await linkedProject(db);
    const calls: Call[] = [];
    const signedOut = ((url: string, init: RequestInit) => {
      calls.push({ url, init });
      return Promise.resolve(new Response(JSON.stringify({ error: 'sign in first' }), { status: 401, headers: { 'content-type': 'application/json' } }));
    }) as unknown as typeof fetch;
    const engine = new SyncEngine(db, projectId, fetchTransport({ csrfToken: () => null, fetch: signedOut }), { events: null, debounceMs: 5 });
    engines.push(engine);
    engine.start();
    await vi.waitFor(() => expect(engine.status).toMatchObject({ state: 'error', signedOut: true }));
    const n = calls.length;
    await new Painter(db, clip, 'ann').stroke(0, { x: 0, y: 0, w: 1, h: 1 }, 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(n);
    expect(engine.status).toMatchObject({ state: 'error', signedOut: true, message: expect.stringMatching(/sign in again/) });
  });
  it('backs off exponentially while the network stays down: each retry waits twice as long as the last, up to the cap', async () => {
    const db = await pool.open();
    const { projectId, clip } = await linkedProject(db);
    await new Painter(db, clip, 'ann').stroke(0, { x: 0, y: 0, w: 2, h: 2 }, 1);
    const calls: Call[] = [];
    // random 1: every delay is exactly the backoff step (no jitter).
    const engine = new SyncEngine(db, projectId, fetchTransport({ csrfToken: () => 'tok-3', fetch: offlineFetch(calls) }), { events: null, backoffMs: 5, maxBackoffMs: 40, random: () => 1 });
    engines.push(engine);
    const delays: number[] = [];
    engine.subscribe((s) => {
      if (s.state === 'offline' && s.retryAt !== null) delays.push(Math.round(s.retryAt - Date.now()));
    });
    engine.start();
    await vi.waitFor(() => expect(delays.length).toBeGreaterThanOrEqual(6));
    // Each retry is a failure in a row: the step grows (5, 10, 20, 40, 40...) instead of restarting at 5.
    const steps = [5, 10, 20, 40, 40, 40];
    expect(delays.slice(0, 6).map((d, i) => (Math.abs(d - steps[i]) <= 1 ? steps[i] : d))).toEqual(steps);
  });
  it("does not count rows its own pull stored as this browser's writes (pending counts only what was written here)", async () => {
    const db = await pool.open();
    const { projectId, clip } = await linkedProject(db);
    const log = new CursorLog();
    const transport: SyncTransport = {
      push: async (_p, req) => ({ outcomes: log.accept(req.changes, 'ann'), cursor: '0' }),
      pull: async (_p, after) => log.page(after),
      putBlob: async () => undefined,
      getBlob: () => Promise.reject(new Error('not here')),
      live: () => null,
    };
    // A long quiet time: no cycle runs between the writes below and the assertion.
    const engine = new SyncEngine(db, projectId, transport, { events: null, debounceMs: 3_600_000 });
    engines.push(engine);
    engine.start();
    await engine.syncNow();
    expect(engine.status.state).toBe('synced');
    // Someone else's comment arrives by pull...
    const theirs = { id: crypto.randomUUID(), clipId: clip.id, frameIndex: 0, x: 1, y: 1, author: 'rev', at: 1, text: 'see the rim', resolved: false };
    log.accept([{ kind: 'comment', id: theirs.id, row: theirs }], 'rev');
    await engine.syncNow();
    expect(await db.comments.get(theirs.id)).toMatchObject({ text: 'see the rim' });
    expect(engine.status.state).toBe('synced');
    // ...and one written here is the one row pending.
    await addComment(db, { clipId: clip.id, frameIndex: 0, x: 2, y: 2, author: 'ann', text: 'done' });
    expect(engine.status).toMatchObject({ state: 'pending', count: 1 });
  });

  it('applies the rows the live socket brings without a request, and pulls when they have a gap or the socket reopens', async () => {
    const db = await pool.open();
    const { projectId, clip } = await linkedProject(db);
    const log = new CursorLog();
    const pulls: string[] = [];
    let server: LiveHandlers | null = null;
    const transport: SyncTransport = {
      push: async (_p, req) => ({ outcomes: log.accept(req.changes, 'ann'), cursor: log.page('0').cursor }),
      pull: async (_p, after) => {
        pulls.push(after);
        return log.page(after);
      },
      putBlob: async () => undefined,
      getBlob: () => Promise.reject(new Error('not here')),
      live: (_p, handlers) => {
        server = handlers;
        return { send: () => undefined, close: () => undefined };
      },
    };
    const engine = new SyncEngine(db, projectId, transport, { events: null, debounceMs: 5, backoffMs: 5 });
    engines.push(engine);
    // Everything up and back before the socket opens (the first push also writes the baseline revisions).
    await engine.syncNow();
    await engine.syncNow();
    const pullsDone = pulls.length;
    engine.start(); // pulls once on starting
    await vi.waitFor(() => expect(server).not.toBeNull());
    const live = server!;
    await vi.waitFor(() => expect(pulls.length).toBe(pullsDone + 1));
    await vi.waitFor(() => expect(engine.status.state).toBe('synced'));
    live.message({ type: 'hello', cursor: log.page('0').cursor }); // nothing new: no pull
    await new Promise((r) => setTimeout(r, 20));
    const comment = (text: string) => {
      const row = { id: crypto.randomUUID(), clipId: clip.id, frameIndex: 0, x: 1, y: 1, author: 'rev', at: 1, text, resolved: false };
      const before = log.page('0').cursor;
      log.accept([{ kind: 'comment', id: row.id, row }], 'rev');
      return { row, news: { type: 'rows' as const, after: before, cursor: log.page('0').cursor, changes: log.page(before).changes } };
    };
    const pullsBefore = pulls.length;

    // Rows that continue from the checkpoint: stored, and no pull.
    const first = comment('see the rim');
    live.message(first.news);
    await vi.waitFor(async () => expect(await db.comments.get(first.row.id)).toMatchObject({ text: 'see the rim' }));
    await vi.waitFor(() => expect(engine.status.state).toBe('synced'));
    // A stroke here is pushed, and (the socket being open) not followed by a pull either.
    await new Painter(db, clip, 'ann').stroke(0, { x: 0, y: 0, w: 1, h: 1 }, 1);
    await vi.waitFor(async () => expect((await db.revisions.toArray()).every((r) => r.cursor !== undefined)).toBe(true));
    expect(pulls.length).toBe(pullsBefore);
    // The server sends this browser's own rows back too: they only move its checkpoint on.
    const own = log.page(first.news.cursor);
    live.message({ type: 'rows', after: first.news.cursor, cursor: own.cursor, changes: own.changes });
    await vi.waitFor(async () => expect((await readLink(db, projectId))!.cursor).toBe(own.cursor));

    // A message lost on the way: the next one does not continue from the checkpoint, so the engine pulls.
    // Arriving together with one that does continue, which is applied first and reported with the pull's rows.
    const applied: number[] = [];
    engine.onApplied((round) => applied.push(round.applied));
    const arrived = comment('arrived');
    const lost = comment('lost on the way');
    const next = comment('after it');
    live.message(arrived.news);
    live.message({ ...next.news, after: lost.news.cursor, changes: next.news.changes.filter((c) => c.id === next.row.id) });
    await vi.waitFor(async () => expect(await db.comments.get(lost.row.id)).toMatchObject({ text: 'lost on the way' }));
    expect(await db.comments.get(arrived.row.id)).toMatchObject({ text: 'arrived' });
    expect(await db.comments.get(next.row.id)).toMatchObject({ text: 'after it' });
    expect(pulls.length).toBe(pullsBefore + 1);
    await vi.waitFor(() => expect(applied.reduce((a, b) => a + b, 0)).toBe(3));

    // The socket closes: a push is then followed by a pull, as without a socket.
    live.closed();
    const n = pulls.length;
    await new Painter(db, clip, 'ann').stroke(0, { x: 1, y: 1, w: 1, h: 1 }, 1);
    await vi.waitFor(() => expect(pulls.length).toBeGreaterThan(n));
  });
});
