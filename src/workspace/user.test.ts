import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Dexie } from 'dexie';
import { openSpocDb, type SpocDb } from '../store/db';
import { getUserName, setUserName } from '../store/meta';
import { fakeIdb, freshDb } from '../testing/storeFixtures';
import { DEFAULT_USER, PENDING_NAME_KEY, UserNameStore, currentUserName, userNames, type NameNote } from './user';

/** localStorage as a Map. */
function memoryNote(init: Record<string, string> = {}): NameNote & { map: Map<string, string> } {
  const map = new Map(Object.entries(init));
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

let db: SpocDb;
beforeEach(async () => {
  db = await freshDb();
});
afterEach(() => db.close());

describe('the user name store', () => {
  it('starts from the stored name, or the default when none is stored', async () => {
    expect(await currentUserName(db)).toBe(DEFAULT_USER);
    await setUserName(db, 'ann');
    const fresh = new UserNameStore(db);
    await fresh.ready();
    expect(fresh.current).toBe('ann');
  });

  it('puts a rename in force at once, stores it, and tells subscribers', async () => {
    const store = userNames(db);
    await store.ready();
    const heard: string[] = [];
    const stop = store.subscribe(() => heard.push(store.current));
    const saving = store.set('  bob  ');
    expect(store.current).toBe('bob'); // before the write has committed
    await saving;
    expect(await getUserName(db)).toBe('bob');
    expect(heard).toEqual(['bob']);
    stop();
  });

  it('ignores a blank name', async () => {
    const store = userNames(db);
    await store.set('ann');
    await store.set('   ');
    expect(store.current).toBe('ann');
    expect(await getUserName(db)).toBe('ann');
  });

  it('a read of the store started before a rename does not undo it', async () => {
    await setUserName(db, 'old');
    const store = new UserNameStore(db); // its first read is under way
    await store.set('new');
    await store.ready();
    expect(store.current).toBe('new');
  });

  it('follows a rename written by another tab while subscribed', async () => {
    // Two connections to one fake IndexedDB stand for two tabs. Dexie's liveQuery stays idle in Node
    // unless the fake IndexedDB is its dependency (as in externalChanges.test.ts).
    const saved = { ...Dexie.dependencies };
    const idb = fakeIdb();
    Object.assign(Dexie.dependencies, idb);
    const here = await openSpocDb('spoc-user-tabs', idb);
    const there = await openSpocDb('spoc-user-tabs', idb);
    try {
      const store = userNames(here);
      await store.ready();
      const stop = store.subscribe(() => undefined);
      await setUserName(there, 'from-another-tab');
      await expect.poll(() => store.current).toBe('from-another-tab');
      stop();
    } finally {
      here.close();
      there.close();
      Object.assign(Dexie.dependencies, saved);
    }
  });

  it('notes a rename until IndexedDB has it, so a reload right after Enter keeps it', async () => {
    const note = memoryNote();
    const store = new UserNameStore(db, note);
    await store.ready();
    const saving = store.set('dora');
    expect(note.map.get(PENDING_NAME_KEY)).toBe('dora'); // written before anything is awaited
    await saving;
    expect(note.map.has(PENDING_NAME_KEY)).toBe(false);
    expect(await getUserName(db)).toBe('dora');
  });

  it('finishes a rename whose IndexedDB write was lost when the page went away', async () => {
    await setUserName(db, 'old');
    const note = memoryNote({ [PENDING_NAME_KEY]: 'dora' }); // the page left before the write committed
    const store = new UserNameStore(db, note);
    await store.ready();
    expect(store.current).toBe('dora');
    expect(await getUserName(db)).toBe('dora');
    expect(note.map.has(PENDING_NAME_KEY)).toBe(false);
  });
});
