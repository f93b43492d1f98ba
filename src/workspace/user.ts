/**
 * The local user (no accounts): a name per browser profile, recorded as the author of every edit,
 * review step and comment.
 *
 * The name can change while a view is open (the header's "you are" field), and every row must carry
 * the name current *when it is written*, not when the view opened. So the name lives in a small
 * synchronous store per database: the header writes through it (the new name is in force at once,
 * before IndexedDB has it), writers read `current` at the moment they write, and a renamed user in
 * another tab arrives through a Dexie live query while anyone is subscribed.
 *
 * A rename is also noted synchronously in localStorage until IndexedDB has it: Enter followed at once
 * by a reload can leave the page before the IndexedDB write commits, and the next start finishes it.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { liveQuery, type Subscription } from 'dexie';
import type { SpocDb } from '../store/db';
import { getUserName, setUserName } from '../store/meta';

export const DEFAULT_USER = 'annotator';

/** localStorage key of a rename not yet confirmed stored in IndexedDB. */
export const PENDING_NAME_KEY = 'spoc.user.pendingName';

type Listener = () => void;

/** The part of localStorage the store uses (absent in Node, or where storage is blocked). */
export type NameNote = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function pageStorage(): NameNote | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage blocked by the browser's settings
  }
}

export class UserNameStore {
  private name = DEFAULT_USER;
  private readonly listeners = new Set<Listener>();
  private readonly loaded: Promise<void>;
  /** Local writes not yet committed: what the store reads meanwhile is older than `name`. */
  private writing = 0;
  /** Bumped by every local rename, so a read that started before it cannot undo it. */
  private renames = 0;
  private watch: Subscription | null = null;

  constructor(
    private readonly db: SpocDb,
    private readonly note: NameNote | null = pageStorage(),
  ) {
    const unfinished = readNote(note);
    if (unfinished) {
      // The last rename may not have reached IndexedDB (the page went away first): finish it.
      this.loaded = this.set(unfinished).catch(() => undefined);
      return;
    }
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
    if (!trimmed || (trimmed === this.name && readNote(this.note) !== trimmed)) return;
    this.renames++;
    this.writing++;
    this.adopt(trimmed);
    writeNote(this.note, trimmed);
    try {
      await setUserName(this.db, trimmed);
      // Stored: the note is done with, unless a later rename replaced it meanwhile.
      if (readNote(this.note) === trimmed) writeNote(this.note, null);
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

function readNote(note: NameNote | null): string | null {
  try {
    return note?.getItem(PENDING_NAME_KEY)?.trim() || null;
  } catch {
    return null;
  }
}

function writeNote(note: NameNote | null, name: string | null): void {
  try {
    if (name === null) note?.removeItem(PENDING_NAME_KEY);
    else note?.setItem(PENDING_NAME_KEY, name);
  } catch {
    // A full or blocked localStorage only loses the reload safety net; IndexedDB still gets the name.
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
