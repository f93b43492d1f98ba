/**
 * First open of a 300-frame clip from the team server: `npm run bench server-first-open`.
 *
 * A real `spoc-studio serve` (embedded PGlite; and PostgreSQL when SPOC_TEST_PG_URL or DATABASE_URL
 * is set) serving a production build, holding one project: a 300-frame 1280x720 clip (real JPEG
 * frames, ~100 KB each, made by Chromium's encoder), 240 gt stroke revisions (4 on one object in each of 60 frames), assigned
 * to `ann`. Each run is a fresh Chromium context (empty IndexedDB, empty HTTP cache): ann signs in,
 * clicks "Open" on the project under "On the server", then on the clip's card, and the clock stops
 * when the editor shows frame 0 with its picture drawn (the canvas's `data-frame="0"` and
 * `data-image="shown"`, set right after the picture is handed to the view). Times are the page's
 * own clock (performance.now), from the "Open" click.
 *
 * Printed per setup: total p50 / max, and its parts: rows (click "Open" to the clip card shown:
 * the pull and the project page), editor (click the card to the first frame drawn; of which the
 * first picture's request), and the rest of the clip's pictures (until all 300 are stored in the
 * browser, or how many are after a wait). Prints figures only.
 * Also printed: the page's main-thread task time over the same span (Chromium's TaskDuration),
 * which moves far less than wall time when other processes load the machine.
 *
 * SPOC_FIRST_OPEN_DIST: use this build instead of building one, or several, comma-separated, to
 * A/B them: each gets its own server with the same project, and their runs alternate, so both see
 * the same machine load. FIRST_OPEN_RUNS: runs per setup and build.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { chromium, type Browser } from '@playwright/test';
import { build } from 'vite';
import { createAccount, createApiToken } from '../server/auth/accounts';
import type { Db } from '../server/db/db';
import { migrate } from '../server/db/migrate';
import { openPgDb } from '../server/db/pgDb';
import { openPgliteDb } from '../server/db/pgliteDb';
import { DEFAULT_PROJECT_SETTINGS } from '../src/store/projects';
import { startServe, stopServe, type ServeProcess } from './sync/serveProcess';
import { HEIGHT, WIDTH, emptyMap, strokeRevision } from './sync/strokes';
import type { LabelMap } from '../src/masks/labelMap';

const FRAMES = 300;
const PAINTED_FRAMES = 60;
const STROKES_PER_FRAME = 4;
const RUNS = Number(process.env.FIRST_OPEN_RUNS ?? 5);
const PASSWORD = 'bench password 123';
const FAST_SCRYPT = { N: 1024, r: 8, p: 1 };

/** 300 distinct video-like frames (gradients, moving shapes, grain), JPEG-encoded by Chromium at quality 0.85. */
async function makeFrames(browser: Browser): Promise<Buffer[]> {
  const page = await browser.newPage();
  const out: Buffer[] = [];
  for (let from = 0; from < FRAMES; from += 25) {
    const batch = await page.evaluate(
      async ({ from, to, w, h }) => {
        const canvas = new OffscreenCanvas(w, h);
        const g = canvas.getContext('2d')!;
        const res: string[] = [];
        for (let k = from; k < to; k++) {
          const grad = g.createLinearGradient(0, 0, w, h);
          grad.addColorStop(0, `hsl(${(k * 0.7) % 360} 40% 35%)`);
          grad.addColorStop(1, `hsl(${(k * 0.7 + 120) % 360} 35% 60%)`);
          g.fillStyle = grad;
          g.fillRect(0, 0, w, h);
          for (let i = 0; i < 40; i++) {
            g.fillStyle = `hsl(${(i * 37) % 360} 50% ${30 + (i % 5) * 10}%)`;
            g.beginPath();
            g.ellipse((i * 97 + k * 3) % w, (i * 53 + k * 2) % h, 20 + (i % 7) * 12, 15 + (i % 5) * 10, i, 0, Math.PI * 2);
            g.fill();
          }
          // Sensor grain, so the JPEG costs what a camera frame does.
          const img = g.getImageData(0, 0, w, h);
          let s = k + 1;
          for (let p = 0; p < img.data.length; p += 4) {
            s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
            const n = (s >>> 28) - 8;
            img.data[p] += n;
            img.data[p + 1] += n;
            img.data[p + 2] += n;
          }
          g.putImageData(img, 0, 0);
          const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
          const bytes = new Uint8Array(await blob.arrayBuffer());
          let bin = '';
          for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          res.push(btoa(bin));
        }
        return res;
      },
      { from, to: Math.min(FRAMES, from + 25), w: WIDTH, h: HEIGHT },
    );
    out.push(...batch.map((b) => Buffer.from(b, 'base64')));
  }
  await page.close();
  return out;
}

