/**
 * Group commit (pushQueue.ts) on both databases: pushes that arrive while a project's transaction
 * runs share the next one, each answered as if it had been alone, with one NOTIFY for all; a push
 * that fails does not take the others down with it.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SYNC_PROTOCOL_VERSION, type PushChange, type PushResponse } from '../../src/sync/protocol';
import { onBothBackends } from '../testing/backends';
import { change, commentRow, newClip, newTeam, revisionRow, type Team } from '../testing/syncFixtures';
import { testServer, type Client } from '../testing/testServer';
import type { PushInput } from './push';
import { PushQueue } from './pushQueue';
import { SYNC_CHANNEL, parseChangedPayload } from './push';

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let team: Team;
  const db = () => ctx.db();

  beforeAll(async () => {
    app = await testServer(db());
    team = await newTeam(app, db());
  });
  afterAll(() => app.close());

  const input = (client: Client, role: PushInput['role'], changes: PushChange[]): PushInput => ({
    projectId: team.projectId,
    role,
    user: client.user,
    request: { protocol: SYNC_PROTOCOL_VERSION, clientId: randomUUID(), changes },
  });

  it('gathers pushes that arrive during a transaction into the next, answers each as if alone, and tells listeners once per transaction', async () => {
    const clipId = await newClip(team);
    const notes: string[] = [];
    const stop = await db().listen(SYNC_CHANNEL, (payload) => notes.push(payload));
    try {
      const queue = new PushQueue(db());
      const shared = revisionRow(clipId, 0, team.annotator.user.username);
      const pushes = [
        input(team.annotator, 'annotator', [change('revision', revisionRow(clipId, 0, team.annotator.user.username))]),
        input(team.annotator, 'annotator', [change('revision', shared)]),
        input(team.reviewer, 'reviewer', [change('comment', commentRow(clipId, team.reviewer.user.username, 'rim'))]),
        // Sees the push two before it in the same transaction: the same id with other content is refused.
        input(team.annotator, 'annotator', [change('revision', { ...shared, at: 99 })]),
        // Not allowed to paint: refused, an outcome like any other.
        input(team.reviewer, 'reviewer', [change('revision', revisionRow(clipId, 1, team.reviewer.user.username))]),
      ];
      const timings = pushes.map(() => ({ queuedMs: -1, batchMs: -1, batchPushes: 0 }));
      const responses: PushResponse[] = await Promise.all(pushes.map((p, i) => queue.push(p, timings[i])));
      // The first went at once; the four that came while it ran, together (and their timings say so).
      expect(queue.batches).toBe(2);
      expect(timings.map((t) => t.batchPushes)).toEqual([1, 4, 4, 4, 4]);
      expect(timings.every((t) => t.queuedMs >= 0 && t.batchMs >= 0)).toBe(true);
      expect(responses.map((r) => r.outcomes.map((o) => (o.status === 'accepted' ? 'accepted' : o.code)))).toEqual([['accepted'], ['accepted'], ['accepted'], [409], [403]]);
      const cursors = responses.slice(0, 3).map((r) => BigInt(r.cursor));
      expect(cursors[1]).toBeGreaterThan(cursors[0]);
      expect(cursors[2]).toBeGreaterThan(cursors[1]);
      await expect.poll(() => notes.length).toBe(2);
      const second = parseChangedPayload(notes[1])!;
      // One NOTIFY covering exactly the rows the gathered pushes wrote (from the second push's
      // revision to the comment; the revision, concurrent with the first push's, also got its flag row).
      const firstRow = responses[1].outcomes[0];
      expect([BigInt(second.after!) + 1n, BigInt(second.cursor)]).toEqual([BigInt(firstRow.status === 'accepted' ? firstRow.cursor : -1), cursors[2]]);
    } finally {
      await stop();
    }
  });

  it("runs each push of a failed transaction again on its own, so only the push at fault fails", async () => {
    const clipId = await newClip(team);
    const queue = new PushQueue(db());
    const good = [0, 1].map(() => input(team.annotator, 'annotator', [change('revision', revisionRow(clipId, 0, team.annotator.user.username))]));
    // Its user is no user: storing its row breaks a foreign key, an error that is no refusal.
    const ghost = { ...input(team.annotator, 'annotator', [change('comment', commentRow(clipId, team.annotator.user.username, 'from nobody'))]), user: { id: randomUUID(), username: team.annotator.user.username } };
    const first = queue.push(input(team.annotator, 'annotator', [change('revision', revisionRow(clipId, 2, team.annotator.user.username))]));
    const results = await Promise.allSettled([queue.push(good[0]), queue.push(ghost), queue.push(good[1])]);
    await first;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const ids = [...good.map((g) => g.request.changes[0].id)];
    const stored = await db().query<{ row_id: string }>('SELECT row_id FROM sync_rows WHERE project_id = $1 AND row_id = ANY($2::text[])', [team.projectId, [...ids, ghost.request.changes[0].id]]);
    expect(stored.map((r) => r.row_id).sort()).toEqual(ids.sort());
  });
});
