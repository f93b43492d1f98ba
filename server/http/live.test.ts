/**
 * The live socket (docs/sync.md "The protocol": live): hello, changes fanned out through
 * LISTEN/NOTIFY (across two server processes on one PostgreSQL), presence, and refused upgrades.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareCursors, type LiveServerMessage } from '../../src/sync/protocol';
import { createApiToken } from '../auth/accounts';
import { onBothBackends } from '../testing/backends';
import { openLive, type LiveClient } from '../testing/liveClient';
import { change, commentRow, newClip, newTeam, pushOk, type Team } from '../testing/syncFixtures';
import { testServer, type Client } from '../testing/testServer';

const isChangedTo = (cursor: string) => (m: LiveServerMessage) => m.type === 'changed' && compareCursors(m.cursor, cursor) >= 0;

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let base: string;
  let team: Team;
  const db = () => ctx.db();
  const opened: LiveClient[] = [];

  const live = async (client: Client, at = base, projectId = team.projectId, headers: Record<string, string> = {}) => {
    const socket = await openLive(`${at.replace('http', 'ws')}/api/projects/${projectId}/sync/live`, { cookie: client.cookie, origin: at, ...headers });
    opened.push(socket);
    return socket;
  };

  beforeAll(async () => {
    app = await testServer(db());
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    team = await newTeam(app, db());
  });
  afterAll(async () => {
    for (const s of opened) s.close();
    await app.close();
  });

  it('says hello with the project cursor, then tells of every push', async () => {
    const clipId = await newClip(team);
    const socket = await live(team.reviewer);
    const [{ cursor }] = await db().query<{ cursor: string }>('SELECT max(cursor)::text AS cursor FROM sync_rows WHERE project_id = $1', [team.projectId]);
    expect(await socket.next()).toEqual({ type: 'hello', cursor });
    expect(await socket.next()).toEqual({ type: 'presence', clips: {} });
    const [outcome] = await pushOk(team.annotator, team.projectId, [change('comment', commentRow(clipId, team.annotator.user.username, 'look'))]);
    expect(await socket.next()).toEqual({ type: 'changed', cursor: outcome.status === 'accepted' ? outcome.cursor : 'refused' });
  });

  it('shares who has which clip open, and forgets whoever leaves', async () => {
    const clipId = await newClip(team);
    const a = await live(team.annotator);
    const b = await live(team.reviewer);
    a.send({ type: 'open', clipId });
    const names = { [clipId]: [team.annotator.user.username] };
    expect(await b.next((m) => m.type === 'presence' && Object.keys(m.clips).length > 0)).toEqual({ type: 'presence', clips: names });
    expect(await a.next((m) => m.type === 'presence' && Object.keys(m.clips).length > 0)).toEqual({ type: 'presence', clips: names });
    a.close();
    expect(await b.next((m) => m.type === 'presence')).toEqual({ type: 'presence', clips: {} });
  });

  it('closes the socket on a message that is not the protocol (1008)', async () => {
    const socket = await live(team.annotator);
    socket.send('{"type":"open","clipId":"x","by":"someone else"}');
    expect(await socket.closed).toBe(1008);
  });

  it('accepts a bearer token, and refuses no session (401), another origin (403) and non-members (404)', async () => {
    const token = await createApiToken(db(), team.reviewer.user.username);
    const url = `${base.replace('http', 'ws')}/api/projects/${team.projectId}/sync/live`;
    const viaToken = await openLive(url, { authorization: `Bearer ${token}` });
    opened.push(viaToken);
    expect((await viaToken.next()).type).toBe('hello');
    await expect(openLive(url, { origin: base })).rejects.toThrow('HTTP 401');
    await expect(openLive(url, { cookie: team.reviewer.cookie, origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(openLive(url, { cookie: team.reviewer.cookie })).rejects.toThrow('HTTP 403');
    await expect(openLive(url, { cookie: team.outsider.cookie, origin: base })).rejects.toThrow('HTTP 404');
  });

  if (ctx.kind === 'postgres') {
    describe('several server processes on one PostgreSQL', () => {
      let other: FastifyInstance;
      let otherBase: string;
      beforeAll(async () => {
        other = await testServer(ctx.connectAgain());
        otherBase = await other.listen({ port: 0, host: '127.0.0.1' });
      });
      afterAll(() => other.close());

      it('tells the sockets of one process about a push through another', async () => {
        const clipId = await newClip(team);
        const socket = await live(team.reviewer, otherBase);
        expect((await socket.next()).type).toBe('hello');
        const [outcome] = await pushOk(team.annotator, team.projectId, [change('comment', commentRow(clipId, team.annotator.user.username, 'from the first process'))]);
        expect(await socket.next((m) => m.type === 'changed')).toEqual({ type: 'changed', cursor: outcome.status === 'accepted' ? outcome.cursor : 'refused' });
      });

      it('listens again after its database connection is killed, and tells its sockets to catch up', async () => {
        const clipId = await newClip(team);
        const socket = await live(team.reviewer, otherBase);
        expect((await socket.next()).type).toBe('hello');
        const killed = await db().query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN spoc_sync'");
        expect(killed.length).toBeGreaterThanOrEqual(2);
        const [outcome] = await pushOk(team.annotator, team.projectId, [change('comment', commentRow(clipId, team.annotator.user.username, 'while it was away'))]);
        const cursor = outcome.status === 'accepted' ? outcome.cursor : 'refused';
        // Either the catch-up after reconnecting or the NOTIFY itself (if it was back in time) brings it.
        expect(await socket.next(isChangedTo(cursor))).toEqual({ type: 'changed', cursor: expect.any(String) });
        const [later] = await pushOk(team.annotator, team.projectId, [change('comment', commentRow(clipId, team.annotator.user.username, 'after it came back'))]);
        const laterCursor = later.status === 'accepted' ? later.cursor : 'refused';
        expect(await socket.next(isChangedTo(laterCursor))).toEqual({ type: 'changed', cursor: laterCursor });
      });
    });
  }
});
