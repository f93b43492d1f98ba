import type { SpocDb } from './db';

/**
 * App-level settings as key/value rows. Keys are named here, not spread through the app, so the
 * full list of what the app remembers is in one place.
 */
export const META_KEYS = {
  userName: 'user.name',
  demoOffered: 'demo.offered',
  /** Eq. 1 thresholds per verb: { [verb]: { tau, delta } } (src/inference/ui/proposals/thresholds.ts). */
  eq1ByVerb: 'inference.eq1ByVerb',
} as const;

export async function getMeta<T>(db: SpocDb, key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined;
}

export async function setMeta(db: SpocDb, key: string, value: unknown): Promise<void> {
  await db.meta.put({ key, value });
}

export async function deleteMeta(db: SpocDb, key: string): Promise<void> {
  await db.meta.delete(key);
}

/** The name written into revisions and provenance; undefined until the user sets one. */
export async function getUserName(db: SpocDb): Promise<string | undefined> {
  return getMeta<string>(db, META_KEYS.userName);
}

export async function setUserName(db: SpocDb, name: string): Promise<void> {
  const trimmed = name.trim();
  if (trimmed) await setMeta(db, META_KEYS.userName, trimmed);
  else await deleteMeta(db, META_KEYS.userName);
}

/**
 * Offer the demo project once, and only to a store with no projects: someone who already has work,
 * or who declined (or accepted) before, is not asked again.
 */
export async function shouldOfferDemo(db: SpocDb): Promise<boolean> {
  return db.transaction('r', [db.meta, db.projects], async () => {
    if (await getMeta<number>(db, META_KEYS.demoOffered)) return false;
    return (await db.projects.count()) === 0;
  });
}

/** Remember that the demo was offered (whatever the answer), with when. */
export async function markDemoOffered(db: SpocDb): Promise<void> {
  await setMeta(db, META_KEYS.demoOffered, Date.now());
}
