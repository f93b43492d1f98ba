/**
 * The sync client (src/sync/) against the real server when things break (docs/sync.md "Faults,
 * tested"): the server dies after committing a push but before answering, PostgreSQL goes away
 * under the server, the network is down for 500 strokes, and two people correct one frame offline.
 * Real engines (started, retrying on their own backoff), real fetch over TCP where the fault is in
 * the network, fake-indexeddb stores, the server's real routes on both backends. No live socket:
 * recovery here is the engine's own retry, not a `changed` message.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { decodeLayer, parseLayer } from '../../src/masks/layers';
import type { SpocDb } from '../../src/store/db';
import { fetchTransport, openServerProject, readLink, SyncEngine, SyncHttpError, type SyncStatus } from '../../src/sync';
import { SYNC_PROTOCOL_VERSION } from '../../src/sync/protocol';
import { isRetryable, type SyncTransport } from '../../src/sync/transport';
import { storePool } from '../../src/testing/storeFixtures';
import { Painter } from '../../src/testing/syncFixtures';
import { openPgDb } from '../db/pgDb';
import type { Db } from '../db/db';
import { onBothBackends } from '../testing/backends';
import { networkFetch } from '../testing/networkFetch';
import { serverFetch } from '../testing/serverFetch';
import { change, clipRow, eventRow, frameRow, newTeam, pushOk, type Team } from '../testing/syncFixtures';
import { startTcpProxy } from '../testing/tcpProxy';
import { testServer, type Client } from '../testing/testServer';

const pool = storePool();
/** Short backoff so a test recovers in well under a second once the fault is gone. */
const FAST = { events: null, debounceMs: 10, backoffMs: 25, maxBackoffMs: 400 } as const;
const SERVER = 'http://localhost';

/** A transport without a live socket (Node 20 has no WebSocket; see the module comment). */
const transportOf = (fetchFn: typeof fetch, c: Client): SyncTransport => ({ ...fetchTransport({ csrfToken: () => c.csrfToken, fetch: fetchFn }), live: () => null });

async function labels(db: SpocDb, clipId: string, k: number): Promise<number[] | null> {
  const l = await db.layers.get([clipId, 'gt', k]);
  return l ? Array.from(decodeLayer(parseLayer(l)).data) : null;
}

