import { describe, expect, it } from 'vitest';
import { emptySchema, onBothBackends } from '../testing/backends';
import type { Db } from './db';
import { loadMigrations, migrate, type Migration } from './migrate';

const TABLES = ['users', 'sessions', 'api_tokens', 'projects', 'project_members', 'invites', 'audit_log', 'sync_rows', 'blobs', 'project_blobs', 'sign_in_windows', 'live_presence'];

async function tablesIn(db: Db): Promise<string[]> {
  const rows = await db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name");
  return rows.map((r) => r.table_name);
}

/** Rows written right after step N, checked again after every later step. */
const USER = '00000000-0000-4000-8000-000000000001';
const PROJECT = '00000000-0000-4000-8000-000000000002';
const CLIENT = '00000000-0000-4000-8000-000000000003';
const SHA = 'ab'.repeat(32);
const seedAfter: Record<number, (db: Db) => Promise<void>> = {
  1: (db) => db.query("INSERT INTO users (id, username, password_hash) VALUES ($1, 'Ana', 'scrypt$x')", [USER]).then(() => {}),
  2: async (db) => {
    await db.query("INSERT INTO sessions (token_hash, user_id, expires_at, csrf_token) VALUES ('s1', $1, '2030-01-01T00:00:00Z', 'c1')", [USER]);
    await db.query("INSERT INTO api_tokens (token_hash, user_id) VALUES ('t1', $1)", [USER]);
  },
  3: async (db) => {
    await db.query("INSERT INTO projects (id, name, created_by) VALUES ($1, 'Kitchen', $2)", [PROJECT, USER]);
    await db.query("INSERT INTO project_members (project_id, user_id, role) VALUES ($1, $2, 'manager')", [PROJECT, USER]);
  },
  4: (db) => db.query("INSERT INTO invites (token_hash, project_id, role, created_by, expires_at) VALUES ('i1', $1, 'reviewer', $2, '2030-01-01T00:00:00Z')", [PROJECT, USER]).then(() => {}),
  5: (db) => db.query("INSERT INTO audit_log (user_id, action, project_id, details) VALUES ($1, 'project.create', $2, $3)", [USER, PROJECT, JSON.stringify({ name: 'Kitchen' })]).then(() => {}),
  6: async (db) => {
    await db.query("INSERT INTO sync_rows (project_id, kind, row_id, cursor, client_id, pushed_by, body) VALUES ($1, 'clip', 'c1', nextval('sync_cursor'), $2, $3, $4)", [
      PROJECT,
      CLIENT,
      USER,
      JSON.stringify({ id: 'c1', status: 'todo' }),
    ]);
    await db.query("INSERT INTO blobs (sha256, size, mime, data) VALUES ($1, 3, 'image/png', '\\x010203')", [SHA]);
    await db.query('INSERT INTO project_blobs (project_id, sha256, added_by) VALUES ($1, $2, $3)', [PROJECT, SHA, USER]);
  },
  7: async (db) => {
    await db.query("INSERT INTO sync_rows (project_id, kind, row_id, cursor, client_id, pushed_by, body) VALUES ($1, 'frame', 'c1/0', nextval('sync_cursor'), $2, $3, $4)", [
      PROJECT,
      CLIENT,
      USER,
      JSON.stringify({ clipId: 'c1', index: 0, image: { sha256: SHA } }),
    ]);
    await db.query("UPDATE blobs SET put_at = '2026-01-01T00:00:00Z'");
  },
  8: async (db) => {
    await db.query("INSERT INTO sign_in_windows (key, attempts, window_start) VALUES ('u:ana', 2, '2026-01-01T00:00:00Z')");
    await db.query("INSERT INTO live_presence (instance_id, peer_id, project_id, clip_id, username, expires_at) VALUES ($1, 1, $2, 'c1', 'Ana', now())", [CLIENT, PROJECT]);
  },
};

