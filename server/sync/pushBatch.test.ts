/**
 * A batch of pushes (push.ts pushBatch: rows read once, written at the end in multi-row inserts,
 * batchRows.ts) gives exactly what the same pushes give one after another, each in its own
 * transaction: the same outcomes, the same stored rows, in the same cursor order. Each scenario runs
 * both ways on fresh ids and the two are compared with ids and cursors replaced by their order of
 * appearance; hand-written expectations then say what that result is. On both databases.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { JsonObject } from '../../src/store/records';
import { SYNC_PROTOCOL_VERSION, compareCursors, concurrentEditRowId, type PushChange, type PushOutcome, type PushResponse } from '../../src/sync/protocol';
import type { Db, Queryable } from '../db/db';
import { onBothBackends } from '../testing/backends';
import { FRAMES, change, clipRow, commentRow, eventRow, frameRow, newClip, newTeam, revisionRow, verdictRow, type Team } from '../testing/syncFixtures';
import { testServer, type Client } from '../testing/testServer';
import { pushBatch, type PushInput } from './push';

interface Scenario {
  /** The clip the scenario works on (made now, or only named: its pushes make it). */
  clip(): Promise<string>;
  pushes(clipId: string): PushInput[];
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let team: Team;
  const db = () => ctx.db();

  beforeAll(async () => {
    app = await testServer(db());
    team = await newTeam(app, db());
  });
  afterAll(() => app.close());

  const input = (client: Client, role: PushInput['role'], clientId: string, changes: PushChange[]): PushInput => ({
    projectId: team.projectId,
    role,
    user: client.user,
    request: { protocol: SYNC_PROTOCOL_VERSION, clientId, changes },
  });
  const ann = () => team.annotator.user.username;

  /** What a run left: its responses and the clip's stored rows, ids and cursors replaced by their order. */
  async function observed(responses: PushResponse[], clipId: string): Promise<unknown> {
    const rows = await db().query<{ cursor: string }>(
      `SELECT kind, row_id, cursor::text AS cursor, client_id::text AS client_id, pushed_by::text AS pushed_by, body FROM sync_rows
       WHERE project_id = $1 AND (row_id = $2 OR body ->> 'clipId' = $2) ORDER BY sync_rows.cursor`,
      [team.projectId, clipId],
    );
    const cursors = [...new Set([...responses.flatMap((r) => [r.cursor, ...r.outcomes.flatMap((o) => (o.status === 'accepted' ? [o.cursor] : []))]), ...rows.map((r) => r.cursor)])].sort(compareCursors);
    const rank = (c: string) => `cursor#${cursors.indexOf(c)}`;
    const plain = {
      responses: responses.map((r) => ({ cursor: rank(r.cursor), outcomes: r.outcomes.map((o) => (o.status === 'accepted' ? { ...o, cursor: rank(o.cursor) } : o)) })),
      rows: rows.map((r) => ({ ...r, cursor: rank(r.cursor) })),
    };
    const ids = new Map<string, string>();
    return JSON.parse(JSON.stringify(plain).replace(UUID, (id) => ids.get(id) ?? (ids.set(id, `id#${ids.size}`), `id#${ids.size - 1}`)));
  }

  /** Runs the scenario one push per transaction, then (on fresh ids) as one batch; both must agree. */
  async function bothWays(scenario: Scenario): Promise<{ responses: PushResponse[]; inputs: PushInput[]; clipId: string }> {
    const aloneClip = await scenario.clip();
    const alone: PushResponse[] = [];
    for (const p of scenario.pushes(aloneClip)) alone.push(...(await pushBatch(db(), team.projectId, [p])));
    const clipId = await scenario.clip();
    const inputs = scenario.pushes(clipId);
    const responses = await pushBatch(db(), team.projectId, inputs);
    expect(await observed(responses, clipId)).toEqual(await observed(alone, aloneClip));
    return { responses, inputs, clipId };
  }

  const statuses = (responses: PushResponse[]) => responses.map((r) => r.outcomes.map((o) => (o.status === 'accepted' ? (o.duplicate ? 'duplicate' : 'accepted') : o.code)));
  const cursorOf = (o: PushOutcome) => (o.status === 'accepted' ? BigInt(o.cursor) : -1n);
  const stored = async (kind: string, rowId: string) =>
    (await db().query<{ body: JsonObject; cursor: string }>('SELECT body, cursor::text AS cursor FROM sync_rows WHERE project_id = $1 AND kind = $2 AND row_id = $3', [team.projectId, kind, rowId]))[0];

  it("judges a push against the rows of the pushes before it in the batch (new clip, its rows, steps, a reply, approval) as one by one", async () => {
    const { responses, clipId } = await bothWays({
      clip: async () => randomUUID(),
      pushes: (clipId) => {
        const [mgr, a, r, r2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
        const rev2 = team.reviewer2.user.username;
        const comment = commentRow(clipId, ann(), 'rim');
        return [
          input(team.manager, 'manager', mgr, [change('clip', clipRow(team.projectId, { id: clipId, assignee: ann() })), ...Array.from({ length: FRAMES }, (_, i) => change('frame', frameRow(clipId, i)))]),
          input(team.annotator, 'annotator', a, [change('revision', revisionRow(clipId, 0, ann())), change('comment', comment)]),
          input(team.annotator, 'annotator', a, [change('clipEvent', eventRow(clipId, 'submit', 'in_progress', 'submitted', ann()))]),
          // A reply to the comment two pushes back; painting a submitted clip is refused.
          input(team.reviewer, 'reviewer', r, [change('comment', commentRow(clipId, team.reviewer.user.username, 'ok', { parentId: comment.id })), change('revision', revisionRow(clipId, 1, team.reviewer.user.username))]),
          input(team.reviewer2, 'reviewer', r2, [change('clipEvent', eventRow(clipId, 'start_review', 'submitted', 'in_review', rev2)), ...Array.from({ length: FRAMES }, (_, i) => change('frameVerdict', verdictRow(clipId, i, 'accept', rev2)))]),
          // The review gate reads the verdicts of the push before (from the table: the batch writes them first).
          input(team.reviewer2, 'reviewer', r2, [change('clipEvent', eventRow(clipId, 'approve', 'in_review', 'approved', rev2))]),
          input(team.annotator, 'annotator', a, [change('revision', revisionRow(clipId, 2, ann()))]),
        ];
      },
    });
    expect(statuses(responses)).toEqual([
      ['accepted', 'accepted', 'accepted', 'accepted'],
      ['accepted', 'accepted'],
      ['accepted'],
      ['accepted', 403],
      ['accepted', 'accepted', 'accepted', 'accepted'],
      ['accepted'],
      [403],
    ]);
    const clip = await stored('clip', clipId);
    expect(clip.body.status).toBe('approved');
    // The approval moved the clip under a cursor of its own, after the step's: the batch's newest row.
    expect(BigInt(clip.cursor)).toBeGreaterThan(cursorOf(responses[5].outcomes[0]));
    expect(responses[5].cursor).toBe(clip.cursor);
    // The refused push answers with the project's newest row: the clip its approval moved.
    expect(responses[6].cursor).toBe(clip.cursor);
  });

  it('answers a resend inside the batch with the first cursors, and refuses a changed log row, as one by one', async () => {
    const { responses } = await bothWays({
      clip: () => newClip(team),
      pushes: (clipId) => {
        const client = randomUUID();
        const rev = revisionRow(clipId, 0, ann());
        const comment = commentRow(clipId, ann(), 'rim');
        const first = [change('revision', rev), change('comment', comment)];
        return [
          input(team.annotator, 'annotator', client, first),
          input(team.annotator, 'annotator', client, first),
          input(team.annotator, 'annotator', client, [change('revision', { ...rev, at: 99 })]),
          input(team.annotator, 'annotator', client, [change('comment', { ...comment, text: 'rim, left' })]),
        ];
      },
    });
    expect(statuses(responses)).toEqual([['accepted', 'accepted'], ['duplicate', 'duplicate'], [409], ['accepted']]);
    expect(responses[1].outcomes.map(cursorOf)).toEqual(responses[0].outcomes.map(cursorOf));
    expect(responses[1].cursor).toBe(responses[0].cursor);
    expect(responses[2].cursor).toBe(responses[0].cursor);
    expect(cursorOf(responses[3].outcomes[0])).toBeGreaterThan(cursorOf(responses[0].outcomes[1]));
  });

  it('stores the rest of the batch around refusals (inside a push and between pushes), as one by one', async () => {
    const { responses, inputs } = await bothWays({
      clip: () => newClip(team),
      pushes: (clipId) => {
        const client = randomUUID();
        return [
          input(team.annotator, 'annotator', client, [change('revision', revisionRow(clipId, 0, ann()))]),
          input(team.annotator, 'annotator', client, [
            change('revision', revisionRow(clipId, 1, ann())),
            change('revision', revisionRow(clipId, 2, 'somebody-else')),
            change('revision', revisionRow(clipId, 99, ann())),
            change('revision', revisionRow(clipId, 2, ann())),
          ]),
          input(team.reviewer, 'reviewer', randomUUID(), [change('revision', revisionRow(clipId, 0, team.reviewer.user.username))]),
          input(team.annotator, 'annotator', client, [change('revision', revisionRow(clipId, 1, ann()))]),
        ];
      },
    });
    expect(statuses(responses)).toEqual([['accepted'], ['accepted', 403, 400, 'accepted'], [403], ['accepted']]);
    const accepted = responses.flatMap((r) => r.outcomes.filter((o) => o.status === 'accepted').map(cursorOf));
    expect(accepted).toEqual([...accepted].sort((a, b) => (a < b ? -1 : 1)));
    const ids = inputs.flatMap((i) => i.request.changes.map((c) => c.id));
    const kept = await db().query<{ row_id: string }>('SELECT row_id FROM sync_rows WHERE project_id = $1 AND row_id = ANY($2::text[]) ORDER BY sync_rows.cursor', [team.projectId, ids]);
    expect(kept.map((r) => r.row_id)).toEqual([ids[0], ids[1], ids[4], ids[6]]);
  });

  it('flags concurrent edits between pushes of one batch, as one by one', async () => {
    const { responses, inputs, clipId } = await bothWays({
      clip: () => newClip(team),
      pushes: (clipId) => {
        // Three browsers of the same annotator, none having seen the others' strokes (base 0).
        const [x, y, z] = [randomUUID(), randomUUID(), randomUUID()];
        const stroke = (client: string, frame: number) => input(team.annotator, 'annotator', client, [change('revision', revisionRow(clipId, frame, ann()))]);
        return [stroke(x, 0), stroke(y, 0), stroke(z, 0), stroke(x, 1), stroke(x, 0)];
      },
    });
    expect(statuses(responses)).toEqual([['accepted'], ['accepted'], ['accepted'], ['accepted'], ['accepted']]);
    const revs = inputs.map((i) => i.request.changes[0].id);
    const flag = await stored('concurrentEdit', concurrentEditRowId(clipId, 'gt', 0));
    expect(flag.body).toEqual({ clipId, source: 'gt', frameIndex: 0, revisionIds: [revs[0], revs[1], revs[2], revs[4]], users: [ann()] });
    // Pushes that raised or widened the flag answer with its cursor (their last row); frame 1 was painted by one browser only.
    expect(BigInt(responses[1].cursor)).toBe(cursorOf(responses[1].outcomes[0]) + 1n);
    expect(responses[3].cursor).toBe(responses[3].outcomes[0].status === 'accepted' ? responses[3].outcomes[0].cursor : null);
    expect(responses[4].cursor).toBe(flag.cursor);
    expect(await stored('concurrentEdit', concurrentEditRowId(clipId, 'gt', 1))).toBeUndefined();
  });

  it('makes as many queries for a batch of 24 pushes as for a batch of 2', async () => {
    const clipId = await newClip(team);
    const counted = (): { db: Db; queries: () => number } => {
      let n = 0;
      const count = (q: Queryable): Queryable => ({ query: (sql, params) => (n++, q.query(sql, params)), exec: (sql) => (n++, q.exec(sql)) });
      const inner = db();
      return { db: { ...inner, transaction: (fn) => inner.transaction((tx) => fn(count(tx))) }, queries: () => n };
    };
    const strokes = (n: number) => Array.from({ length: n }, (_, i) => input(team.annotator, 'annotator', randomUUID(), [change('revision', revisionRow(clipId, i % FRAMES, ann()), { base: '99999999' })]));
    const small = counted();
    await pushBatch(small.db, team.projectId, strokes(2));
    const large = counted();
    const responses = await pushBatch(large.db, team.projectId, strokes(24));
    expect(statuses(responses).flat()).toEqual(Array(24).fill('accepted'));
    expect(large.queries()).toBe(small.queries());
  });
});
