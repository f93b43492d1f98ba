import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from './db';
import { deleteMeta, getMeta, getUserName, markDemoOffered, setMeta, setUserName, shouldOfferDemo } from './meta';
import { createProject } from './projects';
import { freshDb } from '../testing/storeFixtures';

let db: SpocDb;
beforeEach(async () => {
  db = await freshDb();
});
afterEach(() => db.close());

describe('meta', () => {
  it('stores structured values by key', async () => {
    expect(await getMeta(db, 'ui.panel')).toBeUndefined();
    await setMeta(db, 'ui.panel', { open: true, width: 320 });
    expect(await getMeta(db, 'ui.panel')).toEqual({ open: true, width: 320 });
    await deleteMeta(db, 'ui.panel');
    expect(await getMeta(db, 'ui.panel')).toBeUndefined();
  });

  it('keeps a trimmed user name; blank clears it', async () => {
    await setUserName(db, '  Ana ');
    expect(await getUserName(db)).toBe('Ana');
    await setUserName(db, ' ');
    expect(await getUserName(db)).toBeUndefined();
  });

  it('offers the demo once, and never to a store that already has projects', async () => {
    expect(await shouldOfferDemo(db)).toBe(true);
    await markDemoOffered(db);
    expect(await shouldOfferDemo(db)).toBe(false);

    const other = await freshDb();
    await createProject(other, { name: 'work' });
    expect(await shouldOfferDemo(other)).toBe(false);
    other.close();
  });
});