/** What the rows seeded up to step N read back as, at any later step. */
async function checkSeeded(db: Db, upTo: number): Promise<void> {
  if (upTo >= 1) expect(await db.query('SELECT id, username, disabled FROM users')).toEqual([{ id: USER, username: 'Ana', disabled: false }]);
  if (upTo >= 2) {
    expect(await db.query('SELECT token_hash, user_id, csrf_token FROM sessions')).toEqual([{ token_hash: 's1', user_id: USER, csrf_token: 'c1' }]);
    expect(await db.query('SELECT token_hash, user_id FROM api_tokens')).toEqual([{ token_hash: 't1', user_id: USER }]);
  }
  if (upTo >= 3) expect(await db.query('SELECT project_id, user_id, role FROM project_members')).toEqual([{ project_id: PROJECT, user_id: USER, role: 'manager' }]);
  if (upTo >= 4) expect(await db.query('SELECT role, used_by FROM invites')).toEqual([{ role: 'reviewer', used_by: null }]);
  if (upTo >= 5) expect(await db.query('SELECT action, details FROM audit_log')).toEqual([{ action: 'project.create', details: { name: 'Kitchen' } }]);
  if (upTo >= 6) {
    expect(await db.query("SELECT kind, row_id, cursor::text AS cursor, client_id, body FROM sync_rows WHERE kind = 'clip'")).toEqual([
      { kind: 'clip', row_id: 'c1', cursor: '1', client_id: CLIENT, body: { id: 'c1', status: 'todo' } },
    ]);
    expect(await db.query("SELECT size, mime, encode(data, 'hex') AS hex FROM blobs")).toEqual([{ size: 3, mime: 'image/png', hex: '010203' }]);
    expect(await db.query('SELECT project_id, sha256 FROM project_blobs')).toEqual([{ project_id: PROJECT, sha256: SHA }]);
  }
  if (upTo >= 7) {
    expect(await db.query("SELECT body -> 'image' ->> 'sha256' AS sha FROM sync_rows WHERE kind = 'frame'")).toEqual([{ sha: SHA }]);
    expect(await db.query('SELECT put_at::text AS at FROM blobs')).toEqual([{ at: expect.stringMatching(/^2026-01-01 00:00:00/) }]);
    // Rows from before step 7 got an upload time of their own then: their grace period starts there.
    expect(await db.query('SELECT put_at IS NOT NULL AS set FROM project_blobs')).toEqual([{ set: true }]);
  }
  if (upTo >= 8) {
    expect(await db.query('SELECT key, attempts FROM sign_in_windows')).toEqual([{ key: 'u:ana', attempts: 2 }]);
    expect(await db.query('SELECT project_id, clip_id, username FROM live_presence')).toEqual([{ project_id: PROJECT, clip_id: 'c1', username: 'Ana' }]);
  }
}

describe('migration files', () => {
  it('are numbered without gaps and each has a seed step in this test', async () => {
    const migrations = await loadMigrations();
    expect(migrations.map((m) => m.version)).toEqual(Object.keys(seedAfter).map(Number));
  });
});

onBothBackends(
  (ctx) => {
    it('takes an empty database to the latest schema', async () => {
      const db = ctx.db();
      await emptySchema(db);
      expect(await migrate(db)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(await tablesIn(db)).toEqual([...TABLES, 'schema_migrations'].sort());
      expect((await db.query('SELECT version, name FROM schema_migrations ORDER BY version')).map((r) => r.name)).toEqual([
        'users',
        'sessions_and_tokens',
        'projects_and_members',
        'invites',
        'audit_log',
        'sync',
        'blob_gc',
        'sign_in_limits_and_presence',
      ]);
    });

    it('does nothing when run again', async () => {
      const db = ctx.db();
      const before = await db.query('SELECT version, applied_at FROM schema_migrations ORDER BY version');
      expect(await migrate(db)).toEqual([]);
      expect(await db.query('SELECT version, applied_at FROM schema_migrations ORDER BY version')).toEqual(before);
    });

    it('applies each step over the data of the steps before, which reads back unchanged', async () => {
      const db = ctx.db();
      await emptySchema(db);
      const last = (await loadMigrations()).length;
      for (let step = 1; step <= last; step++) {
        expect(await migrate(db, { to: step })).toEqual([step]);
        await checkSeeded(db, step - 1);
        await seedAfter[step](db);
        await checkSeeded(db, step);
      }
    });

    it('rolls a failing step back whole and records nothing for it', async () => {
      const db = ctx.db();
      await emptySchema(db);
      const real = await loadMigrations();
      const broken: Migration = { version: 2, name: 'broken', sql: 'CREATE TABLE half_done (x int); SELECT no_such_function();', checksum: 'x' };
      await expect(migrate(db, { migrations: [real[0], broken] })).rejects.toThrow(/no_such_function/);
      expect(await tablesIn(db)).toEqual(['schema_migrations', 'users']);
      expect(await db.query('SELECT version FROM schema_migrations')).toEqual([{ version: 1 }]);
    });

    it('refuses a migration edited after it was applied, and a database from a newer server', async () => {
      const db = ctx.db();
      await emptySchema(db);
      const real = await loadMigrations();
      await migrate(db, { migrations: real.slice(0, 1) });
      const edited = [{ ...real[0], checksum: 'edited' }, ...real.slice(1)];
      await expect(migrate(db, { migrations: edited })).rejects.toThrow(/001_users.sql changed after it was applied/);
      await migrate(db);
      await expect(migrate(db, { migrations: real.slice(0, 3) })).rejects.toThrow(/schema is at version 8, newer than this server knows \(3\)/);
    });

    if (ctx.kind === 'postgres') {
      it('applies each step exactly once when two server processes migrate at the same time', async () => {
        const db = ctx.db();
        await emptySchema(db);
        const other = ctx.connectAgain();
        const [a, b] = await Promise.all([migrate(db), migrate(other)]);
        expect([...a, ...b].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
        expect(await db.query('SELECT version FROM schema_migrations ORDER BY version')).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((version) => ({ version })));
      });
    }
  },
  { migrated: false },
);
