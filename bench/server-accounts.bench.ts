/**
 * The team server on loopback: sign-ins per second at the production scrypt cost, and GET /api/me
 * (session lookup, sliding expiry) and POST /api/projects (a transaction with its audit row) per
 * second with 8 requests in flight, on embedded PGlite and, when DATABASE_URL or SPOC_TEST_PG_URL
 * names one, a PostgreSQL server (in a database created and dropped here).
 * Run: npx tsx bench/server-accounts.bench.ts
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createAccount } from '../server/auth/accounts';
import type { Db } from '../server/db/db';
import { migrate } from '../server/db/migrate';
import { openPgDb } from '../server/db/pgDb';
import { openPgliteDb } from '../server/db/pgliteDb';
import { createServer } from '../server/http/createServer';

const IN_FLIGHT = 8;
const PASSWORD = 'bench password 123';

/** Runs `count` requests, `IN_FLIGHT` at a time; returns requests per second. */
async function throughput(count: number, send: (i: number) => Promise<Response>): Promise<number> {
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) {
        const res = await send(next++);
        if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }
    }),
  );
  return count / ((performance.now() - t) / 1000);
}

async function bench(label: string, db: Db): Promise<void> {
  await migrate(db);
  const users = Array.from({ length: IN_FLIGHT }, (_, i) => `bench${i}`);
  for (const u of users) await createAccount(db, u, PASSWORD);
  const app = await createServer({ db, distDir: null, signInLimits: { perUsername: 1e9, perAddress: 1e9, windowMs: 60_000 } });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const signIn = (i: number) =>
    fetch(`${base}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ username: users[i % users.length], password: PASSWORD }) });
  const signIns = await throughput(48, signIn);
  const res = await signIn(0);
  const { csrfToken } = await res.json();
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  const me = await throughput(2000, () => fetch(`${base}/api/me`, { headers: { cookie } }));
  const creates = await throughput(500, (i) =>
    fetch(`${base}/api/projects`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrfToken, origin: base, 'content-type': 'application/json' }, body: JSON.stringify({ name: `p${i}` }) }),
  );
  console.log(`${label.padEnd(34)} ${signIns.toFixed(0).padStart(8)} ${me.toFixed(0).padStart(10)} ${creates.toFixed(0).padStart(14)}`);
  await app.close();
}

console.log(`team server on loopback, ${IN_FLIGHT} requests in flight, one process (Node ${process.version})`);
console.log(`${'database'.padEnd(34)} ${'sign-in/s'.padStart(8)} ${'GET me/s'.padStart(10)} ${'POST project/s'.padStart(14)}`);
const lite = await openPgliteDb(null);
await bench('embedded PGlite (in memory)', lite);
await lite.close();

const pgUrl = process.env.DATABASE_URL ?? process.env.SPOC_TEST_PG_URL;
if (pgUrl) {
  const name = `spoc_bench_${randomBytes(4).toString('hex')}`;
  const admin = openPgDb({ connectionString: pgUrl, max: 1 });
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const pg = openPgDb({ connectionString: url.toString() });
  try {
    await bench(`PostgreSQL ${url.hostname}:${url.port}`, pg);
  } finally {
    await pg.close();
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.close();
  }
} else {
  console.log('(set DATABASE_URL or SPOC_TEST_PG_URL to also measure a PostgreSQL server)');
}
