/** Frame images by content (docs/sync.md "The protocol": blobs), on both database backends. */
import { createHash } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { onBothBackends } from '../testing/backends';
import { rawRequest } from '../testing/rawHttp';
import { newTeam, type Team } from '../testing/syncFixtures';
import { tableCounts, testServer, type Client } from '../testing/testServer';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really the rest of a png')]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let team: Team;
  let port: number;
  const db = () => ctx.db();
  const url = (id: string, projectId = team.projectId) => `/api/projects/${projectId}/blobs/${id}`;
  const put = (client: Client, id: string, bytes: Buffer, projectId?: string) =>
    client.request('PUT', url(id, projectId), bytes, { 'content-type': 'application/octet-stream' });
  const blobCounts = async () => [await tableCounts(db()), await db().query('SELECT count(*)::int AS blobs, (SELECT count(*)::int FROM project_blobs) AS refs FROM blobs')];

  async function refused(status: number, send: () => Promise<LightMyRequestResponse>): Promise<void> {
    const before = await blobCounts();
    const res = await send();
    expect(res.statusCode, res.body).toBe(status);
    expect(await blobCounts()).toEqual(before);
  }

  beforeAll(async () => {
    app = await testServer(db());
    port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
    team = await newTeam(app, db());
  });
  afterAll(() => app.close());

  it('stores an image under its hash and serves it to members, immutable', async () => {
    const res = await put(team.annotator, sha(PNG), PNG);
    expect([res.statusCode, res.json()]).toEqual([200, { sha256: sha(PNG), size: PNG.length, mime: 'image/png' }]);
    const got = await team.reviewer.request('GET', url(sha(PNG)));
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(PNG)).toBe(true);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    // Sent again: one blob, one reference.
    await put(team.manager, sha(PNG), PNG);
    expect(await db().query('SELECT count(*)::int AS n FROM project_blobs WHERE sha256 = $1', [sha(PNG)])).toEqual([{ n: 1 }]);
  });

  it('serves bytes that are not an image as application/octet-stream, never as a page', async () => {
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    await put(team.annotator, sha(html), html);
    expect((await team.reviewer.request('GET', url(sha(html)))).headers['content-type']).toBe('application/octet-stream');
  });

  it('refuses bytes that do not match the id (400)', async () => {
    await refused(400, () => put(team.annotator, 'b'.repeat(64), PNG));
  });

  it('refuses ids that are not a SHA-256, path traversal included (400)', async () => {
    for (const id of ['..%2F..%2Fetc%2Fpasswd', `..%2F${sha(PNG)}`, 'A'.repeat(64), `${sha(PNG)}x`, encodeURIComponent("' OR 1=1 --")]) {
      await refused(400, () => team.annotator.request('GET', url(id)));
      await refused(400, () => put(team.annotator, id, PNG));
    }
    // A bare dot segment is resolved before routing ("/blobs/.." is "/blobs/"): no blob route answers it.
    await refused(404, () => team.annotator.request('GET', url('..')));
  });

  it('keeps blobs to the projects that hold them (404) and uploads to managers and annotators (403)', async () => {
    const other = (await team.outsider.request('POST', '/api/projects', { name: 'Elsewhere' })).json().id;
    const secret = Buffer.from('another project frame');
    expect((await put(team.outsider, sha(secret), secret, other)).statusCode).toBe(200);
    // Stored on the server, but not referenced by this project: as if it did not exist.
    await refused(404, () => team.manager.request('GET', url(sha(secret))));
    await refused(404, () => team.outsider.request('GET', url(sha(PNG))));
    await refused(404, () => put(team.outsider, sha(PNG), PNG));
    await refused(403, () => put(team.reviewer, sha(secret), secret));
    await refused(401, () => app.inject({ method: 'GET', url: url(sha(PNG)) }));
    await refused(403, () => app.inject({ method: 'PUT', url: url(sha(secret)), headers: { cookie: team.annotator.cookie, 'content-type': 'application/octet-stream' }, payload: secret }));
    await refused(415, () => team.annotator.request('PUT', url(sha(secret)), { bytes: 'json' }));
  });

  it('refuses a blob announced as 100 MB with 413 before reading it', async () => {
    const before = await blobCounts();
    const res = await rawRequest(
      port,
      `PUT ${url(sha(PNG))} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/octet-stream\r\nCookie: ${team.annotator.cookie}\r\nOrigin: http://127.0.0.1:${port}\r\nX-CSRF-Token: ${team.annotator.csrfToken}\r\nContent-Length: ${100 * 1024 * 1024}`,
      (() => {
        let left = 16;
        return () => (left-- > 0 ? Buffer.alloc(64 * 1024, 1) : null);
      })(),
    );
    expect(res.status).toBe(413);
    expect(res.sentBytes).toBeLessThanOrEqual(1024 * 1024);
    expect(await blobCounts()).toEqual(before);
  });
});
