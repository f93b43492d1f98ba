/**
 * The local user (no accounts): a name per browser profile, recorded as the author of every edit,
 * review step and comment.
 *
 * The name can change while a view is open (the header's "you are" field), and every row must carry
 * the name current *when it is written*, not when the view opened. So the name lives in a small
 * synchronous store per database: the header writes through it (the new name is in force at once,
 * before IndexedDB has it), writers read `current` at the moment they write, and a renamed user in
 * another tab arrives through a Dexie live query while anyone is subscribed.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { liveQuery, type Subscription } from 'dexie';
import type { SpocDb } from '../store/db';
import { getUserName, setUserName } from '../store/meta';

export const DEFAULT_USER = 'annotator';

type Listener = () => void;

export class UserNameStore {
  private name = DEFAULT_USER;
  private readonly listeners = new Set<Listener>();
  private readonly loaded: Promise<void>;
  /** Local writes not yet committed: what the store reads meanwhile is older than `name`. */
  private writing = 0;
  /** Bumped by every local rename, so a read that started before it cannot undo it. */
  private renames = 0;
  private watch: Subscription | null = null;

  constructor(private readonly db: SpocDb) {
    const renames = this.renames;
    this.loaded = getUserName(db).then(
      (stored) => {
        if (this.renames === renames) this.adopt(stored);
      },
      () => undefined, // unreadable: keep the default, the next live-query answer may do better
    );
  }

  /** The name in force now. */
  get current(): string {
    return this.name;
  }

  /** Resolves once the stored name has been read (the name a view opening now should start with). */
  ready(): Promise<void> {
    return this.loaded;
  }

  /**
   * Renames the local user: in force at once for every writer in this tab, then stored. A blank name
   * is ignored (an author must be someone). Resolves when the name is stored.
   */
  async set(name: string): Promise<void> {
    const trimmed = name.trim();
    if (!trimmed || trimmed === this.name) return;
    this.renames++;
    this.writing++;
    this.adopt(trimmed);
    try {
      await setUserName(this.db, trimmed);
    } finally {
      this.writing--;
    }
  }

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    if (!this.watch) {
      // Follows renames made in other tabs. Answers that arrive while a local write is in flight
      // describe the store before that write, so they are not taken.
      this.watch = liveQuery(() => getUserName(this.db)).subscribe({
        next: (stored) => {
          if (this.writing === 0) this.adopt(stored);
        },
        error: () => undefined,
      });
    }
    return () => {
      this.listeners.delete(fn);
      if (this.listeners.size === 0) {
        this.watch?.unsubscribe();
        this.watch = null;
      }
    };
  }

  private adopt(stored: string | undefined): void {
    const next = stored?.trim() || DEFAULT_USER;
    if (next === this.name) return;
    this.name = next;
    for (const fn of this.listeners) fn();
  }
}

const stores = new WeakMap<SpocDb, UserNameStore>();

/** The one name store of a database. */
export function userNames(db: SpocDb): UserNameStore {
  let store = stores.get(db);
  if (!store) {
    store = new UserNameStore(db);
    stores.set(db, store);
  }
  return store;
}

/** The name as it is now, re-rendering when it changes. */
export function useUserName(db: SpocDb): string {
  const store = userNames(db);
  const subscribe = useCallback((fn: Listener) => store.subscribe(fn), [store]);
  return useSyncExternalStore(subscribe, () => store.current);
}

/** The name to record for an action starting now (after the stored name has been read). */
export async function currentUserName(db: SpocDb): Promise<string> {
  const store = userNames(db);
  await store.ready();
  return store.current;
}

/**
 * A getter for writers that outlive one action (the editor session): each call answers with the name
 * in force at that moment.
 */
export function authorNow(db: SpocDb): () => string {
  const store = userNames(db);
  return () => store.current;
}
