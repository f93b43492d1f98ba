/**
 * Presence across server processes (docs/server.md "Live"): someone with a clip open through one
 * process is listed to the sockets of another, leaves are seen everywhere, and the rows of a process
 * that died (never refreshed again) expire instead of haunting the clip. Two servers on one
 * database: on PostgreSQL each with a connection pool of its own, as two processes have; on PGlite
 * two servers over the one embedded database.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LiveServerMessage } from '../../src/sync/protocol';
import { onBothBackends } from '../testing/backends';
import { openLive, type LiveClient } from '../testing/liveClient';
import { newClip, newTeam, type Team } from '../testing/syncFixtures';
import { testServer, type Client } from '../testing/testServer';
import { PRESENCE_CHANNEL } from '../sync/presence';

type Clips = Extract<LiveServerMessage, { type: 'presence' }>['clips'];
/** A presence message listing exactly these clips. */
const presenceIs = (clips: Clips) => (m: LiveServerMessage) => m.type === 'presence' && JSON.stringify(m.clips) === JSON.stringify(clips);
/** A presence message listing exactly these names on this clip (whatever it says of other clips). */
const clipHas = (clipId: string, names: string[]) => (m: LiveServerMessage) =>
  m.type === 'presence' && JSON.stringify(m.clips[clipId] ?? []) === JSON.stringify(names);

onBothBackends((ctx) => {
  let first: FastifyInstance;
  let second: FastifyInstance;
  let firstBase: string;
  let secondBase: string;
  let team: Team;
  const opened: LiveClient[] = [];
  const other = () => (ctx.kind === 'postgres' ? ctx.connectAgain() : ctx.db());

  const live = async (client: Client, at: string) => {
    const socket = await openLive(`${at.replace('http', 'ws')}/api/projects/${team.projectId}/sync/live`, { cookie: client.cookie, origin: at });
    opened.push(socket);
    expect((await socket.next()).type).toBe('hello');
    return socket;
  };

  beforeAll(async () => {
    first = await testServer(ctx.db());
    second = await testServer(other());
    firstBase = await first.listen({ port: 0, host: '127.0.0.1' });
    secondBase = await second.listen({ port: 0, host: '127.0.0.1' });
    team = await newTeam(first, ctx.db());
  });
  afterAll(async () => {
    for (const s of opened) s.close();
    await first.close();
    await second.close();
  });

  it('lists someone with the clip open through the other process, and forgets them when they leave', async () => {
    const clipId = await newClip(team);
    const [ann, rev] = [team.annotator.user.username, team.reviewer.user.username];
    const a = await live(team.annotator, firstBase);
    const b = await live(team.reviewer, secondBase);
    a.send({ type: 'open', clipId });
    await b.next(presenceIs({ [clipId]: [ann] }));
    b.send({ type: 'open', clipId });
    await a.next(presenceIs({ [clipId]: [ann, rev].sort() }));
    await b.next(presenceIs({ [clipId]: [ann, rev].sort() }));
    // Someone joining later, through either process, is told at once.
    const late = await live(team.manager, firstBase);
    await late.next(presenceIs({ [clipId]: [ann, rev].sort() }));
    a.close();
    await b.next(presenceIs({ [clipId]: [rev] }));
    await late.next(presenceIs({ [clipId]: [rev] }));
    b.send({ type: 'open', clipId: null });
    await late.next(presenceIs({}));
    expect(await ctx.db().query('SELECT username FROM live_presence')).toEqual([]);
  });

  it('expires the rows of a process that died, and tells the sockets still there', async () => {
    const clipId = await newClip(team);
    const rev = team.reviewer.user.username;
    const b = await live(team.reviewer, secondBase);
    b.send({ type: 'open', clipId });
    await b.next(presenceIs({ [clipId]: [rev] }));
    // What a process that died leaves behind: a row that nobody refreshes any more, until it expires.
    await ctx.db().query(
      "INSERT INTO live_presence (instance_id, peer_id, project_id, clip_id, username, expires_at) VALUES (gen_random_uuid(), 1, $1, $2, 'ghost', now() + interval '1 hour')",
      [team.projectId, clipId],
    );
    await ctx.db().notify(PRESENCE_CHANNEL, team.projectId);
    await b.next(presenceIs({ [clipId]: ['ghost', rev] }));
    await ctx.db().query("UPDATE live_presence SET expires_at = now() - interval '1 second' WHERE username = 'ghost'");
    // A process sweeping every 50 ms (the two above sweep every 10 s) notices and tells everyone.
    const sweeper = await testServer(other(), { presence: { heartbeatMs: 50, ttlMs: 30_000 } });
    try {
      await b.next(presenceIs({ [clipId]: [rev] }));
      expect(await ctx.db().query('SELECT username FROM live_presence')).toEqual([{ username: rev }]);
    } finally {
      await sweeper.close();
    }
  });

  it('takes the rows of a process that shuts down away at once', async () => {
    const clipId = await newClip(team);
    const ann = team.annotator.user.username;
    const third = await testServer(other());
    const thirdBase = await third.listen({ port: 0, host: '127.0.0.1' });
    const watcher = await live(team.reviewer, secondBase);
    const a = await live(team.annotator, thirdBase);
    a.send({ type: 'open', clipId });
    await watcher.next(clipHas(clipId, [ann]));
    await third.close();
    await watcher.next(clipHas(clipId, []));
  });
});
