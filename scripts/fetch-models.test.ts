/**
 * The model fetcher against a local HTTP server serving fake bytes (no network): full downloads,
 * a truncated download resumed with a Range request, skip when present, a 404, a hash mismatch,
 * --only, --dry-run, and the manifest it writes (checked with the app's own parser).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseManifest } from '../src/inference/models/manifest';
import { CATALOG, fetchModels, parseArgs, selectModels, type CatalogModel } from './fetch-models';

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 255);
const FILES: Record<string, Uint8Array> = {
  '/enc.onnx': bytes(300_000, 1),
  '/dec.onnx': bytes(20_000, 2),
  '/vision.onnx': bytes(50_000, 3),
  '/text.onnx': bytes(40_000, 4),
  '/tokenizer.json': new TextEncoder().encode('{"model":{}}'),
};
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let server: Server;
let base = '';
const requests: { method: string; url: string; range: string | null }[] = [];
/** Paths whose next GET is cut off after this many bytes. */
const truncateOnce = new Map<string, number>();

function handle(req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? '/';
  requests.push({ method: req.method ?? '', url, range: (req.headers.range as string | undefined) ?? null });
  const body = FILES[url];
  if (!body) {
    res.writeHead(404, 'Not Found').end('no such file');
    return;
  }
  if (req.method === 'HEAD') {
    res.writeHead(200, { 'content-length': body.length }).end();
    return;
  }
  let start = 0;
  const m = /^bytes=(\d+)-$/.exec((req.headers.range as string | undefined) ?? '');
  if (m) start = Number(m[1]);
  const slice = body.subarray(start);
  res.writeHead(m ? 206 : 200, { 'content-length': slice.length, ...(m ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}) });
  const cut = truncateOnce.get(url);
  if (cut !== undefined) {
    truncateOnce.delete(url);
    res.write(slice.subarray(0, cut), () => res.destroy());
    return;
  }
  res.end(slice);
}

function catalog(): CatalogModel[] {
  return [
    {
      id: 'test-sam',
      family: 'sam-official',
      label: 'Test SAM',
      source: 'local',
      files: {
        encoder: { url: `${base}/enc.onnx`, path: 'test-sam/encoder.onnx', bytes: FILES['/enc.onnx'].length, sha256: sha(FILES['/enc.onnx']) },
        decoder: { url: `${base}/dec.onnx`, path: 'test-sam/decoder.onnx', bytes: null },
      },
    },
    {
      id: 'test-clip',
      family: 'clip',
      label: 'Test CLIP',
      source: 'local',
      files: {
        vision: { url: `${base}/vision.onnx`, path: 'test-clip/vision.onnx', bytes: null, approxBytes: 50_000 },
        text: { url: `${base}/text.onnx`, path: 'test-clip/text.onnx', bytes: null },
        tokenizer: { url: `${base}/tokenizer.json`, path: 'test-clip/tokenizer.json', bytes: null },
      },
    },
  ];
}

let dir = '';
beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fetch-models-'));
  requests.length = 0;
  truncateOnce.clear();
  return () => rm(dir, { recursive: true, force: true });
});

const gets = () => requests.filter((r) => r.method === 'GET');

