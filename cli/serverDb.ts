/**
 * The database the server commands work on: DATABASE_URL (a PostgreSQL server) when set, else the
 * embedded one in --data DIR (default ./spoc-server-data). Opened with the schema brought up to date.
 */
import { DEFAULT_DATA_DIR, openDb, type DbChoice } from '../server/db/openDb';
import type { Db } from '../server/db/db';
import { migrate } from '../server/db/migrate';
import { resolvePath, type CliIo } from './io';

export function dbChoice(io: CliIo, dataDir: string | undefined): DbChoice {
  const databaseUrl = (io.env ?? process.env).DATABASE_URL;
  return databaseUrl ? { databaseUrl } : { dataDir: resolvePath(io, dataDir ?? DEFAULT_DATA_DIR) };
}

export async function openMigratedDb(choice: DbChoice): Promise<Db> {
  const db = await openDb(choice);
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
