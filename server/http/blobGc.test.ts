/**
 * Garbage collection of frame images (server/sync/blobGc.ts, spoc-studio blobs gc), on both database
 * backends: images uploaded and pushed through the real routes, time moved by backdating put_at
 * (the only clock the sweep reads). What must survive: every image a frame shows (trashed clips
 * too), an upload whose push is still on its way, an image another project still shows.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { collectBlobGarbage, DEFAULT_BLOB_GRACE_MS } from '../sync/blobGc';
import { onBothBackends } from '../testing/backends';
import { FRAMES, change, clipRow, frameRow, newClip, newTeam, push, pushOk, type Team } from '../testing/syncFixtures';
import { newClient, testServer, type Client } from '../testing/testServer';

let seed = 0;
/** Distinct PNG-looking bytes (the server sniffs the type from the signature). */
function image(): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(`frame ${++seed} ${process.pid} ${Math.random()}`)]);
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const ref = (b: Buffer) => ({ sha256: sha(b), mime: 'image/png', width: 8, height: 6, size: b.length });

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let team: Team;
  const db = () => ctx.db();
  const put = async (client: Client, bytes: Buffer, projectId = team.projectId) => {
    const res = await client.request('PUT', `/api/projects/${projectId}/blobs/${sha(bytes)}`, bytes, { 'content-type': 'application/octet-stream' });
    expect(res.statusCode, res.body).toBe(200);
  };
  const readable = async (client: Client, bytes: Buffer, projectId = team.projectId) =>
    (await client.request('GET', `/api/projects/${projectId}/blobs/${sha(bytes)}`)).statusCode === 200;
  const stored = async (bytes: Buffer) => (await db().query('SELECT 1 FROM blobs WHERE sha256 = $1', [sha(bytes)])).length === 1;
  /** As if everything was uploaded two days ago. */
  const age = async () => {
    await db().query("UPDATE blobs SET put_at = now() - interval '2 days'");
    await db().query("UPDATE project_blobs SET put_at = now() - interval '2 days'");
  };
  const gc = (dryRun = false) => collectBlobGarbage(db(), { graceMs: DEFAULT_BLOB_GRACE_MS, dryRun });
  /** A clip whose every frame shows `bytes`, uploaded first as the browser does. */
  const clipShowing = async (bytes: Buffer, projectId = team.projectId, manager = team.manager) => {
    await put(manager, bytes, projectId);
    const clip = clipRow(projectId);
    const id = String(clip.id);
    await pushOk(manager, projectId, [change('clip', clip), ...Array.from({ length: FRAMES }, (_, i) => change('frame', frameRow(id, i, { image: ref(bytes) })))]);
    return { clip, id };
  };

  beforeAll(async () => {
    app = await testServer(db());
    team = await newTeam(app, db());
  });
  afterAll(() => app.close());
  // Each test starts from a collected store: what earlier tests left unshown is gone.
  beforeEach(async () => {
    await age();
    await gc();
  });

  it('keeps every image a frame shows, however old, and an upload whose push has not come yet', async () => {
    const shown = image();
    await clipShowing(shown);
    await age();
    const inFlight = image();
    await put(team.manager, inFlight);
    expect(await gc()).toEqual({ references: 0, blobs: 0, bytes: 0, dryRun: false });
    expect([await readable(team.annotator, shown), await readable(team.manager, inFlight)]).toEqual([true, true]);
  });

  it("drops a project's reference once no frame shows the image, then the image no project references", async () => {
    const before = image();
    const after = image();
    const { id } = await clipShowing(before);
    await put(team.manager, after);
    await pushOk(team.manager, team.projectId, Array.from({ length: FRAMES }, (_, i) => change('frame', frameRow(id, i, { image: ref(after) }))));
    await age();
    expect(await gc(true)).toEqual({ references: 1, blobs: 1, bytes: before.length, dryRun: true });
    expect(await readable(team.manager, before)).toBe(true); // a dry run deletes nothing
    expect(await gc()).toEqual({ references: 1, blobs: 1, bytes: before.length, dryRun: false });
    expect([await readable(team.manager, before), await stored(before), await readable(team.manager, after)]).toEqual([false, false, true]);
  });

  it('an image uploaded again restarts its grace period', async () => {
    const orphan = image();
    await put(team.manager, orphan);
    await age();
    await put(team.annotator, orphan); // the push that names it is on its way
    expect(await gc()).toMatchObject({ references: 0, blobs: 0 });
    expect(await readable(team.manager, orphan)).toBe(true);
  });

  it('keeps the images of a clip in the trash', async () => {
    const bytes = image();
    const { clip } = await clipShowing(bytes);
    await pushOk(team.manager, team.projectId, [change('clip', { ...clip, deletedAt: 1 })]);
    await age();
    expect(await gc()).toMatchObject({ references: 0, blobs: 0 });
    expect(await readable(team.reviewer, bytes)).toBe(true);
  });

  it("keeps an image another project still shows, and deletes a deleted project's images", async () => {
    const other = await newClient(app, db(), 'mgr2');
    const projectB = (await other.request('POST', '/api/projects', { name: 'B' })).json().id as string;
    const projectC = (await other.request('POST', '/api/projects', { name: 'C' })).json().id as string;
    const both = image();
    const onlyC = image();
    await clipShowing(both);
    await put(other, both, projectB); // uploaded to B, never shown there
    await clipShowing(onlyC, projectC, other);
    await db().query('DELETE FROM projects WHERE id = $1', [projectC]); // its references go with it
    await age();
    expect(await gc()).toEqual({ references: 1, blobs: 1, bytes: onlyC.length, dryRun: false });
    expect([await readable(team.manager, both), await readable(other, both, projectB), await stored(onlyC)]).toEqual([true, false, false]);
  });

  if (ctx.kind === 'postgres') {
    it('an upload racing a sweep from another process always ends stored and readable', async () => {
      const sweeper = ctx.connectAgain();
      for (let i = 0; i < 15; i++) {
        const bytes = image();
        await put(team.manager, bytes);
        await age();
        // Either order, or interleaved: the sweep deletes first and the upload stores anew, or the upload moves put_at first.
        await Promise.all([collectBlobGarbage(sweeper, { graceMs: DEFAULT_BLOB_GRACE_MS }), put(team.annotator, bytes)]);
        expect([await stored(bytes), await readable(team.reviewer, bytes)]).toEqual([true, true]);
      }
    });
  }

  it('refuses (409) a frame changing to an image its project does not hold, so nothing can point at a collected one', async () => {
    const first = image();
    const { id } = await clipShowing(first);
    const gone = image();
    await put(team.manager, gone);
    await age();
    await gc();
    expect(await stored(gone)).toBe(false);
    const res = await push(team.manager, team.projectId, [change('frame', frameRow(id, 0, { image: ref(gone) }))]);
    expect(res.json().outcomes[0]).toMatchObject({ status: 'refused', code: 409, error: `the frame's new image ${sha(gone)} is not on the server: upload its bytes first` });
    await put(team.manager, gone);
    await pushOk(team.manager, team.projectId, [change('frame', frameRow(id, 0, { image: ref(gone) }))]);
    // A new frame may still come before its bytes (docs/sync.md "The protocol").
    await newClip(team);
  });
});