/** Every state the engine passes through, with the delay it announced when offline. */
function record(engine: SyncEngine): { states: string[]; delays: number[] } {
  const out = { states: [] as string[], delays: [] as number[] };
  engine.subscribe((s: SyncStatus) => {
    out.states.push(s.state);
    if (s.state === 'offline' && s.retryAt !== null) out.delays.push(s.retryAt - Date.now());
  });
  return out;
}

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let team: Team;
  const started: SyncEngine[] = [];
  const start = (engine: SyncEngine) => (started.push(engine), engine.start(), engine);

  /** A clip of `frames` 8x6 frames on the server (by the manager), assigned to the annotator. */
  async function serverClip(frames: number): Promise<string> {
    const clip = clipRow(team.projectId, { assignee: team.annotator.user.username, frameCount: frames });
    const id = String(clip.id);
    await pushOk(team.manager, team.projectId, [change('clip', clip), ...Array.from({ length: frames }, (_, i) => change('frame', frameRow(id, i)))]);
    return id;
  }
  const open = async (transport: SyncTransport) => {
    const db = await pool.open();
    await openServerProject(db, transport, { server: SERVER, serverProjectId: team.projectId });
    return db;
  };
  /** The server's revisions of a clip: row id -> [how many rows, cursor]. */
  const serverRevisions = async (clipId: string, db: Db = ctx.db()) =>
    new Map(
      (
        await db.query<{ row_id: string; n: number; cursor: string }>(
          "SELECT row_id, count(*)::int AS n, max(cursor)::text AS cursor FROM sync_rows WHERE project_id = $1 AND kind = 'revision' AND body->>'clipId' = $2 GROUP BY row_id",
          [team.projectId, clipId],
        )
      ).map((r) => [r.row_id, [r.n, r.cursor] as const]),
    );
  /** Every revision of the clip in this browser is on the server exactly once, under the cursor the browser recorded. */
  async function expectAllOnServerOnce(db: SpocDb, clipId: string, server: Db = ctx.db()): Promise<number> {
    const local = (await db.revisions.where('clipId').equals(clipId).toArray()).filter((r) => r.source === 'gt');
    const remote = await serverRevisions(clipId, server);
    expect(local.filter((r) => r.cursor === undefined)).toEqual([]);
    expect(local.map((r) => [r.id, remote.get(r.id)])).toEqual(local.map((r) => [r.id, [1, r.cursor]]));
    expect(remote.size).toBe(local.length);
    return local.length;
  }

  beforeAll(async () => {
    app = await testServer(ctx.db());
    team = await newTeam(app, ctx.db());
  }, 120_000);
  afterAll(async () => {
    for (const e of started) e.stop();
    pool.closeAll();
    await app.close();
  });

  it('the server dies after committing a push and before answering: the engine retries against the restarted server, and nothing is doubled or lost', async () => {
    const clipId = await serverClip(4);
    // The server as a process listening on a port; `onSend` runs after the push's transaction committed.
    let armed = false;
    let pushes = 0;
    let killed!: () => void;
    const kill = new Promise<void>((r) => (killed = r));
    const first = await testServer(ctx.db());
    first.addHook('onSend', async (request, reply, payload) => {
      if (request.url.endsWith('/sync/push')) pushes++;
      if (armed && request.url.endsWith('/sync/push') && reply.statusCode === 200) {
        armed = false;
        // The process dies here: the connection goes down with the answer unsent.
        request.raw.socket.destroy();
        killed();
      }
      return payload;
    });
    const base = await first.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(base).port);
    const transport = transportOf(networkFetch(base, team.annotator), team.annotator);
    const b = await open(transport);
    const painter = new Painter(b, (await b.clips.get(clipId))!, team.annotator.user.username);
    // Each stroke paints a pixel of its own (frame i % 4, pixel i >> 2), so each is a revision.
    for (let i = 0; i < 40; i++) expect(await painter.stroke(i % 4, { x: (i >> 2) % 8, y: i >> 5, w: 1, h: 1 }, 1 + (i % 2))).toBe(true);

    armed = true;
    const engine = new SyncEngine(b, team.projectId, transport, FAST);
    const seen = record(engine);
    start(engine);
    await kill;
    const committed = await serverRevisions(clipId);
    expect(committed.size).toBe(40); // the push did commit
    const diedAt = Date.now();
    await first.close();
    // Down for a while: the engine's retries meet a refused connection.
    await vi.waitFor(() => expect(seen.states.filter((s) => s === 'offline').length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    const second = await testServer(ctx.db());
    let pushesAfter = 0;
    second.addHook('onSend', async (request, _reply, payload) => {
      if (request.url.endsWith('/sync/push')) pushesAfter++;
      return payload;
    });
    await second.listen({ port, host: '127.0.0.1' });
    const upAt = Date.now();
    try {
      await vi.waitFor(() => expect(engine.status.state).toBe('synced'), { timeout: 15_000 });
      console.log(`[sync faults ${ctx.kind}] server killed mid-push: down ${upAt - diedAt} ms, synced ${Date.now() - upAt} ms after the restart`);
      expect(pushes).toBe(1);
      expect(pushesAfter).toBeGreaterThanOrEqual(1); // the lost batch, sent again
      expect(await expectAllOnServerOnce(b, clipId)).toBe(40);
      // The resent batch was answered with the first commit's cursors: the server's rows did not move.
      expect(await serverRevisions(clipId)).toEqual(committed);
      expect((await readLink(b, team.projectId))!.refusals).toEqual([]);
    } finally {
      engine.stop();
      await second.close();
    }
  }, 60_000);

  // The PostgreSQL cluster of .ci/postgres.sh is shared by every test file, so it is not stopped.
  // Instead the server's pool reaches this file's database through a TCP proxy that is cut (stops
  // listening, destroys every connection) and restored: to the server that is exactly a database
  // going away and coming back (refused connects, dropped sessions), unlike ALLOW_CONNECTIONS false,
  // which the server would see as a login error from a live database. PGlite runs in-process and
  // cannot go away on its own.
  if (ctx.kind === 'pglite') console.warn('[sync faults] "PostgreSQL stopped" runs on PostgreSQL only: PGlite is in-process and has no connection to lose.');
  it.skipIf(ctx.kind === 'pglite')('PostgreSQL goes away: the server answers 503 (retryable), the browser keeps writing and shows offline, and everything arrives once it is back', async () => {
    const clipId = await serverClip(4);
    const url = new URL(ctx.databaseUrl());
    const proxy = await startTcpProxy(Number(url.port), url.hostname);
    url.port = String(proxy.port);
    const proxied = openPgDb({ connectionString: url.toString(), max: 4 });
    const server = await testServer(proxied);
    const transport = transportOf(serverFetch(server, team.annotator), team.annotator);
    try {
      const b = await open(transport);
      const engine = start(new SyncEngine(b, team.projectId, transport, FAST));
      const seen = record(engine);
      await vi.waitFor(() => expect(engine.status.state).toBe('synced'));

      await proxy.cut();
      const health = await server.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(503);
      const refused = await transport.push(team.projectId, { protocol: SYNC_PROTOCOL_VERSION, clientId: (await readLink(b, team.projectId))!.clientId, changes: [] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SyncHttpError);
      expect((refused as SyncHttpError).status).toBe(503);
      expect(isRetryable(refused)).toBe(true);

      const painter = new Painter(b, (await b.clips.get(clipId))!, team.annotator.user.username);
      for (let i = 0; i < 30; i++) expect(await painter.stroke(i % 4, { x: (i >> 2) % 8, y: i >> 5, w: 1, h: 1 }, 1 + (i % 2))).toBe(true);
      await vi.waitFor(() => expect(engine.status.state).toBe('offline'), { timeout: 10_000 });
      expect(seen.states).toContain('pending'); // the writes were seen and tried
      expect(await serverRevisions(clipId)).toEqual(new Map());

      await proxy.restore();
      const backAt = Date.now();
      await vi.waitFor(() => expect(engine.status.state).toBe('synced'), { timeout: 20_000 });
      console.log(`[sync faults ${ctx.kind}] PostgreSQL back: synced ${Date.now() - backAt} ms later`);
      expect((await server.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      expect(await expectAllOnServerOnce(b, clipId)).toBe(30);
      const other = await open(transportOf(serverFetch(app, team.annotator), team.annotator));
      for (let k = 0; k < 4; k++) expect(await labels(other, clipId, k)).toEqual(await labels(b, clipId, k));
      engine.stop();
    } finally {
      await server.close();
      await proxied.close();
      await proxy.close();
    }
  }, 60_000);

  it('the network is down while 500 strokes over 10 frames are written: offline with growing backoff, then each arrives once and another browser sees the same layers', async () => {
    // (syncClient.test.ts covers 500 strokes written without syncing; here the engine runs and every try fails.)
    const clipId = await serverClip(10);
    const listening = await testServer(ctx.db());
    const base = await listening.listen({ port: 0, host: '127.0.0.1' });
    const network = await startTcpProxy(Number(new URL(base).port));
    const origin = `http://127.0.0.1:${network.port}`;
    const transport = transportOf(networkFetch(origin, team.annotator), team.annotator);
    try {
      const b = await open(transport);
      // random 1: each announced delay is exactly the backoff step, so its growth can be read off the statuses.
      const engine = start(new SyncEngine(b, team.projectId, transport, { ...FAST, random: () => 1 }));
      await vi.waitFor(() => expect(engine.status.state).toBe('synced'));
      const seen = record(engine);
      await network.cut();

      const painter = new Painter(b, (await b.clips.get(clipId))!, team.annotator.user.username);
      let n = 0;
      for (let i = 0; n < 500; i++) if (await painter.stroke(i % 10, { x: i % 7, y: (i >> 3) % 5, w: 1 + (i % 2), h: 1 }, i % 3 === 2 ? 0 : (i % 2) + 1)) n++;
      await vi.waitFor(() => expect(seen.delays.length).toBeGreaterThanOrEqual(5), { timeout: 15_000 });
      expect(engine.status.state).toBe('offline');
      // Exponential: 25, 50, 100, 200, then 400 ms (the cap) — not a retry every 25 ms.
      expect(Math.max(...seen.delays)).toBeGreaterThanOrEqual(FAST.maxBackoffMs - 5);
      expect(await serverRevisions(clipId)).toEqual(new Map());

      await network.restore();
      const backAt = Date.now();
      await vi.waitFor(() => expect(engine.status.state).toBe('synced'), { timeout: 20_000 });
      console.log(`[sync faults ${ctx.kind}] network back after 500 strokes: synced ${Date.now() - backAt} ms later (retry delays ${seen.delays.map(Math.round).join(', ')} ms)`);
      expect(await expectAllOnServerOnce(b, clipId)).toBe(500);
      const other = await open(transportOf(serverFetch(app, team.reviewer), team.reviewer));
      for (let k = 0; k < 10; k++) {
        const mine = await labels(b, clipId, k);
        expect(mine!.some((v) => v !== 0)).toBe(true);
        expect(await labels(other, clipId, k)).toEqual(mine);
      }
      engine.stop();
    } finally {
      await network.close();
      await listening.close();
    }
  }, 60_000);

  it('two reviewers correct one frame of a clip in review, both offline, then both sync: both strokes everywhere, and the frame flagged with both', async () => {
    const clipId = await serverClip(3);
    const ann = team.annotator.user.username;
    await pushOk(team.annotator, team.projectId, [change('clipEvent', eventRow(clipId, 'submit', 'todo', 'submitted', ann))]);
    await pushOk(team.reviewer, team.projectId, [change('clipEvent', eventRow(clipId, 'start_review', 'submitted', 'in_review', team.reviewer.user.username))]);
    const listening = await testServer(ctx.db());
    const base = await listening.listen({ port: 0, host: '127.0.0.1' });
    const network = await startTcpProxy(Number(new URL(base).port));
    const origin = `http://127.0.0.1:${network.port}`;
    try {
      const people = [team.reviewer, team.reviewer2];
      const browsers = await Promise.all(people.map((c) => open(transportOf(networkFetch(origin, c), c))));
      const engines = browsers.map((db, i) => start(new SyncEngine(db, team.projectId, transportOf(networkFetch(origin, people[i]), people[i]), FAST)));
      await vi.waitFor(() => expect(engines.map((e) => e.status.state)).toEqual(['synced', 'synced']));
      expect((await browsers[0].clips.get(clipId))!.status).toBe('in_review');

      await network.cut();
      // Reviewer 1 fills the left three columns of frame 1 with label 1, reviewer 2 the right three with label 2.
      await new Painter(browsers[0], (await browsers[0].clips.get(clipId))!, people[0].user.username).stroke(1, { x: 0, y: 0, w: 3, h: 6 }, 1);
      await new Painter(browsers[1], (await browsers[1].clips.get(clipId))!, people[1].user.username).stroke(1, { x: 5, y: 0, w: 3, h: 6 }, 2);
      await vi.waitFor(() => expect(engines.map((e) => e.status.state)).toEqual(['offline', 'offline']), { timeout: 10_000 });

      await network.restore();
      await vi.waitFor(() => expect(engines.map((e) => e.status.state)).toEqual(['synced', 'synced']), { timeout: 20_000 });
      // Without a live socket, whoever pushed first learns of the other's stroke at its next sync.
      for (const e of engines) await e.syncNow();
      const expected = Array.from({ length: 6 * 8 }, (_, i) => (i % 8 < 3 ? 1 : i % 8 >= 5 ? 2 : 0));
      const third = await open(transportOf(serverFetch(app, team.manager), team.manager));
      for (const db of [...browsers, third]) expect(await labels(db, clipId, 1)).toEqual(expected);

      const mine = await Promise.all(browsers.map(async (db, i) => (await db.revisions.where('clipId').equals(clipId).toArray()).filter((r) => r.author === people[i].user.username)));
      const revisionIds = mine.flat().map((r) => r.id);
      expect(revisionIds).toHaveLength(2);
      const rowId = `${clipId}/gt/1`;
      const [flag] = await ctx.db().query<{ body: { revisionIds: string[]; users: string[] } }>("SELECT body FROM sync_rows WHERE project_id = $1 AND kind = 'concurrentEdit' AND row_id = $2", [team.projectId, rowId]);
      expect(flag.body.revisionIds.slice().sort()).toEqual(revisionIds.slice().sort());
      expect(flag.body.users).toEqual(people.map((c) => c.user.username).sort());
      for (const db of browsers) {
        const edits = (await readLink(db, team.projectId))!.concurrentEdits;
        expect(Object.keys(edits)).toEqual([rowId]);
        expect(edits[rowId]).toMatchObject({ users: flag.body.users });
        expect((edits[rowId].revisionIds as string[]).slice().sort()).toEqual(revisionIds.slice().sort());
      }
      for (const e of engines) e.stop();
    } finally {
      await network.close();
      await listening.close();
    }
  }, 60_000);
});
