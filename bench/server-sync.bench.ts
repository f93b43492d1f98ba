/**
 * The team server's sync on loopback, one process: pushing revisions (each checked by the browser's
 * validators and the painting rules, in batches of 500), pulling them back in pages of 1000, and
 * the time from a push's answer to the `changed` message on a live socket. On embedded PGlite and,
 * when DATABASE_URL or SPOC_TEST_PG_URL names one, a PostgreSQL server (a database made and dropped here).
 * Run: npx tsx bench/server-sync.bench.ts
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createAccount, createApiToken } from '../server/auth/accounts';
import type { Db } from '../server/db/db';
import { migrate } from '../server/db/migrate';
import { openPgDb } from '../server/db/pgDb';
import { openPgliteDb } from '../server/db/pgliteDb';
import { createServer } from '../server/http/createServer';
import { openLive } from '../server/testing/liveClient';
import { change, clipRow, frameRow, revisionRow } from '../server/testing/syncFixtures';
import type { PushChange } from '../src/sync/protocol';

const BATCHES = 10;
const BATCH = 500;
const PINGS = 30;

async function bench(label: string, db: Db): Promise<void> {
  await migrate(db);
  const name = 'benchmgr';
  await createAccount(db, name, 'bench password 123', { N: 1024, r: 8, p: 1 });
  const token = await createApiToken(db, name);
  const app = await createServer({ db, distDir: null });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    return res.json();
  };
  const projectId: string = (await post('/api/projects', { name: 'bench' })).id;
  // One browser: its own revisions are never concurrent with each other.
  const clientId = randomUUID();
  const push = (changes: PushChange[], upload = false) => post(`/api/projects/${projectId}/sync/push`, { protocol: 1, clientId, upload, changes });
  const clip = clipRow(projectId, { frameCount: 3 });
  const clipId = String(clip.id);
  await push([change('clip', clip), ...[0, 1, 2].map((i) => change('frame', frameRow(clipId, i)))]);

  let t = performance.now();
  for (let b = 0; b < BATCHES; b++) {
    const out = await push(Array.from({ length: BATCH }, (_, i) => change('revision', revisionRow(clipId, i % 3, 'ana', { at: b * BATCH + i }))), true);
    if (out.outcomes.some((o: { status: string }) => o.status !== 'accepted')) throw new Error(JSON.stringify(out.outcomes[0]));
  }
  const pushRate = (BATCHES * BATCH) / ((performance.now() - t) / 1000);

  t = performance.now();
  let after = '0';
  let rows = 0;
  for (;;) {
    const res = await fetch(`${base}/api/projects/${projectId}/sync/pull?after=${after}&limit=1000`, { headers: { authorization: headers.authorization } });
    const page = await res.json();
    rows += page.changes.length;
    after = page.cursor;
    if (!page.more) break;
  }
  const pullRate = rows / ((performance.now() - t) / 1000);

  const socket = await openLive(`${base.replace('http', 'ws')}/api/projects/${projectId}/sync/live`, { authorization: headers.authorization });
  await socket.next((m) => m.type === 'hello');
  // From sending a one-row push to the socket's `changed` (which arrives before the push's own answer: NOTIFY is sent at commit).
  const latencies: number[] = [];
  for (let i = 0; i < PINGS; i++) {
    const sent = performance.now();
    const answered = push([change('revision', revisionRow(clipId, 0, 'ana', { at: 1e6 + i }))], true);
    await socket.next((m) => m.type === 'changed');
    latencies.push(performance.now() - sent);
    await answered;
  }
  socket.close();
  latencies.sort((a, b) => a - b);
  const median = latencies[Math.floor(latencies.length / 2)];
  console.log(`${label.padEnd(30)} ${pushRate.toFixed(0).padStart(12)} ${pullRate.toFixed(0).padStart(12)} ${median.toFixed(1).padStart(18)}`);
  await app.close();
}

console.log(`team server sync on loopback, one process, ${BATCHES} pushes of ${BATCH} revisions (Node ${process.version})`);
console.log(`${'database'.padEnd(30)} ${'pushed/s'.padStart(12)} ${'pulled/s'.padStart(12)} ${'push to changed ms'.padStart(18)}`);
const lite = await openPgliteDb(null);
await bench('embedded PGlite (in memory)', lite);
await lite.close();

const pgUrl = process.env.DATABASE_URL ?? process.env.SPOC_TEST_PG_URL;
if (pgUrl) {
  const dbName = `spoc_bench_${randomBytes(4).toString('hex')}`;
  const admin = openPgDb({ connectionString: pgUrl, max: 1 });
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(pgUrl);
  url.pathname = `/${dbName}`;
  const pg = openPgDb({ connectionString: url.toString() });
  try {
    await bench(`PostgreSQL ${url.hostname}:${url.port}`, pg);
  } finally {
    await pg.close();
    await admin.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
    await admin.close();
  }
} else {
  console.log('(set DATABASE_URL or SPOC_TEST_PG_URL to also measure a PostgreSQL server)');
}
