/**
 * Versioned SQL migrations: server/migrations/NNN_name.sql, applied in order, each in its own
 * transaction together with its row in schema_migrations. Every step first takes a transaction-level
 * advisory lock and re-reads schema_migrations under it, so server processes that start together
 * apply each step exactly once (the others wait, then see it done). A database migrated by a newer
 * server, or an applied step whose file has since changed, stops the server instead of guessing.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { packageFile } from '../packageFile';
import type { Db, Queryable } from './db';

export const MIGRATIONS_DIR = packageFile('server', 'migrations');

/** Arbitrary constant naming "the SPOC Studio schema" among advisory locks. */
const MIGRATION_LOCK = 740_512_017;

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const m = /^(\d{3})_([a-z0-9_]+)\.sql$/.exec(file);
    if (!m) throw new Error(`migration file "${file}" is not named NNN_name.sql`);
    const sql = await readFile(`${dir}/${file}`, 'utf8');
    migrations.push({ version: Number(m[1]), name: m[2], sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  migrations.forEach((mig, i) => {
    if (mig.version !== i + 1) throw new Error(`migrations must be numbered 001, 002, … without gaps; found ${file3(mig.version)} at position ${i + 1}`);
  });
  return migrations;
}

const file3 = (v: number) => String(v).padStart(3, '0');

interface Applied {
  version: number;
  checksum: string;
}

async function lockedApplied(tx: Queryable): Promise<Map<number, string>> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
  const rows = await tx.query<Applied>('SELECT version, checksum FROM schema_migrations');
  return new Map(rows.map((r) => [r.version, r.checksum]));
}

export interface MigrateOptions {
  /** Stop after this version (tests step through the history with data in between). */
  to?: number;
  migrations?: Migration[];
}

/** Brings the schema up to date; returns the versions this call applied (empty when already current). */
export async function migrate(db: Db, options: MigrateOptions = {}): Promise<number[]> {
  const migrations = options.migrations ?? (await loadMigrations());
  const target = options.to ?? migrations.length;
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const applied: number[] = [];
  for (const mig of migrations.filter((m) => m.version <= target)) {
    const didApply = await db.transaction(async (tx) => {
      const done = await lockedApplied(tx);
      const newest = Math.max(0, ...done.keys());
      if (newest > migrations.length) {
        throw new Error(`the database schema is at version ${newest}, newer than this server knows (${migrations.length}); run a newer SPOC Studio`);
      }
      const checksum = done.get(mig.version);
      if (checksum !== undefined) {
        if (checksum !== mig.checksum) throw new Error(`migration ${file3(mig.version)}_${mig.name}.sql changed after it was applied; restore it and add a new migration instead`);
        return false;
      }
      await tx.exec(mig.sql);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [mig.version, mig.name, mig.checksum]);
      return true;
    });
    if (didApply) applied.push(mig.version);
  }
  return applied;
}
