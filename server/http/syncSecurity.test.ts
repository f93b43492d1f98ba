/**
 * Hostile and forbidden pushes, one per row of docs/sync.md "Who may push what" and per kind of
 * malformed request: each refused with an exact status, and sync_rows (and every other table) left
 * exactly as it was. Runs on both database backends.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushChange } from '../../src/sync/protocol';
import { onBothBackends } from '../testing/backends';
import { rawRequest } from '../testing/rawHttp';
import {
  FRAMES,
  change,
  clipRow,
  commentRow,
  eventRow,
  frameRow,
  newClip,
  newTeam,
  projectRow,
  push,
  pushOk,
  revisionRow,
  syncSnapshot,
  verdictRow,
  type Team,
} from '../testing/syncFixtures';
import { ORIGIN, tableCounts, testServer, type Client } from '../testing/testServer';

const INJECTIONS = ["x'; DROP TABLE sync_rows; --", "' OR '1'='1", "'); DELETE FROM project_members; --", '$1', '\\x00', '{"$ne": null}'];

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let team: Team;
  let port: number;
  const db = () => ctx.db();

  beforeAll(async () => {
    app = await testServer(db());
    port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
    team = await newTeam(app, db());
  });
  afterAll(() => app.close());

  /** Every change of the push refused with `code`, and nothing stored. */
  async function refusedRows(client: Client, changes: PushChange[], code: number, error?: RegExp, extra = {}): Promise<void> {
    const before = [await syncSnapshot(db()), await tableCounts(db())];
    const res = await push(client, team.projectId, changes, extra);
    expect(res.statusCode, res.body).toBe(200);
    const outcomes = res.json().outcomes as { status: string; code: number; error: string }[];
    expect(outcomes.map((o) => [o.status, o.code]), res.body).toEqual(changes.map(() => ['refused', code]));
    if (error) expect(outcomes[0].error).toMatch(error);
    expect([await syncSnapshot(db()), await tableCounts(db())]).toEqual(before);
  }

  /** The whole request refused with `status`, and nothing stored. */
  async function refusedRequest(status: number, send: () => Promise<LightMyRequestResponse>): Promise<void> {
    const before = [await syncSnapshot(db()), await tableCounts(db())];
    const res = await send();
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toEqual({ error: expect.any(String) });
    expect([await syncSnapshot(db()), await tableCounts(db())]).toEqual(before);
  }

  /** A clip the annotator painted (frame 0) and submitted, which the first reviewer took into review. */
  async function clipInReview(): Promise<string> {
    const clipId = await newClip(team);
    const ann = team.annotator.user.username;
    await pushOk(team.annotator, team.projectId, [change('revision', revisionRow(clipId, 0, ann)), change('clipEvent', eventRow(clipId, 'submit', 'in_progress', 'submitted', ann))]);
    await pushOk(team.reviewer, team.projectId, [change('clipEvent', eventRow(clipId, 'start_review', 'submitted', 'in_review', team.reviewer.user.username))]);
    return clipId;
  }

  const acceptAll = (clipId: string, by: string) => Array.from({ length: FRAMES }, (_, i) => change('frameVerdict', verdictRow(clipId, i, 'accept', by)));

  describe('who may push what', () => {
    it('refuses an annotator approving (403)', async () => {
      const clipId = await clipInReview();
      await pushOk(team.reviewer2, team.projectId, acceptAll(clipId, team.reviewer2.user.username));
      await refusedRows(team.annotator, [change('clipEvent', eventRow(clipId, 'approve', 'in_review', 'approved', team.annotator.user.username))], 403);
    });

    it('refuses a reviewer approving a clip whose gt they painted (403), and approving without every verdict (409)', async () => {
      const clipId = await clipInReview();
      const rev = team.reviewer.user.username;
      await pushOk(team.reviewer, team.projectId, [change('revision', revisionRow(clipId, 1, rev)), ...acceptAll(clipId, rev)]);
      await refusedRows(team.reviewer, [change('clipEvent', eventRow(clipId, 'approve', 'in_review', 'approved', rev))], 403, /painted this clip and cannot approve their own work/);
      const other = await clipInReview();
      await refusedRows(team.reviewer2, [change('clipEvent', eventRow(other, 'approve', 'in_review', 'approved', team.reviewer2.user.username))], 409, /3 of 3 frames have no verdict/);
    });

    it('refuses a reviewer approving with an override (only managers may, 403)', async () => {
      const clipId = await clipInReview();
      await refusedRows(team.reviewer2, [change('clipEvent', eventRow(clipId, 'approve_override', 'in_review', 'approved', team.reviewer2.user.username, 'urgent'))], 403);
    });

    it('refuses gt painted by anyone but the assignee while the clip is with the annotator (403)', async () => {
      const clipId = await newClip(team);
      for (const painter of [team.reviewer, team.manager]) {
        await refusedRows(painter, [change('revision', revisionRow(clipId, 0, painter.user.username))], 403, /only the clip's assignee may paint its gt/);
      }
    });

    it('refuses painting a submitted or approved clip, even by its assignee (403)', async () => {
      const clipId = await clipInReview();
      await pushOk(team.reviewer2, team.projectId, [...acceptAll(clipId, team.reviewer2.user.username), change('clipEvent', eventRow(clipId, 'approve', 'in_review', 'approved', team.reviewer2.user.username))]);
      await refusedRows(team.annotator, [change('revision', revisionRow(clipId, 2, team.annotator.user.username))], 403, /nobody paints the gt of a clip that is approved/);
      await refusedRows(team.reviewer, [change('revision', revisionRow(clipId, 2, team.reviewer.user.username))], 403);
    });

    it('refuses a step that is not valid from the server status (409)', async () => {
      const clipId = await newClip(team);
      await refusedRows(team.annotator, [change('clipEvent', eventRow(clipId, 'withdraw', 'submitted', 'in_progress', team.annotator.user.username))], 409, /Cannot "Withdraw" a clip that is to do/);
    });

    it('refuses verdicts from annotators and on clips not in review (403)', async () => {
      const clipId = await newClip(team);
      await refusedRows(team.reviewer, [change('frameVerdict', verdictRow(clipId, 0, 'accept', team.reviewer.user.username))], 403, /while the clip is in review/);
      const inReview = await clipInReview();
      await refusedRows(team.annotator, [change('frameVerdict', verdictRow(inReview, 0, 'accept', team.annotator.user.username))], 403);
    });

    it('refuses project rows and new clips or frames from non-managers (403)', async () => {
      const clipId = await newClip(team);
      await refusedRows(team.annotator, [change('project', projectRow(team.projectId, 'mine now'))], 403);
      await refusedRows(team.reviewer, [change('clip', clipRow(team.projectId))], 403);
      const stored = (await db().query<{ body: Record<string, unknown> }>("SELECT body FROM sync_rows WHERE kind = 'clip' AND row_id = $1", [clipId]))[0].body;
      await refusedRows(team.annotator, [change('clip', { ...stored, name: 'renamed' })], 403);
      await refusedRows(team.annotator, [change('frame', frameRow(clipId, 1, { timestampSec: 9 }))], 403);
    });

    it('refuses rows only the server writes (403)', async () => {
      const clipId = await newClip(team);
      const row = { clipId, source: 'gt', frameIndex: 0, revisionIds: [], users: [] };
      await refusedRows(team.manager, [{ kind: 'concurrentEdit', id: `${clipId}/gt/0`, row }], 403);
    });

    it("refuses rows carrying someone else's name (403), and uploads by non-managers (403)", async () => {
      const clipId = await newClip(team);
      const rev = team.reviewer.user.username;
      await refusedRows(team.annotator, [change('revision', revisionRow(clipId, 0, rev))], 403, /not you/);
      await refusedRows(team.annotator, [change('comment', commentRow(clipId, rev, 'framed'))], 403);
      await refusedRows(team.annotator, [change('clipEvent', eventRow(clipId, 'submit', 'todo', 'submitted', team.manager.user.username))], 403);
      await refusedRequest(403, () => push(team.annotator, team.projectId, [change('revision', revisionRow(clipId, 0, rev))], { upload: true }));
    });
  });

  describe('who is asking', () => {
    it('shows non-members nothing (404): push, pull, live', async () => {
      const clipId = await newClip(team);
      await refusedRequest(404, () => push(team.outsider, team.projectId, [change('comment', commentRow(clipId, team.outsider.user.username, 'hi'))]));
      await refusedRequest(404, () => team.outsider.request('GET', `/api/projects/${team.projectId}/sync/pull?after=0`));
    });

    it('refuses a push with no session (401) or without the CSRF token (403)', async () => {
      const clipId = await newClip(team);
      const body = { protocol: 1, clientId: randomUUID(), changes: [change('comment', commentRow(clipId, team.annotator.user.username, 'hi'))] };
      const url = `/api/projects/${team.projectId}/sync/push`;
      await refusedRequest(401, () => app.inject({ method: 'POST', url, headers: { origin: ORIGIN }, payload: body }));
      await refusedRequest(403, () => app.inject({ method: 'POST', url, headers: { origin: ORIGIN, cookie: team.annotator.cookie }, payload: body }));
      await refusedRequest(403, () => team.annotator.request('POST', url, body, { origin: 'https://evil.example' }));
    });

    it("refuses another project's clip pushed into mine (409)", async () => {
      const otherProject = (await team.manager.request('POST', '/api/projects', { name: 'Other' })).json().id;
      const foreign = clipRow(otherProject);
      await pushOk(team.manager, otherProject, [change('clip', foreign)]);
      const foreignId = String(foreign.id);
      await refusedRows(team.manager, [change('frame', frameRow(foreignId, 0))], 409, /no clip/);
      await refusedRows(team.manager, [change('clip', { ...foreign, projectId: team.projectId })], 409, /belongs to another project/);
      await refusedRows(team.manager, [change('clip', foreign)], 400, /projectId must be this project's/);
    });
  });

  describe('malformed pushes', () => {
    it('refuses a bad envelope whole (400): protocol, clientId, unknown fields, too many changes, bad ids', async () => {
      const clipId = await newClip(team);
      const good = change('comment', commentRow(clipId, team.annotator.user.username, 'hi'));
      const url = `/api/projects/${team.projectId}/sync/push`;
      for (const body of [
        { protocol: 2, clientId: randomUUID(), changes: [good] },
        { protocol: '1', clientId: randomUUID(), changes: [good] },
        { protocol: 1, clientId: 'me', changes: [good] },
        { protocol: 1, clientId: randomUUID(), changes: [good], by: 'someone' },
        { protocol: 1, clientId: randomUUID(), changes: [{ ...good, author: 'x' }] },
        { protocol: 1, clientId: randomUUID(), changes: [{ ...good, kind: 'layer' }] },
        { protocol: 1, clientId: randomUUID(), changes: [{ ...good, id: '../../etc' + ' ' }] },
        { protocol: 1, clientId: randomUUID(), changes: Array.from({ length: 501 }, () => good) },
      ]) {
        await refusedRequest(400, () => team.annotator.request('POST', url, body));
      }
    });

    it('refuses a revision with a bad RLE or a box outside the frame (400)', async () => {
      const clipId = await newClip(team);
      const ann = team.annotator.user.username;
      await refusedRows(team.annotator, [change('revision', revisionRow(clipId, 0, ann, { after: { size: [1, 2], counts: '~~~~' } }))], 400);
      await refusedRows(team.annotator, [change('revision', revisionRow(clipId, 0, ann, { after: { size: [1, 2], counts: '05' } }))], 400);
      await refusedRows(team.annotator, [change('revision', revisionRow(clipId, 0, ann, { box: { x: 7, y: 0, w: 2, h: 1 } }))], 400, /not inside the 8x6 frame/);
      await refusedRows(team.annotator, [change('revision', { ...revisionRow(clipId, 0, ann), seq: 4 })], 400);
      await refusedRows(team.annotator, [change('revision', revisionRow(clipId, 0, ann), { base: undefined })], 400);
    });

    it('refuses rows whose id does not name them, or holding what jsonb cannot store (400)', async () => {
      const clipId = await newClip(team);
      const ann = team.annotator.user.username;
      await refusedRows(team.annotator, [{ ...change('comment', commentRow(clipId, ann, 'x')), id: randomUUID() }], 400, /does not name its row/);
      await refusedRows(team.annotator, [change('comment', commentRow(clipId, ann, 'nul \u0000 here'))], 400);
      await refusedRows(team.annotator, [change('comment', commentRow(clipId, ann, 'half \ud800 pair'))], 400);
    });

    it('stores SQL in text fields verbatim, touching nothing else', async () => {
      const clipId = await newClip(team);
      const ann = team.annotator.user.username;
      const comments = INJECTIONS.map((text) => commentRow(clipId, ann, text));
      const before = await tableCounts(db());
      const [{ n }] = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM sync_rows');
      await pushOk(team.annotator, team.projectId, comments.map((c) => change('comment', c)));
      const stored = await db().query<{ body: { text: string } }>("SELECT body FROM sync_rows WHERE kind = 'comment' AND row_id = ANY($1::text[])", [comments.map((c) => c.id)]);
      expect(stored.map((r) => r.body.text).sort()).toEqual([...INJECTIONS].sort());
      expect(await tableCounts(db())).toEqual(before);
      expect((await db().query<{ n: number }>('SELECT count(*)::int AS n FROM sync_rows'))[0].n).toBe(n + INJECTIONS.length);
    });

    it('refuses a push body announced as 100 MB with 413 before reading it', async () => {
      const before = await syncSnapshot(db());
      const res = await rawRequest(
        port,
        `POST /api/projects/${team.projectId}/sync/push HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nCookie: ${team.manager.cookie}\r\nOrigin: http://127.0.0.1:${port}\r\nX-CSRF-Token: ${team.manager.csrfToken}\r\nContent-Length: ${100 * 1024 * 1024}`,
        (() => {
          let left = 16;
          return () => (left-- > 0 ? Buffer.alloc(64 * 1024, 0x20) : null);
        })(),
      );
      expect(res.status).toBe(413);
      expect(res.sentBytes).toBeLessThanOrEqual(1024 * 1024);
      expect(await syncSnapshot(db())).toEqual(before);
    });
  });
});
