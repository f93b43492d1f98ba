/**
 * Db on embedded PostgreSQL (PGlite: PostgreSQL compiled to WebAssembly, in this process), persisted
 * in a data folder, so a lab can try the server with one command and no database to install.
 * PGlite has one connection: queries queue behind a running transaction, which is what a single
 * process needs (a team with several processes uses a PostgreSQL server).
 */
import { mkdir } from 'node:fs/promises';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { checkChannelName, type Db, type Queryable } from './db';

/** dataDir null: in memory (tests). */
export async function openPgliteDb(dataDir: string | null): Promise<Db> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const lite = await PGlite.create(dataDir ?? undefined);
  const listeners = new Set<() => Promise<void>>();
  const queryOn = (on: PGlite | Transaction): Queryable['query'] =>
    async <T extends object>(sql: string, params: readonly unknown[] = []) => (await on.query<T>(sql, params as unknown[])).rows;

  const execOn = (on: PGlite | Transaction) => async (sql: string) => {
    await on.exec(sql);
  };

  return {
    kind: 'pglite',
    query: queryOn(lite),
    exec: execOn(lite),
    transaction: (fn) => lite.transaction((tx) => fn({ query: queryOn(tx), exec: execOn(tx) })),
    async listen(channel, onPayload) {
      const unlisten = await lite.listen(checkChannelName(channel), onPayload);
      const stop = async () => {
        if (!listeners.delete(stop)) return;
        await unlisten();
      };
      listeners.add(stop);
      return stop;
    },
    async notify(channel, payload) {
      await lite.query('SELECT pg_notify($1, $2)', [checkChannelName(channel), payload]);
    },
    async close() {
      // Listeners stop first: once closed, PGlite refuses even UNLISTEN.
      await Promise.all([...listeners].map((stop) => stop()));
      await lite.close();
    },
  };
}