describe('fetch-models', () => {
  it('downloads every file, reports progress, and writes a manifest the app parses', async () => {
    const progress: number[] = [];
    const report = await fetchModels({ outDir: dir, catalog: catalog(), onProgress: (p) => p.role === 'encoder' && progress.push(p.loaded) });
    for (const m of catalog()) {
      for (const f of Object.values(m.files)) {
        const served = FILES[new URL(f.url).pathname];
        expect(new Uint8Array(await readFile(join(dir, f.path)))).toEqual(served);
      }
    }
    expect(report.models.flatMap((m) => Object.values(m.files).map((f) => f.outcome))).toEqual(Array(5).fill('downloaded'));
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(300_000);
    const manifest = parseManifest(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')));
    expect(manifest.models.map((m) => [m.id, m.family, m.files])).toEqual([
      ['test-sam', 'sam-official', { encoder: 'test-sam/encoder.onnx', decoder: 'test-sam/decoder.onnx' }],
      ['test-clip', 'clip', { vision: 'test-clip/vision.onnx', text: 'test-clip/text.onnx', tokenizer: 'test-clip/tokenizer.json' }],
    ]);
    // No temporary files are left behind.
    expect((await readdir(join(dir, 'test-sam'))).sort()).toEqual(['decoder.onnx', 'encoder.onnx']);
  });

  it('skips files already present with the right size and hash; fetches again one whose hash is wrong', async () => {
    await fetchModels({ outDir: dir, catalog: catalog(), only: ['test-sam'] });
    requests.length = 0;
    const again = await fetchModels({ outDir: dir, catalog: catalog(), only: ['test-sam'] });
    expect(again.models[0].files.encoder.outcome).toBe('skipped');
    expect(again.models[0].files.decoder.outcome).toBe('skipped');
    expect(gets()).toEqual([]); // the decoder (no known size) was checked with a HEAD only
    // Same size, different bytes: the hash catches it.
    const wrong = FILES['/enc.onnx'].slice();
    wrong[5] ^= 1;
    await writeFile(join(dir, 'test-sam/encoder.onnx'), wrong);
    const fixed = await fetchModels({ outDir: dir, catalog: catalog(), only: ['test-sam'] });
    expect(fixed.models[0].files.encoder.outcome).toBe('downloaded');
    expect(new Uint8Array(await readFile(join(dir, 'test-sam/encoder.onnx')))).toEqual(FILES['/enc.onnx']);
  });

  it('a truncated download fails clearly, leaves no file under the final name, and resumes with a Range request', async () => {
    truncateOnce.set('/enc.onnx', 120_000);
    await expect(fetchModels({ outDir: dir, catalog: catalog(), only: ['test-sam'] })).rejects.toThrow(/enc\.onnx: (download interrupted after|truncated download)/);
    expect(await readdir(join(dir, 'test-sam'))).toEqual(['encoder.onnx.part']);
    await expect(readFile(join(dir, 'manifest.json'))).rejects.toThrow(); // nothing half-done is announced
    requests.length = 0;
    const report = await fetchModels({ outDir: dir, catalog: catalog(), only: ['test-sam'] });
    expect(report.models[0].files.encoder.outcome).toBe('resumed');
    const first = gets().find((r) => r.url === '/enc.onnx')!;
    expect(first.range).toMatch(/^bytes=\d+-$/);
    expect(Number(/\d+/.exec(first.range!)![0])).toBeGreaterThan(0);
    expect(new Uint8Array(await readFile(join(dir, 'test-sam/encoder.onnx')))).toEqual(FILES['/enc.onnx']);
  });

  it('a 404 names the URL and status; a sha256 mismatch removes the partial file', async () => {
    const missing = catalog();
    missing[0].files.decoder.url = `${base}/nope.onnx`;
    await expect(fetchModels({ outDir: dir, catalog: missing, only: ['test-sam'] })).rejects.toThrow(`${base}/nope.onnx: HTTP 404 Not Found`);
    const badHash = catalog();
    badHash[0].files.encoder.sha256 = '0'.repeat(64);
    const fresh = join(dir, 'fresh');
    await expect(fetchModels({ outDir: fresh, catalog: badHash, only: ['sam-official'] })).rejects.toThrow(/enc\.onnx: sha256 mismatch, got [0-9a-f]{64}, expected 0{64}/);
    expect(await readdir(join(fresh, 'test-sam'))).toEqual([]);
  });

  it('keeps manifest entries it does not own and refuses to touch an invalid manifest', async () => {
    const mine = { id: 'my-model', family: 'clip', label: 'mine', files: { vision: 'a/v.onnx', text: 'a/t.onnx', tokenizer: 'a/tok.json' } };
    const stale = { id: 'test-clip', family: 'clip', files: { vision: 'old/v.onnx', text: 'old/t.onnx', tokenizer: 'old/tok.json' } };
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({ version: 1, models: [mine, stale] }));
    await fetchModels({ outDir: dir, catalog: catalog(), only: ['clip'] });
    const m = parseManifest(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')));
    expect(m.models.map((e) => [e.id, e.files.vision])).toEqual([['my-model', 'a/v.onnx'], ['test-clip', 'test-clip/vision.onnx']]);

    await writeFile(join(dir, 'manifest.json'), '{"version": 2}');
    await expect(fetchModels({ outDir: dir, catalog: catalog(), only: ['test-clip'] })).rejects.toThrow(/manifest.json: the existing manifest is invalid \(manifest.version: expected 1/);
    expect(await readFile(join(dir, 'manifest.json'), 'utf8')).toBe('{"version": 2}');
  });

  it('--dry-run lists URLs and sizes without a request; --only and arguments are checked', async () => {
    const lines: string[] = [];
    const report = await fetchModels({ outDir: dir, catalog: catalog(), dryRun: true, log: (l) => lines.push(l) });
    expect(requests).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
    const text = lines.join('\n');
    expect(text).toContain(`${base}/enc.onnx`);
    expect(text).toContain('300.0 KB'); // exact size
    expect(text).toContain('~50.0 KB'); // approximate size
    expect(text).toContain('size unknown');
    expect(report.models.map((m) => m.id)).toEqual(['test-sam', 'test-clip']);

    expect(selectModels(CATALOG, ['clip']).map((m) => m.id)).toEqual(['clip-vit-b32']);
    expect(selectModels(CATALOG, ['sam-official,slimsam-77']).map((m) => m.id)).toEqual(['sam-vit-b-quant', 'slimsam-77']);
    expect(() => selectModels(CATALOG, ['dino'])).toThrow(/unknown "dino"; known ids: sam-vit-b-quant, slimsam-77, clip-vit-b32/);
    expect(parseArgs(['--only', 'clip', '--dry-run'])).toEqual({ only: ['clip'], dryRun: true, out: null, help: false });
    expect(() => parseArgs(['--only'])).toThrow('--only needs a value');
    expect(() => parseArgs(['--force'])).toThrow('unknown argument "--force"');
  });

  it('the real catalog describes valid manifest entries for every family the app reads', () => {
    const json = {
      version: 1,
      models: CATALOG.map((m) => ({ id: m.id, family: m.family, label: m.label, files: Object.fromEntries(Object.entries(m.files).map(([r, f]) => [r, f.path])) })),
    };
    expect(parseManifest(json).models.map((m) => m.family)).toEqual(['sam-official', 'sam-transformersjs', 'clip']);
    for (const m of CATALOG) for (const f of Object.values(m.files)) expect(f.url).toMatch(/^https:\/\//);
  });
});
