/**
 * The page's one connection to the project store. Opened once; React components read through
 * useDb() (suspends until open) and dexie-react-hooks' useLiveQuery, so every view follows the
 * database, and a reload shows exactly what was stored.
 *
 * Where the browser offers the Origin Private File System, the store is opened with the crash
 * journal (store/journal, docs/durability.md) and checked against it before anything may write:
 * the verdict waits in journalState() for the app's JournalGate.
 */
import { use } from 'react';
import { openSpocDb, type SpocDb } from '../store/db';
import { checkStore, openJournaledDb, openOpfsFiles } from '../store/journal';
import { setJournalState } from './journal';
import { notify } from './notices';

let dbPromise: Promise<SpocDb> | null = null;

export function getDb(): Promise<SpocDb> {
  dbPromise ??= openStore().then((db) => {
    // A newer version of the app opened in another tab needs to upgrade the schema: Dexie closes this
    // connection so the upgrade is not blocked; this tab must reload to keep saving.
    db.on('versionchange', () => {
      notify('error', 'SPOC Studio was updated in another tab. Reload this tab to keep working; nothing saved so far is lost.', { appWide: true });
    });
    return db;
  });
  return dbPromise;
}

async function openStore(): Promise<SpocDb> {
  const files = await openOpfsFiles();
  if (!files) {
    setJournalState({ journal: null, verdict: null });
    return openSpocDb();
  }
  const { db, journal } = await openJournaledDb(files);
  setJournalState({ journal, verdict: await checkStore(db, journal) });
  return db;
}

export function useDb(): SpocDb {
  return use(getDb());
}
