/**
 * Runs a test suite on both database backends: embedded PGlite (in memory) and a real PostgreSQL
 * server named by SPOC_TEST_PG_URL, where each test file gets a database of its own, created before
 * and dropped after. Without SPOC_TEST_PG_URL the PostgreSQL half is skipped with a printed reason,
 * unless SPOC_REQUIRE_PG=1 (CI), where it fails instead of passing silently.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Db } from '../db/db';
import { migrate } from '../db/migrate';
import { openPgDb } from '../db/pgDb';
import { openPgliteDb } from '../db/pgliteDb';

export type BackendKind = Db['kind'];

export interface BackendContext {
  readonly kind: BackendKind;
  /** This file's database (opened in beforeAll). */
  db(): Db;
  /** PostgreSQL only: another connection pool on the same database, as a second server process would have. */
  connectAgain(): Db;
  /** PostgreSQL only: this file's database URL (a test may reach it another way, e.g. through a proxy). */
  databaseUrl(): string;
}

const PG_URL = process.env.SPOC_TEST_PG_URL;
const REQUIRE_PG = process.env.SPOC_REQUIRE_PG === '1';
/** PGlite compiles PostgreSQL from WebAssembly on open: seconds on a busy machine. */
const OPEN_TIMEOUT_MS = 120_000;

function databaseUrl(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

interface Opened {
  db: Db;
  connectAgain(): Db;
  url: string | null;
  drop(): Promise<void>;
}

async function openPostgres(): Promise<Opened> {
  const name = `spoc_test_${randomBytes(6).toString('hex')}`;
  const admin = openPgDb({ connectionString: PG_URL!, max: 1 });
  // The name is ours (hex), not user text; CREATE DATABASE takes no parameters.
  await admin.query(`CREATE DATABASE ${name}`);
  const url = databaseUrl(PG_URL!, name);
  const pools: Db[] = [openPgDb({ connectionString: url })];
  return {
    db: pools[0],
    url,
    connectAgain() {
      const again = openPgDb({ connectionString: url });
      pools.push(again);
      return again;
    },
    async drop() {
      await Promise.all(pools.map((p) => p.close().catch(() => {})));
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}

async function openPglite(): Promise<Opened> {
  const db = await openPgliteDb(null);
  return {
    db,
    url: null,
    connectAgain() {
      throw new Error('PGlite has a single connection');
    },
    drop: () => db.close().catch(() => {}),
  };
}

export interface BackendOptions {
  /** Bring the schema up to date before the tests (default true). */
  migrated?: boolean;
}

function suite(kind: BackendKind, open: () => Promise<Opened>, body: (ctx: BackendContext) => void, options: BackendOptions): void {
  describe(kind, () => {
    let opened: Opened | null = null;
    beforeAll(async () => {
      opened = await open();
      if (options.migrated ?? true) await migrate(opened.db);
    }, OPEN_TIMEOUT_MS);
    afterAll(async () => {
      await opened?.drop();
    }, OPEN_TIMEOUT_MS);
    body({
      kind,
      db: () => opened!.db,
      connectAgain: () => opened!.connectAgain(),
      databaseUrl: () => opened!.url ?? (() => { throw new Error('PGlite has no database URL'); })(),
    });
  });
}

let warned = false;

export function onBothBackends(body: (ctx: BackendContext) => void, options: BackendOptions = {}): void {
  suite('pglite', openPglite, body, options);
  if (PG_URL) {
    suite('postgres', openPostgres, body, options);
  } else if (REQUIRE_PG) {
    describe('postgres', () => {
      it('has a PostgreSQL server to test against', () => {
        throw new Error('SPOC_REQUIRE_PG=1 but SPOC_TEST_PG_URL is not set (e.g. postgres://user:pass@127.0.0.1:54329/postgres)');
      });
    });
  } else {
    if (!warned) console.warn('Skipping the PostgreSQL half of the server tests: set SPOC_TEST_PG_URL to run it (SPOC_REQUIRE_PG=1 makes its absence a failure).');
    warned = true;
    describe.skip('postgres (SPOC_TEST_PG_URL unset)', () => body({ kind: 'postgres', db: () => null as never, connectAgain: () => null as never, databaseUrl: () => '' }));
  }
}

/** Empties the database (for tests that replay the migration history from scratch). */
export async function emptySchema(db: Db): Promise<void> {
  await db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
}
