/**
 * The page's one connection to the project store. Opened once; React components read through
 * useDb() (suspends until open) and dexie-react-hooks' useLiveQuery, so every view follows the
 * database, and a reload shows exactly what was stored.
 */
import { use } from 'react';
import { openSpocDb, type SpocDb } from '../store/db';
import { notify } from './notices';

let dbPromise: Promise<SpocDb> | null = null;

export function getDb(): Promise<SpocDb> {
  dbPromise ??= openSpocDb().then((db) => {
    // A newer version of the app opened in another tab needs to upgrade the schema: Dexie closes this
    // connection so the upgrade is not blocked; this tab must reload to keep saving.
    db.on('versionchange', () => {
      notify('error', 'SPOC Studio was updated in another tab. Reload this tab to keep working; nothing saved so far is lost.');
    });
    return db;
  });
  return dbPromise;
}

export function useDb(): SpocDb {
  return use(getDb());
}
