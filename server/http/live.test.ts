/**
 * The live socket (docs/sync.md "The protocol": live): hello, the rows of every push fanned out
 * through LISTEN/NOTIFY (across two server processes on one PostgreSQL), presence, refused upgrades,
 * and sockets closed once their session or membership ends.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareCursors, type LiveServerMessage, type PushOutcome } from '../../src/sync/protocol';
import { createApiToken } from '../auth/accounts';
import { onBothBackends } from '../testing/backends';
import { openLive, type LiveClient } from '../testing/liveClient';
import { change, commentRow, newClip, newTeam, pushOk, type Team } from '../testing/syncFixtures';
import { signIn, testServer, type Client } from '../testing/testServer';

/** News (rows or "changed") that reaches at least this cursor. */
const isNewsTo = (cursor: string) => (m: LiveServerMessage) => (m.type === 'changed' || m.type === 'rows') && compareCursors(m.cursor, cursor) >= 0;
const cursorOf = (o: PushOutcome) => (o.status === 'accepted' ? o.cursor : 'refused');

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
    app = await testServer(db(), { liveRecheckMs: 50 });
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
    const comment = commentRow(clipId, team.annotator.user.username, 'look');
    const [outcome] = await pushOk(team.annotator, team.projectId, [change('comment', comment)]);
    // The rows themselves, exactly as a pull from hello's cursor answers them: no pull needed.
    const pulled = await team.reviewer.request('GET', `/api/projects/${team.projectId}/sync/pull?after=${cursor}`);
    expect(await socket.next()).toEqual({ type: 'rows', after: cursor, cursor: cursorOf(outcome), changes: pulled.json().changes });
    expect(pulled.json().changes).toEqual([{ kind: 'comment', id: comment.id, cursor: cursorOf(outcome), by: team.annotator.user.username, row: comment }]);
    const [second] = await pushOk(team.annotator, team.projectId, [change('comment', commentRow(clipId, team.annotator.user.username, 'and this'))]);
    expect(await socket.next()).toMatchObject({ type: 'rows', after: cursorOf(outcome), cursor: cursorOf(second) });
  });

  it('closes the socket once its session ends (4401) or its membership is taken away (4403)', async () => {
    const session = await signIn(app, team.reviewer.user.username);
    const signedOut = await live(session);
    expect((await signedOut.next()).type).toBe('hello');
    expect((await session.request('DELETE', '/api/session')).statusCode).toBe(204);
    expect(await signedOut.closed).toBe(4401);

    const outsider = team.outsider;
    const manager = team.manager;
    expect((await manager.request('POST', `/api/projects/${team.projectId}/members`, { username: outsider.user.username, role: 'annotator' })).statusCode).toBe(201);
    const member = await live(outsider);
    expect((await member.next()).type).toBe('hello');
    expect((await manager.request('DELETE', `/api/projects/${team.projectId}/members/${outsider.user.id}`)).statusCode).toBe(204);
    expect(await member.closed).toBe(4403);
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
        const news = await socket.next((m) => m.type === 'rows');
        expect(news).toMatchObject({ type: 'rows', cursor: cursorOf(outcome) });
        expect(news.type === 'rows' && news.changes.map((c) => c.row.text)).toEqual(['from the first process']);
      });

      it('listens again after its database connection is killed, and tells its sockets to catch up', async () => {
        const clipId = await newClip(team);
        const socket = await live(team.reviewer, otherBase);
        expect((await socket.next()).type).toBe('hello');
        const killed = await db().query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN spoc_sync'");
        expect(killed.length).toBeGreaterThanOrEqual(2);
        const [outcome] = await pushOk(team.annotator, team.projectId, [change('comment', commentRow(clipId, team.annotator.user.username, 'while it was away'))]);
        // Either the catch-up after reconnecting ("changed") or the NOTIFY itself (if it was back in time: rows) brings it.
        expect(await socket.next(isNewsTo(cursorOf(outcome)))).toMatchObject({ cursor: expect.any(String) });
        // The catch-up may still be on its way when the NOTIFY of that push came back (a busy machine):
        // then it reads the project's cursor after the next push and says "changed" up to it. Either way
        // the push after that one arrives as rows again.
        const [later] = await pushOk(team.annotator, team.projectId, [change('comment', commentRow(clipId, team.annotator.user.username, 'after it came back'))]);
        expect(await socket.next(isNewsTo(cursorOf(later)))).toMatchObject({ cursor: expect.any(String) });
        const [last] = await pushOk(team.annotator, team.projectId, [change('comment', commentRow(clipId, team.annotator.user.username, 'and once more'))]);
        expect(await socket.next(isNewsTo(cursorOf(last)))).toMatchObject({ type: 'rows', cursor: cursorOf(last) });
      });
    });
  }
});
