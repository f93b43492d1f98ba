/** Picks the database: DATABASE_URL means a PostgreSQL server; otherwise embedded PGlite in a data folder. */
import path from 'node:path';
import type { Db } from './db';
import { openPgDb } from './pgDb';
import { openPgliteDb } from './pgliteDb';

export const DEFAULT_DATA_DIR = 'spoc-server-data';

export interface DbChoice {
  databaseUrl?: string;
  /** Folder of the embedded database (default ./spoc-server-data), used when databaseUrl is unset. */
  dataDir?: string;
}

export async function openDb(choice: DbChoice): Promise<Db> {
  if (choice.databaseUrl) return openPgDb({ connectionString: choice.databaseUrl });
  return openPgliteDb(path.resolve(choice.dataDir ?? DEFAULT_DATA_DIR));
}

/** What the serve banner prints: never the password inside a DATABASE_URL. */
export function describeDb(choice: DbChoice): string {
  if (choice.databaseUrl) {
    try {
      const url = new URL(choice.databaseUrl);
      return `PostgreSQL at ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
    } catch {
      return 'PostgreSQL (DATABASE_URL)';
    }
  }
  return `embedded PostgreSQL (PGlite) in ${path.resolve(choice.dataDir ?? DEFAULT_DATA_DIR)}`;
}
