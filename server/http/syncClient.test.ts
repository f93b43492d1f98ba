/**
 * The browser's sync client (src/sync/) against the real server, in-process: a manager shares a
 * local project, members open it in their own stores, paint, converge, and see what was refused.
 * Every request goes through the client's fetch transport into the server's routes (serverFetch).
 */
import type { FastifyInstance } from 'fastify';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { decodeLayer, parseLayer } from '../../src/masks/layers';
import type { SpocDb } from '../../src/store/db';
import { applyClipStep } from '../../src/store/clipEvents';
import { commitClipImport } from '../../src/store/importCommit';
import { createProject } from '../../src/store/projects';
import { transition } from '../../src/review/lifecycle';
import type { Clip } from '../../src/store/types';
import { fetchTransport, openServerProject, readLink, shareProject, SyncEngine } from '../../src/sync';
import { gtLayer, importDraft, storePool } from '../../src/testing/storeFixtures';
import { tinyImage } from '../../src/testing/bundleProject';
import { Painter } from '../../src/testing/syncFixtures';
import { onBothBackends } from '../testing/backends';
import { serverFetch } from '../testing/serverFetch';
import { newClient, type Client } from '../testing/testServer';

const pool = storePool();
// `ws` (installed with @fastify/websocket; Node 20 has no global WebSocket): its sockets have onopen/onmessage/onclose as a browser's do.
const WsWebSocket = createRequire(import.meta.url)('ws') as new (url: string, options: { headers: Record<string, string> }) => unknown;

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let manager: Client;
  let annotator: Client;
  let projectId: string;
  let clip: Clip;
  let a: SpocDb;
  const transport = (c: Client) => fetchTransport({ csrfToken: () => c.csrfToken, fetch: serverFetch(app, c) });
  const labels = async (db: SpocDb, k: number) => {
    const l = await db.layers.get([clip.id, 'gt', k]);
    return l ? Array.from(decodeLayer(parseLayer(l)).data) : null;
  };
  const sync = async (db: SpocDb, c: Client, id = projectId) => {
    const engine = new SyncEngine(db, id, transport(c), { events: null });
    await engine.syncNow();
    return engine.status;
  };
  const serverRevisions = async (clipId: string) =>
    (await ctx.db().query<{ row_id: string }>("SELECT row_id FROM sync_rows WHERE kind = 'revision' AND body->>'clipId' = $1", [clipId])).map((r) => r.row_id);

  beforeAll(async () => {
    const { testServer } = await import('../testing/testServer');
    app = await testServer(ctx.db());
    manager = await newClient(app, ctx.db(), 'mgr');
    annotator = await newClient(app, ctx.db(), 'ann');
    // The manager's browser: a project with an imported clip (gt on frame 0, no revisions) and a painted stroke.
    a = await pool.open();
    const project = await createProject(a, { name: 'Kitchen' });
    projectId = project.id;
    const frames = Array.from({ length: 10 }, (_, i) => ({ timestampSec: i, image: new Blob([tinyImage('image/png', i) as BlobPart], { type: 'image/png' }), mime: 'image/png' }));
    clip = await commitClipImport(a, importDraft(project.id, 10, { frames, layers: [gtLayer(0, 5, 0)] }));
    await a.clips.update(clip.id, { assignee: annotator.user.username });
    clip = (await a.clips.get(clip.id))!;
    await new Painter(a, clip, manager.user.username).stroke(1, { x: 0, y: 0, w: 3, h: 2 }, 2);
    const created = await manager.request('POST', '/api/projects', { name: 'Kitchen', id: projectId });
    expect(created.statusCode, created.body).toBe(201);
    await manager.request('POST', `/api/projects/${projectId}/members`, { username: annotator.user.username, role: 'annotator' });
  }, 120_000);
  afterAll(async () => {
    pool.closeAll();
    await app.close();
  });

  it('shares a local project with its history, and a member opens it: same clips, masks and (on demand) images', async () => {
    expect(await shareProject(a, projectId, transport(manager), { server: 'http://localhost', serverProjectId: projectId })).toMatchObject({ state: 'synced' });
    const linkA = (await readLink(a, projectId))!;
    expect([linkA.refusals, linkA.upload]).toEqual([[], false]);
    expect(await serverRevisions(clip.id)).toHaveLength(2); // the stroke and frame 0's import, as a baseline revision

    const b = await pool.open();
    expect(await openServerProject(b, transport(annotator), { server: 'http://localhost', serverProjectId: projectId })).toBe(projectId);
    expect((await b.clips.get(clip.id))!).toMatchObject({ name: clip.name, status: 'todo', assignee: annotator.user.username });
    for (const k of [0, 1, 2]) expect(await labels(b, k)).toEqual(await labels(a, k));
    expect(await b.frameImages.count()).toBe(0);
    expect(await new SyncEngine(b, projectId, transport(annotator), { events: null }).ensureFrameImage(clip.id, 3)).toBe(true);
    const bytes = async (db: SpocDb) => new Uint8Array(await (await db.frameImages.get([clip.id, 3]))!.blob.arrayBuffer());
    expect(await bytes(b)).toEqual(await bytes(a));
    expect((await readLink(b, projectId))!.refusals).toEqual([]);
  });

  it("two browsers of the annotator paint one frame at once: both converge, with both strokes, and the server flags the frame; the manager's copy follows", async () => {
    const b1 = await pool.open();
    const b2 = await pool.open();
    await openServerProject(b1, transport(annotator), { server: 'http://localhost', serverProjectId: projectId });
    await openServerProject(b2, transport(annotator), { server: 'http://localhost', serverProjectId: projectId });
    const name = annotator.user.username;
    const c1 = (await b1.clips.get(clip.id))!;
    await new Painter(b1, c1, name).stroke(2, { x: 0, y: 0, w: 5, h: 6 }, 1);
    await new Painter(b2, c1, name).stroke(2, { x: 3, y: 0, w: 5, h: 6 }, 2);
    expect(await sync(b1, annotator)).toMatchObject({ state: 'synced' });
    expect(await sync(b2, annotator)).toMatchObject({ state: 'synced' });
    expect(await sync(b1, annotator)).toMatchObject({ state: 'synced' });
    await sync(a, manager);
    const l1 = await labels(b1, 2);
    expect(await labels(b2, 2)).toEqual(l1);
    expect(await labels(a, 2)).toEqual(l1);
    // B1's 1s on the left, B2's 2s on the right and over the overlap (pushed later).
    expect(l1!.slice(0, 8)).toEqual([1, 1, 1, 2, 2, 2, 2, 2]);
    expect(Object.keys((await readLink(b1, projectId))!.concurrentEdits)).toEqual([`${clip.id}/gt/2`]);
  });

  it('a browser offline for 500 strokes over 10 frames pushes each exactly once; a stroke on a clip submitted meanwhile is refused and kept', async () => {
    const b3 = await pool.open();
    const b4 = await pool.open();
    await openServerProject(b3, transport(annotator), { server: 'http://localhost', serverProjectId: projectId });
    await openServerProject(b4, transport(annotator), { server: 'http://localhost', serverProjectId: projectId });
    const name = annotator.user.username;
    const c3 = (await b3.clips.get(clip.id))!;
    const before = new Set(await serverRevisions(clip.id));
    const p = new Painter(b3, c3, name);
    let n = 0;
    for (let i = 0; n < 500; i++) if (await p.stroke(i % 10, { x: i % 7, y: (i >> 3) % 5, w: 1 + (i % 2), h: 1 }, i % 3 === 2 ? 0 : (i % 2) + 1)) n++;
    expect(await sync(b3, annotator)).toMatchObject({ state: 'synced' });
    const after = await serverRevisions(clip.id);
    const mine = (await b3.revisions.toArray()).filter((r) => !before.has(r.id)).map((r) => r.id);
    expect(mine).toHaveLength(500);
    expect(after.filter((id) => !before.has(id)).sort()).toEqual(mine.sort());
    expect((await b3.revisions.toArray()).every((r) => r.cursor !== undefined)).toBe(true);

    // B3 submits; B4, not having seen it, paints: the server refuses the stroke, which stays in B4.
    await applyClipStep(b3, clip.id, { action: 'submit', by: name }, (from) => transition(from, 'submit'));
    expect(await sync(b3, annotator)).toMatchObject({ state: 'synced' });
    const c4 = (await b4.clips.get(clip.id))!;
    await new Painter(b4, c4, name).stroke(9, { x: 7, y: 5, w: 1, h: 1 }, 1);
    const late = (await b4.revisions.toArray()).find((r) => r.cursor === undefined)!;
    expect(await sync(b4, annotator)).toMatchObject({ state: 'synced' });
    const refusals = (await readLink(b4, projectId))!.refusals;
    expect(refusals).toMatchObject([{ kind: 'revision', id: late.id, code: 403 }]);
    expect((await b4.revisions.get(late.seq))!.cursor).toBeUndefined();
    expect((await b4.clips.get(clip.id))!.status).toBe('submitted');
    expect(await sync(b4, annotator)).toMatchObject({ state: 'synced' });
    expect((await readLink(b4, projectId))!.refusals).toHaveLength(1); // not resent
  }, 120_000);

  it("a started engine pulls when the server's live socket says the project changed", async () => {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const b5 = await pool.open();
    await openServerProject(b5, transport(annotator), { server: 'http://localhost', serverProjectId: projectId });
    const webSocket = (path: string) => new WsWebSocket(`${base.replace('http', 'ws')}${path}`, { headers: { cookie: annotator.cookie, origin: base } }) as unknown as WebSocket;
    const engine = new SyncEngine(b5, projectId, fetchTransport({ csrfToken: () => annotator.csrfToken, fetch: serverFetch(app, annotator), webSocket }), { events: null });
    const applied: number[] = [];
    engine.onApplied((round) => applied.push(round.applied));
    engine.start();
    try {
      await vi.waitFor(() => expect(engine.status.state).toBe('synced'));
      const { addComment } = await import('../../src/store/comments');
      const comment = await addComment(a, { clipId: clip.id, frameIndex: 0, x: 1, y: 1, author: manager.user.username, text: 'see the rim' });
      await sync(a, manager);
      await vi.waitFor(async () => expect(await b5.comments.get(comment.id)).toMatchObject({ text: 'see the rim' }), { timeout: 10_000 });
      expect(applied.length).toBeGreaterThan(0);

      // A write here shows as pending, is pushed after a moment of quiet, and reaches the manager.
      const seen: string[] = [];
      engine.subscribe((st) => seen.push(st.state));
      const reply = await addComment(b5, { clipId: clip.id, frameIndex: 0, x: 2, y: 2, author: annotator.user.username, text: 'done' });
      expect(engine.status).toMatchObject({ state: 'pending', count: 1 });
      await vi.waitFor(() => expect(seen.at(-1)).toBe('synced'), { timeout: 10_000 });
      await sync(a, manager);
      expect(await a.comments.get(reply.id)).toMatchObject({ text: 'done' });
    } finally {
      engine.stop();
    }
  }, 60_000);
});
