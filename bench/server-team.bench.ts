/**
 * The team server under a team's load: `npm run bench server-team`.
 *
 * N simulated annotators (bench/sync/annotator.ts; default 50) on loopback, each pushing a real
 * stroke revision every 200 ms on its own clip for 60 s, each listening on the live socket and
 * pulling what the others pushed. Printed per setup: push-to-visible on the other clients p50 / p95
 * (from sending the push to having pulled the row), pushes per second, the server's own time per push
 * (its Server-Timing header: all of it, the wait for the project's previous transaction, its own
 * transaction, and pushes per transaction), refused and failed pushes,
 * server CPU (the server processes' user + system time over the run, as % of one core), and
 * revisions lost (accepted by the server but missing from the server's log or from any client after
 * the drain — must be 0).
 *
 * Setups: one server process on the embedded database; and, when SPOC_TEST_PG_URL or DATABASE_URL
 * names a PostgreSQL server (e.g. `source .ci/postgres.sh`), one process and two processes sharing
 * one PostgreSQL database (annotators split between them, so every change crosses processes through
 * LISTEN/NOTIFY). Servers are real `spoc-studio serve` processes. Prints figures only.
 * SYNC_BENCH_ANNOTATORS / SYNC_BENCH_SECONDS shorten a trial run; SYNC_BENCH_SETUPS picks setups
 * (a comma list of embedded, pg1, pg2; all by default).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createAccount, createApiToken } from '../server/auth/accounts';
import type { Db } from '../server/db/db';
import { migrate } from '../server/db/migrate';
import { openPgDb } from '../server/db/pgDb';
import { openPgliteDb } from '../server/db/pgliteDb';
import { HEIGHT, WIDTH } from './sync/strokes';
import { SimulatedAnnotator, newServerTimes } from './sync/annotator';
import { cpuSeconds, startServe, stopServe, type ServeProcess } from './sync/serveProcess';

const ANNOTATORS = Number(process.env.SYNC_BENCH_ANNOTATORS ?? 50);
const SECONDS = Number(process.env.SYNC_BENCH_SECONDS ?? 60);
const PERIOD_MS = 200;
const FRAMES = 10;
const SETUPS = new Set((process.env.SYNC_BENCH_SETUPS ?? 'embedded,pg1,pg2').split(','));
const FAST_SCRYPT = { N: 1024, r: 8, p: 1 };

interface Team {
  manager: string;
  annotators: { username: string; token: string }[];
}

/** Accounts and tokens, made directly in the database as `spoc-studio user add` / `token create` do. */
async function makeTeam(db: Db): Promise<Team> {
  await migrate(db);
  await createAccount(db, 'bench-manager', 'bench password 123', FAST_SCRYPT);
  const manager = await createApiToken(db, 'bench-manager');
  const annotators = [];
  for (let i = 0; i < ANNOTATORS; i++) {
    const username = `bench-ann-${i}`;
    await createAccount(db, username, 'bench password 123', FAST_SCRYPT);
    annotators.push({ username, token: await createApiToken(db, username) });
  }
  return { manager, annotators };
}

