/**
 * Test support: "tabs" of one origin in one process. Node 20 has no Web Locks, so the lock table is
 * an in-memory stand-in with the API's ifAvailable semantics; e2e/two-tabs.spec.ts runs the real one.
 */
import { ClipLocks, type LockManagerLike } from '../workspace/clipLocks';
import { replacePageClipLocks } from '../workspace/clipWriteLock';

/** One origin's lock table, shared by the "tabs" built on it. */
export function sharedLockManager(): LockManagerLike {
  const taken = new Set<string>();
  return {
    async request(name, _options, callback) {
      if (taken.has(name)) return callback(null);
      taken.add(name);
      try {
        return await callback({ name });
      } finally {
        taken.delete(name);
      }
    },
  };
}

/** A released lock is free once its callback has returned (a few microtasks later). */
export const settle = () => new Promise((r) => setTimeout(r, 0));

/**
 * This process's page locks become one tab ("here") of an origin with a second tab ("elsewhere"),
 * e.g. the editor of a clip. Call `restore` after the test.
 */
export function twoTabs(): { here: ClipLocks; elsewhere: ClipLocks; restore: () => void } {
  const locks = sharedLockManager();
  const here = new ClipLocks({ tabId: 'here', locks });
  const elsewhere = new ClipLocks({ tabId: 'elsewhere', locks });
  return { here, elsewhere, restore: replacePageClipLocks(here) };
}
