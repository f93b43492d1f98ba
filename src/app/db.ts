/**
 * The page's one connection to the project store. Opened once; React components read through
 * useDb() (suspends until open) and dexie-react-hooks' useLiveQuery, so every view follows the
 * database, and a reload shows exactly what was stored.
 */
import { use } from 'react';
import { openSpocDb, type SpocDb } from '../store/db';

let dbPromise: Promise<SpocDb> | null = null;

export function getDb(): Promise<SpocDb> {
  dbPromise ??= openSpocDb();
  return dbPromise;
}

export function useDb(): SpocDb {
  return use(getDb());
}