async function api(base: string, token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

/** The project, its members and one clip per annotator, assigned to them, through the API. */
async function makeProject(base: string, team: Team): Promise<{ projectId: string; clips: string[] }> {
  const projectId = crypto.randomUUID();
  await api(base, team.manager, 'POST', '/projects', { name: 'sync bench', id: projectId });
  for (const a of team.annotators) await api(base, team.manager, 'POST', `/projects/${projectId}/members`, { username: a.username, role: 'annotator' });
  const now = Date.now();
  const clips = team.annotators.map(() => crypto.randomUUID());
  const changes = clips.map((id, i) => ({
    kind: 'clip',
    id,
    row: {
      id,
      projectId,
      name: `clip ${i}`,
      createdAt: now,
      updatedAt: now,
      width: WIDTH,
      height: HEIGHT,
      frameCount: FRAMES,
      sampleFps: 1,
      source: { kind: 'video', fileName: `clip${i}.mp4`, durationSec: FRAMES },
      osc: { verb: 'peel', noun: 'banana', actionable: 'unpeeled banana', transformed: 'peeled banana' },
      subset: 'seen',
      status: 'todo',
      assignee: team.annotators[i].username,
    },
  }));
  for (let i = 0; i < changes.length; i += 100) {
    const res = (await api(base, team.manager, 'POST', `/projects/${projectId}/sync/push`, { protocol: 1, clientId: crypto.randomUUID(), changes: changes.slice(i, i + 100) })) as { outcomes: { status: string; error?: string }[] };
    const refused = res.outcomes.find((o) => o.status !== 'accepted');
    if (refused) throw new Error(`clip refused: ${refused.error}`);
  }
  return { projectId, clips };
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function run(label: string, servers: ServeProcess[], team: Team): Promise<void> {
  const { projectId, clips } = await makeProject(servers[0].url, team);
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const serverTimes = newServerTimes();
  const clients = team.annotators.map(
    (a, i) =>
      new SimulatedAnnotator({ base: servers[i % servers.length].url, projectId, clipId: clips[i], username: a.username, token: a.token, clientId: crypto.randomUUID(), periodMs: PERIOD_MS, frames: FRAMES, random: seeded(i + 1), sentAt, latencies, serverTimes }),
  );
  await Promise.all(clients.map((c) => c.connect()));
  const cpu0 = servers.map((s) => cpuSeconds(s.child.pid!));
  const clientCpu0 = process.cpuUsage();
  const t0 = performance.now();
  clients.forEach((c) => c.start());
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  await Promise.all(clients.map((c) => c.stop()));
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = servers.map((s, i) => cpuSeconds(s.child.pid!) - cpu0[i]);
  const clientCpuUsage = process.cpuUsage(clientCpu0);
  const clientCpu = (clientCpuUsage.user + clientCpuUsage.system) / 1e6;
  const pulls = clients.reduce((n, c) => n + c.pulls, 0);

  // Drain: every client pulls to the end.
  const accepted = new Set(clients.flatMap((c) => c.accepted));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && clients.some((c) => [...accepted].some((id) => !c.seen.has(id)))) {
    await Promise.all(clients.map((c) => c.pull()));
    await new Promise((r) => setTimeout(r, 200));
  }
  const missing = clients.reduce((n, c) => n + [...accepted].filter((id) => !c.seen.has(id)).length, 0);
  clients.forEach((c) => c.close());
  const refused = clients.reduce((n, c) => n + c.refused, 0);
  const failed = clients.reduce((n, c) => n + c.pushErrors, 0);
  const s = serverTimes;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  // Per push on the server: all of it (sign-in check included) p50 / p95; of which waiting for the project's previous transaction, and its own (shared) transaction, p50; pushes per transaction, mean.
  const server = s.total.length === 0 ? '–' : `${pct(s.total, 50).toFixed(0)} / ${pct(s.total, 95).toFixed(0)} ms (queued ${pct(s.queued, 50).toFixed(0)}, transaction ${pct(s.batch, 50).toFixed(0)}; ${mean(s.batchPushes).toFixed(1)} pushes each)`;
  console.log(
    `| ${label} | ${ANNOTATORS} | ${(accepted.size / elapsed).toFixed(0)} | ${pct(latencies, 50).toFixed(0)} / ${pct(latencies, 95).toFixed(0)} ms | ${server} | ${(pulls / elapsed).toFixed(1)} | ${cpu.map((c) => `${((100 * c) / elapsed).toFixed(0)} %`).join(' + ')} | ${((100 * clientCpu) / elapsed).toFixed(0)} % | ${refused} / ${failed} | ${missing} |`,
  );
}

async function main(): Promise<void> {
  console.log(`${ANNOTATORS} annotators, one stroke revision each every ${PERIOD_MS} ms for ${SECONDS} s, on loopback (this machine: 2 cores shared by clients, servers and the database).\n`);
  console.log('| setup | annotators | accepted pushes/s | push-to-visible p50 / p95 | server time per push p50 / p95 | pulls/s (all clients) | server CPU (of one core) | simulated clients CPU (one process) | refused / failed pushes | revisions lost |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');

  if (SETUPS.has('embedded')) {
    const dataDir = mkdtempSync(join(tmpdir(), 'spoc-sync-bench-'));
    try {
      const embedded = await openPgliteDb(dataDir);
      const team = await makeTeam(embedded);
      await embedded.close();
      const server = await startServe('bench/results/no-app', ['--data', dataDir], process.env);
      try {
        await run('1 process, embedded PGlite', [server], team);
      } finally {
        await stopServe(server);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  const pgUrl = process.env.DATABASE_URL ?? process.env.SPOC_TEST_PG_URL;
  if (!pgUrl) {
    console.log('| PostgreSQL setups | (skipped: set SPOC_TEST_PG_URL or DATABASE_URL, e.g. `source .ci/postgres.sh`) |');
    return;
  }
  for (const processes of [1, 2].filter((n) => SETUPS.has(`pg${n}`))) {
    const name = `spoc_sync_bench_${processes}_${process.pid}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    try {
      const db = openPgDb({ connectionString: url.toString() });
      const team = await makeTeam(db);
      await db.close();
      const env = { ...process.env, DATABASE_URL: url.toString() };
      const servers: ServeProcess[] = [];
      for (let i = 0; i < processes; i++) servers.push(await startServe('bench/results/no-app', [], env));
      try {
        await run(`${processes} process${processes > 1 ? 'es' : ''}, one PostgreSQL`, servers, team);
      } finally {
        await Promise.all(servers.map(stopServe));
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
}

await main();