interface Tokens {
  manager: string;
  ann: string;
}

async function makeUsers(db: Db): Promise<Tokens> {
  await migrate(db);
  await createAccount(db, 'bench-manager', PASSWORD, FAST_SCRYPT);
  await createAccount(db, 'ann', PASSWORD, FAST_SCRYPT);
  return { manager: await createApiToken(db, 'bench-manager'), ann: await createApiToken(db, 'ann') };
}

async function api(base: string, token: string, method: string, path: string, body?: unknown, raw?: Buffer): Promise<unknown> {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': raw ? 'application/octet-stream' : 'application/json' },
    body: raw ? new Uint8Array(raw) : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function push(base: string, token: string, projectId: string, changes: unknown[]): Promise<void> {
  for (let i = 0; i < changes.length; i += 100) {
    const res = (await api(base, token, 'POST', `/projects/${projectId}/sync/push`, { protocol: 1, clientId: crypto.randomUUID(), changes: changes.slice(i, i + 100) })) as { outcomes: { status: string; error?: string }[] };
    const refused = res.outcomes.find((o) => o.status !== 'accepted');
    if (refused) throw new Error(`refused: ${refused.error}`);
  }
}

/** The project as a manager shares it: project, clip (assigned to ann), frames and their pictures; then ann's strokes. */
async function makeProject(base: string, tokens: Tokens, frames: Buffer[]): Promise<void> {
  const projectId = crypto.randomUUID();
  const clipId = crypto.randomUUID();
  const now = Date.now();
  await api(base, tokens.manager, 'POST', '/projects', { name: 'first open bench', id: projectId });
  await api(base, tokens.manager, 'POST', `/projects/${projectId}/members`, { username: 'ann', role: 'annotator' });
  for (const bytes of frames) await api(base, tokens.manager, 'PUT', `/projects/${projectId}/blobs/${createHash('sha256').update(bytes).digest('hex')}`, undefined, bytes);
  const project = { id: projectId, name: 'first open bench', createdAt: now, updatedAt: now, settings: DEFAULT_PROJECT_SETTINGS };
  const clip = {
    id: clipId,
    projectId,
    name: 'kitchen 300',
    createdAt: now,
    updatedAt: now,
    width: WIDTH,
    height: HEIGHT,
    frameCount: FRAMES,
    sampleFps: 10,
    source: { kind: 'video', fileName: 'kitchen.mp4', durationSec: FRAMES / 10 },
    osc: { verb: 'peel', noun: 'banana', actionable: 'unpeeled banana', transformed: 'peeled banana' },
    subset: 'seen',
    status: 'todo',
    assignee: 'ann',
  };
  const frameRows = frames.map((bytes, index) => ({
    kind: 'frame',
    id: `${clipId}/${index}`,
    row: { clipId, index, timestampSec: index / 10, image: { sha256: createHash('sha256').update(bytes).digest('hex'), mime: 'image/jpeg', width: WIDTH, height: HEIGHT, size: bytes.length } },
  }));
  await push(base, tokens.manager, projectId, [{ kind: 'project', id: projectId, row: project }, { kind: 'clip', id: clipId, row: clip }, ...frameRows]);
  let seed = 7;
  const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const revisions = [];
  for (let f = 0; f < PAINTED_FRAMES; f++) {
    const map = emptyMap();
    for (let s = 0; s < STROKES_PER_FRAME; s++) {
      const id = crypto.randomUUID();
      revisions.push({ kind: 'revision', id, base: '0', row: { id, clipId, frameIndex: f * 5, source: 'gt', author: 'ann', at: now + revisions.length, ...objectStroke(map, random, f) } });
    }
  }
  await push(base, tokens.ann, projectId, revisions);
}

/**
 * A stroke on the frame's one object, as people paint: strokeRevision starts its stroke at
 * (40 + r0 * (W - 80), 40 + r1 * (H - 80)) from its first two draws, so those are kept within a
 * 300 x 250 px area that drifts across the clip (the object moving), the rest left random.
 */
function objectStroke(map: LabelMap, random: () => number, frame: number): Record<string, unknown> {
  const cx = (300 + frame * 8) / (WIDTH - 80);
  const cy = 200 / (HEIGHT - 80);
  let call = 0;
  return strokeRevision(map, () => {
    const r = random();
    call++;
    return call === 1 ? cx + (r * 300) / (WIDTH - 80) : call === 2 ? cy + (r * 250) / (HEIGHT - 80) : r;
  });
}

interface Run {
  /** Main-thread task time from the Open click to the first frame drawn (ms). */
  busy: number;
  rows: number;
  editor: number;
  firstImage: number;
  total: number;
  /** ms from the first frame drawn until every picture of the clip is stored here; null if not within the wait. */
  rest: number | null;
  storedAfterWait: number;
}

/** Counts the clip's stored pictures (IndexedDB `frameImages`). */
const STORED_IMAGES = () =>
  new Promise<number>((ok, fail) => {
    const open = indexedDB.open('spoc-studio');
    open.onerror = () => fail(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction('frameImages', 'readonly');
      const count = tx.objectStore('frameImages').count();
      count.onsuccess = () => {
        open.result.close();
        ok(count.result);
      };
      count.onerror = () => fail(count.error);
    };
  });

async function oneRun(browser: Browser, url: string): Promise<Run> {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  // (The /api/me probe before signing in answers 401: expected.)
  page.on('console', (m) => m.type() === 'error' && !m.text().includes('401') && console.error(`  page: ${m.text()}`));
  // The page's clock at each click (capture phase: before the app's handlers run).
  await page.addInitScript(() => {
    const w = window as unknown as { __clicks: Record<string, number> };
    w.__clicks = {};
    document.addEventListener('click', (e) => {
      const el = e.target as Element;
      if (el.closest?.('[data-testid="server-project-row"] button')) w.__clicks.open = performance.now();
      else if (el.closest?.('[data-testid="clip-card"]')) w.__clicks.card = performance.now();
    }, true);
  });
  let firstImageMs = NaN;
  page.on('requestfinished', (req) => {
    if (!/\/blobs\//.test(req.url()) || !Number.isNaN(firstImageMs)) return;
    const t = req.timing();
    firstImageMs = t.responseEnd;
  });
  try {
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Username').fill('ann');
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    const open = page.getByTestId('server-project-row').getByRole('button', { name: 'Open' });
    await open.waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const taskMs = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
    const busy0 = await taskMs();
    await open.click();
    const rowsAt = (await (
      await page.waitForFunction(() => (document.querySelector('[data-testid="clip-card"]') ? performance.now() : 0), null, { polling: 'raf', timeout: 60_000 }).catch(async (err: unknown) => {
        throw new Error(`no clip card; the page says: ${(await page.locator('body').innerText()).slice(0, 600)}`, { cause: err });
      })
    ).jsonValue()) as number;
    await page.getByTestId('clip-card').click();
    const drawnAt = (await (
      await page.waitForFunction(
        () => {
          const el = document.querySelector('[data-testid="editor-canvas"]') as HTMLElement | null;
          return el?.dataset.frame === '0' && el.dataset.image === 'shown' ? performance.now() : 0;
        },
        null,
        { polling: 'raf', timeout: 120_000 },
      )
    ).jsonValue()) as number;
    const busy = (await taskMs()) - busy0;
    const clicks = await page.evaluate(() => (window as unknown as { __clicks: Record<string, number> }).__clicks);
    // The rest of the clip's pictures: stored in the background, or only when shown.
    let rest: number | null = null;
    let stored = 0;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      stored = await page.evaluate(STORED_IMAGES);
      if (stored >= FRAMES) {
        rest = (await page.evaluate(() => performance.now())) - drawnAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return { busy, rows: rowsAt - clicks.open, editor: drawnAt - clicks.card, firstImage: firstImageMs, total: drawnAt - clicks.open, rest, storedAfterWait: stored };
  } finally {
    await context.close();
  }
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x: number) => `${x.toFixed(0)} ms`;

/** One setup: a server per build (`start(dist)`), the project on each, then runs alternating between the builds. */
async function runSetup(label: string, browser: Browser, dists: string[], frames: Buffer[], start: (dist: string) => Promise<ServeProcess>): Promise<void> {
  const servers: ServeProcess[] = [];
  try {
    for (const dist of dists) servers.push(await start(dist));
    for (const server of servers) await makeProject(server.url, tokens.get(server.url)!, frames);
    const runs: Run[][] = servers.map(() => []);
    for (let i = 0; i < RUNS; i++) for (let b = 0; b < servers.length; b++) runs[b].push(await oneRun(browser, servers[b].url));
    runs.forEach((rs, b) => {
      const col = (f: (r: Run) => number) => `${ms(pct(rs.map(f), 50))} / ${ms(Math.max(...rs.map(f)))}`;
      const rests = rs.map((r) => r.rest);
      const rest = rests.every((r) => r !== null) ? `${ms(pct(rests as number[], 50))} after the first frame` : `${Math.min(...rs.map((r) => r.storedAfterWait))}–${Math.max(...rs.map((r) => r.storedAfterWait))} of ${FRAMES} stored 10 s later`;
      const name = dists.length > 1 ? `${label}, ${basename(dists[b])}` : label;
      console.log(`| ${name} | ${col((r) => r.total)} | ${col((r) => r.busy)} | ${col((r) => r.rows)} | ${col((r) => r.editor)} | ${ms(pct(rs.map((r) => r.firstImage), 50))} | ${rest} |`);
    });
  } finally {
    await Promise.all(servers.map(stopServe));
  }
}

/** Each server's tokens (made in its database before it starts). */
const tokens = new Map<string, Tokens>();

async function main(): Promise<void> {
  let dists = (process.env.SPOC_FIRST_OPEN_DIST ?? '').split(',').filter(Boolean);
  if (dists.length === 0) {
    const dist = resolve('bench/results/first-open-dist');
    await build({ logLevel: 'warn', build: { outDir: dist, emptyOutDir: true, sourcemap: false } });
    dists = [dist];
  }
  dists = dists.map((d) => resolve(d));
  for (const d of dists) if (!existsSync(join(d, 'index.html'))) throw new Error(`no build at ${d}`);
  const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const frames = await makeFrames(browser);
    const kb = frames.reduce((n, f) => n + f.length, 0) / frames.length / 1024;
    console.log(`A ${FRAMES}-frame ${WIDTH}x${HEIGHT} clip (JPEG, ${kb.toFixed(0)} KB a frame on average), ${PAINTED_FRAMES * STROKES_PER_FRAME} gt strokes on one object in each of ${PAINTED_FRAMES} frames; ${RUNS} first opens per setup, each in a fresh Chromium context, on loopback (goal: total <= 1.5 s).\n`);
    console.log('| setup | total: click Open to frame 0 drawn, p50 / max | main-thread task time, p50 / max | rows: Open to the clip card | editor: card to frame 0 drawn | first picture request | rest of the pictures |');
    console.log('|---|---|---|---|---|---|---|');

    await runSetup('embedded PGlite', browser, dists, frames, async (dist) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'spoc-first-open-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const embedded = await openPgliteDb(dataDir);
      const made = await makeUsers(embedded);
      await embedded.close();
      const server = await startServe(dist, ['--data', dataDir], process.env);
      tokens.set(server.url, made);
      return server;
    });

    const pgUrl = process.env.DATABASE_URL ?? process.env.SPOC_TEST_PG_URL;
    if (!pgUrl) {
      console.log('| PostgreSQL | (skipped: set SPOC_TEST_PG_URL or DATABASE_URL, e.g. `source .ci/postgres.sh`) |');
      return;
    }
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    cleanups.push(() => admin.end());
    await runSetup('PostgreSQL', browser, dists, frames, async (dist) => {
      const name = `spoc_first_open_${process.pid}_${tokens.size}`;
      await admin.query(`CREATE DATABASE ${name}`);
      cleanups.unshift(async () => void (await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
      const url = new URL(pgUrl);
      url.pathname = `/${name}`;
      const db = openPgDb({ connectionString: url.toString() });
      const made = await makeUsers(db);
      await db.close();
      const server = await startServe(dist, [], { ...process.env, DATABASE_URL: url.toString() });
      tokens.set(server.url, made);
      return server;
    });
  } finally {
    for (const fn of cleanups) await fn().catch(() => undefined);
    await browser.close();
  }
}

await main();
