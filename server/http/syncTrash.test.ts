/**
 * Deletions (docs/sync.md "Deletions"): a clip row's `deletedAt` is the team's trash. Managers move
 * clips to it and out of it; annotators and reviewers are refused; a row from a browser that had not
 * yet seen a manager's trash keeps the server's mark; nothing under a trashed clip is deleted. Then
 * the same through the browser client's engines against the real server. Both backends.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../src/store/db';
import { createProject } from '../../src/store/projects';
import { commitClipImport } from '../../src/store/importCommit';
import { listTrashedClips, restoreClip, trashClip } from '../../src/store/trash';
import type { PulledChange } from '../../src/sync/protocol';
import { fetchTransport, openServerProject, readLink, shareProject, SyncEngine } from '../../src/sync';
import { purgeClipsHere } from '../../src/sync/teamTrash';
import { importDraft, storePool } from '../../src/testing/storeFixtures';
import { tinyImage } from '../../src/testing/bundleProject';
import { Painter } from '../../src/testing/syncFixtures';
import { onBothBackends } from '../testing/backends';
import { serverFetch } from '../testing/serverFetch';
import { change, commentRow, newClip, newTeam, push, pushOk, revisionRow, syncSnapshot, type Team } from '../testing/syncFixtures';
import { testServer, type Client } from '../testing/testServer';

const pool = storePool();

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let team: Team;
  const db = () => ctx.db();
  const pullAll = async (client: Client, projectId = team.projectId): Promise<PulledChange[]> => {
    const res = await client.request('GET', `/api/projects/${projectId}/sync/pull?after=0&limit=1000`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().changes;
  };
  const clipOnServer = async (clipId: string) => (await pullAll(team.manager)).find((c) => c.kind === 'clip' && c.id === clipId)!;

  beforeAll(async () => {
    app = await testServer(db());
    team = await newTeam(app, db());
  });
  afterAll(async () => {
    pool.closeAll();
    await app.close();
  });

  describe('the judge', () => {
    it('a manager moves a clip to the trash and restores it; every row under it stays', async () => {
      const clipId = await newClip(team);
      const stored = (await clipOnServer(clipId)).row;
      await pushOk(team.annotator, team.projectId, [change('revision', revisionRow(clipId, 0, team.annotator.user.username))]);
      const rowsBefore = (await pullAll(team.manager)).filter((c) => c.row.clipId === clipId).length;

      await pushOk(team.manager, team.projectId, [change('clip', { ...stored, deletedAt: 1000 })]);
      const trashed = await clipOnServer(clipId);
      expect([trashed.row.deletedAt, trashed.by]).toEqual([1000, team.manager.user.username]);
      expect((await pullAll(team.reviewer)).filter((c) => c.row.clipId === clipId)).toHaveLength(rowsBefore);
      // Work that reaches a trashed clip is still judged as usual, not lost: a comment lands.
      await pushOk(team.reviewer, team.projectId, [change('comment', commentRow(clipId, team.reviewer.user.username, 'why trashed?'))]);

      await pushOk(team.manager, team.projectId, [change('clip', stored)]);
      expect('deletedAt' in (await clipOnServer(clipId)).row).toBe(false);
    });

    it('refuses (403) an annotator or a reviewer moving a clip to the trash or out of it, changing nothing', async () => {
      const clipId = await newClip(team);
      const stored = (await clipOnServer(clipId)).row;
      for (const who of [team.annotator, team.reviewer]) {
        const before = await syncSnapshot(db());
        const res = await push(who, team.projectId, [change('clip', { ...stored, deletedAt: 2000, updatedAt: 99 })]);
        expect(res.json().outcomes).toEqual([{ kind: 'clip', id: clipId, status: 'refused', code: 403, error: 'only a project manager may move a clip to the trash or restore it' }]);
        expect(await syncSnapshot(db())).toEqual(before);
      }
      await pushOk(team.manager, team.projectId, [change('clip', { ...stored, deletedAt: 3000 })]);
      const restore = await push(team.annotator, team.projectId, [change('clip', stored)]);
      expect(restore.json().outcomes[0]).toMatchObject({ status: 'refused', code: 403 });
      expect((await clipOnServer(clipId)).row.deletedAt).toBe(3000);
    });

    it("keeps the server's mark in a row from a browser that had not seen the manager's trash yet", async () => {
      const clipId = await newClip(team);
      const stored = (await clipOnServer(clipId)).row;
      await pushOk(team.manager, team.projectId, [change('clip', { ...stored, deletedAt: 4000 })]);
      // The annotator's browser, still showing the clip, moves it to in progress on a first edit.
      await pushOk(team.annotator, team.projectId, [change('clip', { ...stored, status: 'in_progress', updatedAt: 7 })]);
      expect((await clipOnServer(clipId)).row).toMatchObject({ status: 'in_progress', deletedAt: 4000, updatedAt: 7 });
    });

    it('refuses a malformed mark (400) and still the import marker', async () => {
      const clipId = await newClip(team);
      const stored = (await clipOnServer(clipId)).row;
      const res = await push(team.manager, team.projectId, [change('clip', { ...stored, deletedAt: 'yesterday' }), change('clip', { ...stored, importing: { at: 1 } })]);
      expect(res.json().outcomes.map((o: { code: number }) => o.code)).toEqual([400, 400]);
    });

    it('a new clip may arrive in the trash (a manager sharing a project whose trash holds it)', async () => {
      const clipId = await newClip(team, { deletedAt: 5000 });
      expect((await clipOnServer(clipId)).row.deletedAt).toBe(5000);
    });
  });

  describe('through the browser client', () => {
    it("a manager's trash and restore reach a member's browser; the member's own trash is refused and listed; a purge stays local", async () => {
      const transport = (c: Client) => fetchTransport({ csrfToken: () => c.csrfToken, fetch: serverFetch(app, c) });
      const sync = async (store: SpocDb, c: Client, projectId: string) => {
        const engine = new SyncEngine(store, projectId, transport(c), { events: null });
        await engine.syncNow();
        return engine.status;
      };
      const a = await pool.open();
      const project = await createProject(a, { name: 'Trash' });
      const frames = Array.from({ length: 3 }, (_, i) => ({ timestampSec: i, image: new Blob([tinyImage('image/png', i) as BlobPart], { type: 'image/png' }), mime: 'image/png' }));
      const kept = await commitClipImport(a, importDraft(project.id, 3, { frames, layers: [] }));
      const other = await commitClipImport(a, importDraft(project.id, 3, { frames, layers: [] }));
      await new Painter(a, kept, team.manager.user.username).stroke(1, { x: 0, y: 0, w: 2, h: 2 }, 1);
      expect((await team.manager.request('POST', '/api/projects', { name: 'Trash', id: project.id })).statusCode).toBe(201);
      await team.manager.request('POST', `/api/projects/${project.id}/members`, { username: team.annotator.user.username, role: 'annotator' });
      expect(await shareProject(a, project.id, transport(team.manager), { server: 'http://localhost', serverProjectId: project.id })).toMatchObject({ state: 'synced' });
      const b = await pool.open();
      await openServerProject(b, transport(team.annotator), { server: 'http://localhost', serverProjectId: project.id });
      const serverRows = async () => (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM sync_rows WHERE project_id = $1', [project.id]))[0].n;

      await trashClip(a, kept.id);
      expect(await sync(a, team.manager, project.id)).toMatchObject({ state: 'synced' });
      expect(await sync(b, team.annotator, project.id)).toMatchObject({ state: 'synced' });
      expect((await listTrashedClips(b, project.id)).map((c) => c.id)).toEqual([kept.id]);
      expect(await b.revisions.where('clipId').equals(kept.id).count()).toBe(1);

      // The annotator's browser bypassing the app's check (as an old client would): refused, listed, not on the server.
      await trashClip(b, other.id);
      await sync(b, team.annotator, project.id);
      expect((await readLink(b, project.id))!.refusals).toEqual([expect.objectContaining({ kind: 'clip', id: other.id, code: 403 })]);
      expect('deletedAt' in (await pullAll(team.manager, project.id)).find((c) => c.id === other.id)!.row).toBe(false);

      // Deleting for good in the annotator's browser deletes nothing on the server.
      const before = await serverRows();
      await purgeClipsHere(b, [kept.id]);
      await sync(b, team.annotator, project.id);
      expect([await serverRows(), await b.clips.get(kept.id)]).toEqual([before, undefined]);

      await restoreClip(a, kept.id);
      await sync(a, team.manager, project.id);
      await sync(b, team.annotator, project.id);
      const back = (await b.clips.get(kept.id))!;
      expect(back.deletedAt).toBeUndefined();
      expect(await b.revisions.where('clipId').equals(kept.id).count()).toBe(1);
      expect(await b.frames.where('[clipId+index]').between([kept.id, 0], [kept.id, Infinity]).count()).toBe(3);
    });
  });
});
