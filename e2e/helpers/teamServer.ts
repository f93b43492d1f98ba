/**
 * A real team server for the e2e tests, started the way a lab starts it: `spoc-studio serve` as its
 * own process, serving the build under test, on the embedded database (PGlite in a fresh folder) or
 * on the real PostgreSQL that .ci/postgres.sh runs (SPOC_TEST_PG_URL; a fresh database per server).
 * Users are made with `spoc-studio user add`, as an administrator would.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type TeamBackend = 'embedded' | 'postgres';

export const TEAM_PASSWORD = 'correct horse battery';

/** The backends to run a team suite on: the embedded default always, PostgreSQL when CI provides one. */
export function teamBackends(): TeamBackend[] {
  return process.env.SPOC_TEST_PG_URL ? ['embedded', 'postgres'] : ['embedded'];
}

export interface TeamServer {
  url: string;
  backend: TeamBackend;
  stop(): Promise<void>;
}

const CLI = ['cli/spoc-studio.mjs'];
const DIST = process.env.SPOC_E2E_DIST ?? 'dist';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitHealthy(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`spoc-studio serve exited with ${child.exitCode}:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`spoc-studio serve did not become healthy:\n${log()}`);
}

async function freshPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.SPOC_TEST_PG_URL!;
  const name = `spoc_e2e_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: base });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

/**
 * Starts a server with these users (password TEAM_PASSWORD). Users are added before `serve` starts:
 * an embedded database is open in one process at a time.
 */
export async function startTeamServer(backend: TeamBackend, users: readonly string[]): Promise<TeamServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'spoc-e2e-server-'));
  const pgDb = backend === 'postgres' ? await freshPgDatabase() : null;
  const env = { ...process.env, ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) };
  const dbArgs = pgDb ? [] : ['--data', dataDir];
  for (const user of users) {
    const made = spawnSync('node', [...CLI, 'user', 'add', user, '--password-stdin', ...dbArgs], { input: TEAM_PASSWORD, env, encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`user add ${user} failed: ${made.stderr}`);
  }
  const port = await freePort();
  const child = spawn('node', [...CLI, 'serve', '--host', '127.0.0.1', '--port', String(port), '--dist', DIST, ...dbArgs], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child, () => output);
  return {
    url,
    backend,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
