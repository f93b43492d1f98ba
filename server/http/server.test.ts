/**
 * The server on a real listening socket: the built app with cross-origin isolation headers and SPA
 * fallback, no way out of dist/, health that tells when the database is down, and a body limit that
 * refuses 100 MB without reading it. On both database backends.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { onBothBackends } from '../testing/backends';
import { rawRequest } from '../testing/rawHttp';
import { testServer } from '../testing/testServer';

const INDEX = '<!doctype html><title>SPOC Studio</title>';
const SECRET = 'secret-next-to-dist';

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let base: string;
  let port: number;
  let root: string;

  beforeAll(async () => {
    // dist/ with a file beside it that must never be served.
    root = await mkdtemp(path.join(os.tmpdir(), 'spoc-serve-'));
    await mkdir(path.join(root, 'dist/assets'), { recursive: true });
    await writeFile(path.join(root, 'dist/index.html'), INDEX);
    await writeFile(path.join(root, 'dist/assets/app.js'), 'console.log(1)');
    await writeFile(path.join(root, 'package.json'), SECRET);
    app = await testServer(ctx.db(), { distDir: path.join(root, 'dist') });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(base).port);
  });
  afterAll(async () => {
    await app.close();
    await rm(root, { recursive: true, force: true });
  });

  it('serves the app with the COOP/COEP headers vite uses, and index.html for app routes', async () => {
    for (const [url, body] of [['/', INDEX], ['/assets/app.js', 'console.log(1)'], ['/review/clip-3', INDEX]]) {
      const res = await fetch(base + url);
      expect([res.status, await res.text()]).toEqual([200, body]);
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(res.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    }
    const api = await fetch(`${base}/api/nothing-here`);
    expect([api.status, await api.json()]).toEqual([404, { error: 'not found' }]);
    expect((await fetch(`${base}/missing.png`)).status).toBe(404);
  });

  // @fastify/static (through `send`) answers 403 to any path with a dot segment once decoded; a
  // double-encoded one is just a file name that does not exist.
  it.each([
    ['/../package.json', 403],
    ['/%2e%2e/package.json', 403],
    ['/..%2fpackage.json', 403],
    ['/%2e%2e%2fpackage.json', 403],
    ['/assets/../../package.json', 403],
    ['/assets/%2e%2e/%2e%2e/package.json', 403],
    ['/..%5cpackage.json', 403],
    ['/assets/..%00/package.json', 403],
    ['/%252e%252e/package.json', 404],
  ])('never serves a file outside dist/ for %s (%i)', async (target, status) => {
    const res = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}`);
    expect(res.status).toBe(status);
    expect(res.body).not.toContain(SECRET);
    expect(JSON.parse(res.body)).toEqual({ error: expect.any(String) });
  });

  it('answers health with the backend', async () => {
    const res = await fetch(`${base}/api/health`);
    expect([res.status, await res.json()]).toEqual([200, { status: 'ok', database: ctx.kind }]);
  });

  it('refuses a body announced as 100 MB with 413 before reading it', async () => {
    const res = await rawRequest(
      port,
      `POST /api/projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}`,
      (() => {
        let left = 16;
        return () => (left-- > 0 ? Buffer.alloc(64 * 1024, 0x20) : null);
      })(),
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ error: expect.stringMatching(/too large/i) });
    expect(res.sentBytes).toBeLessThanOrEqual(1024 * 1024);
  });

  it('stops reading a chunked 100 MB body at the limit with 413', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let chunks = 0;
    const res = await rawRequest(port, `POST /api/projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked`, () =>
      chunks++ < 100 ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : null,
    );
    expect(res.status).toBe(413);
    expect(res.sentBytes).toBeLessThan(100 * 1024 * 1024);
  });

  it('answers 503 on health when the database is down', async () => {
    await ctx.db().close();
    const res = await fetch(`${base}/api/health`);
    expect([res.status, await res.json()]).toEqual([503, { status: 'unavailable', error: 'the database is not answering' }]);
  });
});
