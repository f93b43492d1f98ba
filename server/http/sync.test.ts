/** Push and pull (docs/sync.md "The protocol") over HTTP, on both database backends. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareCursors, type PulledChange } from '../../src/sync/protocol';
import { onBothBackends } from '../testing/backends';
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
import { testServer, type Client } from '../testing/testServer';

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let team: Team;
  const db = () => ctx.db();
  const pull = async (client: Client, after = '0', limit?: number) => {
    const res = await client.request('GET', `/api/projects/${team.projectId}/sync/pull?after=${after}${limit ? `&limit=${limit}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { changes: PulledChange[]; cursor: string; more: boolean };
  };

  beforeAll(async () => {
    app = await testServer(db());
    team = await newTeam(app, db());
  });
  afterAll(() => app.close());

  it('creates a server project under the id the browser chose, once', async () => {
    const id = randomUUID();
    const res = await team.manager.request('POST', '/api/projects', { name: 'Shared', id });
    expect([res.statusCode, res.json().id]).toEqual([201, id]);
    const again = await team.annotator.request('POST', '/api/projects', { name: 'Taken', id });
    expect([again.statusCode, again.json()]).toEqual([409, { error: 'a project with this id exists already' }]);
    expect((await team.manager.request('POST', '/api/projects', { name: 'Upper', id: id.toUpperCase() })).statusCode).toBe(400);
    expect(await db().query('SELECT name FROM projects WHERE id = $1', [id])).toEqual([{ name: 'Shared' }]);
  });

  it('round-trips pushed rows through pull, in cursor order, with who pushed them', async () => {
    const project = projectRow(team.projectId, 'Synced kitchen');
    const clip = clipRow(team.projectId, { assignee: team.annotator.user.username });
    const clipId = String(clip.id);
    const before = (await pull(team.annotator)).cursor;
    const frames = Array.from({ length: FRAMES }, (_, i) => change('frame', frameRow(clipId, i)));
    const outcomes = await pushOk(team.manager, team.projectId, [change('project', project), change('clip', clip), ...frames]);
    const cursors = outcomes.map((o) => (o.status === 'accepted' ? o.cursor : ''));
    expect([...cursors].sort(compareCursors)).toEqual(cursors);
    const rev = revisionRow(clipId, 1, team.annotator.user.username);
    await pushOk(team.annotator, team.projectId, [change('revision', rev)]);

    const pulled = await pull(team.reviewer, before);
    expect(pulled.changes.map((c) => [c.kind, c.id, c.by])).toEqual([
      ['project', team.projectId, team.manager.user.username],
      ['clip', clipId, team.manager.user.username],
      ...frames.map((f) => ['frame', f.id, team.manager.user.username]),
      ['revision', rev.id, team.annotator.user.username],
    ]);
    expect(pulled.changes[0].row).toEqual(project);
    expect(pulled.changes.at(-1)!.row).toEqual(rev);
    expect(pulled.cursor).toBe(pulled.changes.at(-1)!.cursor);
    expect(pulled.more).toBe(false);
    expect(await db().query('SELECT name FROM projects WHERE id = $1', [team.projectId])).toEqual([{ name: 'Synced kitchen' }]);

    // Paged: two at a time, each page continuing where the last stopped.
    const page = await pull(team.reviewer, before, 2);
    expect([page.changes.length, page.more, page.cursor]).toEqual([2, true, page.changes[1].cursor]);
    expect((await pull(team.reviewer, page.cursor, 1000)).changes.map((c) => c.id)).toEqual(pulled.changes.slice(2).map((c) => c.id));
    // Nothing new: the cursor stays.
    expect(await pull(team.reviewer, pulled.cursor)).toEqual({ changes: [], cursor: pulled.cursor, more: false });
  });

  it('accepts a resent batch as duplicates with the old cursors and changes nothing', async () => {
    const clipId = await newClip(team);
    const batch = [change('revision', revisionRow(clipId, 0, team.annotator.user.username)), change('comment', commentRow(clipId, team.annotator.user.username, 'see here'))];
    const first = await pushOk(team.annotator, team.projectId, batch);
    const snapshot = await syncSnapshot(db());
    const again = await pushOk(team.annotator, team.projectId, batch);
    expect(again).toEqual(first.map((o) => ({ ...o, duplicate: true })));
    expect(await syncSnapshot(db())).toEqual(snapshot);
  });

  it('refuses another row under a log id (409), and keeps the first', async () => {
    const clipId = await newClip(team);
    const rev = revisionRow(clipId, 0, team.annotator.user.username);
    await pushOk(team.annotator, team.projectId, [change('revision', rev)]);
    const snapshot = await syncSnapshot(db());
    const res = await push(team.annotator, team.projectId, [change('revision', { ...rev, at: 11 })]);
    expect(res.json().outcomes).toEqual([{ kind: 'revision', id: rev.id, status: 'refused', code: 409, error: expect.stringMatching(/already stored under this id/) }]);
    expect(await syncSnapshot(db())).toEqual(snapshot);
  });

  it('refuses a cursor from the future (400) and a malformed one (400)', async () => {
    const [{ cursor }] = await db().query<{ cursor: string }>("SELECT (last_value + 1000)::text AS cursor FROM sync_cursor");
    for (const after of [cursor, '-1', '01', 'abc', '99999999999999999999']) {
      const res = await team.manager.request('GET', `/api/projects/${team.projectId}/sync/pull?after=${after}`);
      expect(res.statusCode, after).toBe(400);
    }
    expect((await team.manager.request('GET', `/api/projects/${team.projectId}/sync/pull?limit=1001`)).statusCode).toBe(400);
  });

  it('takes a clip through its lifecycle; the clip status follows the accepted steps', async () => {
    const clipId = await newClip(team);
    const ann = team.annotator.user.username;
    const rev = team.reviewer2.user.username;
    await pushOk(team.annotator, team.projectId, [
      change('revision', revisionRow(clipId, 0, ann)),
      change('clipEvent', eventRow(clipId, 'submit', 'in_progress', 'submitted', ann)),
    ]);
    await pushOk(team.reviewer2, team.projectId, [
      change('clipEvent', eventRow(clipId, 'start_review', 'submitted', 'in_review', rev)),
      ...Array.from({ length: FRAMES }, (_, i) => change('frameVerdict', verdictRow(clipId, i, 'accept', rev))),
      change('clipEvent', eventRow(clipId, 'approve', 'in_review', 'approved', rev)),
    ]);
    const clip = (await pull(team.annotator)).changes.filter((c) => c.kind === 'clip' && c.id === clipId);
    expect(clip.map((c) => [c.row.status, c.by])).toEqual([['approved', rev]]);
  });

  it('keeps the status and assignee of a pushed clip row the server owns', async () => {
    const clipId = await newClip(team);
    const stored = (await pull(team.annotator)).changes.find((c) => c.id === clipId)!.row;
    // The annotator's browser moved it to in progress on the first edit (allowed), and tries to reassign and approve it (not).
    await pushOk(team.annotator, team.projectId, [change('clip', { ...stored, status: 'in_progress', updatedAt: 5 })]);
    await pushOk(team.annotator, team.projectId, [change('clip', { ...stored, status: 'approved', assignee: team.reviewer.user.username, updatedAt: 6 })]);
    const row = (await pull(team.annotator)).changes.find((c) => c.id === clipId)!.row;
    expect([row.status, row.assignee, row.updatedAt]).toEqual(['in_progress', team.annotator.user.username, 6]);
    // A new clip starts at todo whatever it says.
    const fresh = clipRow(team.projectId, { status: 'approved' });
    await pushOk(team.manager, team.projectId, [change('clip', fresh)]);
    expect((await pull(team.manager)).changes.find((c) => c.id === fresh.id)!.row.status).toBe('todo');
  });

  it("lets a manager upload a local clip's history under its authors, in the order it was written, and audits it", async () => {
    const clip = clipRow(team.projectId, { assignee: 'ana-local' });
    const clipId = String(clip.id);
    const history = [
      change('clip', clip),
      ...Array.from({ length: FRAMES }, (_, i) => change('frame', frameRow(clipId, i))),
      change('revision', revisionRow(clipId, 0, 'ana-local')),
      change('clipEvent', eventRow(clipId, 'submit', 'in_progress', 'submitted', 'ana-local')),
      change('clipEvent', eventRow(clipId, 'start_review', 'submitted', 'in_review', 'rita-local')),
      ...Array.from({ length: FRAMES }, (_, i) => change('frameVerdict', verdictRow(clipId, i, 'accept', 'rita-local'))),
      change('clipEvent', eventRow(clipId, 'approve', 'in_review', 'approved', 'rita-local')),
    ];
    await pushOk(team.manager, team.projectId, history, { upload: true });
    const pulled = (await pull(team.reviewer)).changes;
    expect(pulled.find((c) => c.id === clipId)!.row.status).toBe('approved');
    expect(pulled.filter((c) => c.kind === 'revision' && c.row.clipId === clipId).map((c) => [c.row.author, c.by])).toEqual([['ana-local', team.manager.user.username]]);
    const audit = (await team.manager.request('GET', `/api/projects/${team.projectId}/audit`)).json().entries;
    expect(audit[0]).toEqual(expect.objectContaining({ action: 'sync.upload', username: team.manager.user.username, details: expect.objectContaining({ accepted: history.length, refused: 0 }) }));
    // Even an upload cannot approve before the verdicts are in: the rules of when still hold.
    const early = clipRow(team.projectId);
    const earlyId = String(early.id);
    const res = await push(team.manager, team.projectId, [change('clip', early), change('clipEvent', eventRow(earlyId, 'approve', 'in_review', 'approved', 'rita-local'))], { upload: true });
    expect(res.json().outcomes.map((o: { status: string; code?: number }) => [o.status, o.code])).toEqual([['accepted', undefined], ['refused', 409]]);
  });

  describe('concurrent edits', () => {
    it('flags a frame two clients painted without seeing each other, keeping both revisions', async () => {
      const clipId = await newClip(team);
      const ann = team.annotator.user.username;
      // The same person in two browsers (two client ids), both starting from the same state.
      const [{ cursor: base }] = await db().query<{ cursor: string }>('SELECT max(cursor)::text AS cursor FROM sync_rows WHERE project_id = $1', [team.projectId]);
      const first = revisionRow(clipId, 2, ann);
      const second = revisionRow(clipId, 2, ann, { at: 12 });
      await pushOk(team.annotator, team.projectId, [change('revision', first, { base })]);
      const res = await team.annotator.request('POST', `/api/projects/${team.projectId}/sync/push`, { protocol: 1, clientId: randomUUID(), changes: [change('revision', second, { base })] });
      expect(res.json().outcomes).toEqual([expect.objectContaining({ status: 'accepted' })]);
      const flags = (await pull(team.reviewer)).changes.filter((c) => c.kind === 'concurrentEdit');
      expect(flags.map((f) => [f.id, f.row])).toEqual([[`${clipId}/gt/2`, { clipId, source: 'gt', frameIndex: 2, revisionIds: [first.id, second.id], users: [ann] }]]);
      // The same client's next revision, made after seeing both, is no conflict.
      const seen = (await pull(team.reviewer)).cursor;
      await pushOk(team.annotator, team.projectId, [change('revision', revisionRow(clipId, 2, ann, { at: 13 }), { base: seen })]);
      expect((await pull(team.reviewer, seen)).changes.map((c) => c.kind)).toEqual(['revision']);
    });
  });
});
