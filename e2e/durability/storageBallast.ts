/**
 * Fills whatever room is left in the origin's quota, the way other data filling the disk would,
 * and gives it back: a database of the harness's own ("harness-ballast") holding incompressible
 * chunks. It lets a run keep saving failing for as long as it needs, even after the app frees
 * space of its own (its journal reserve).
 */
import type { Page } from '@playwright/test';

const BALLAST_DB = 'harness-ballast';

/** Writes chunks until the quota refuses one (then smaller ones); returns the bytes written. */
export async function fillQuota(page: Page, maxBytes = 64 * 2 ** 20): Promise<number> {
  return page.evaluate(
    async ({ name, maxBytes }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name, 1);
        req.onupgradeneeded = () => req.result.createObjectStore('chunks', { autoIncrement: true });
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      // No named helper functions in here: tsx (the soak runner) would wrap them in a __name() call
      // that does not exist in the page.
      let written = 0;
      for (let size = 256 * 1024; size >= 4096 && written < maxBytes; ) {
        const chunk = new Uint8Array(size);
        // getRandomValues fills at most 64 KiB per call; random bytes defeat IndexedDB's compression.
        for (let at = 0; at < size; at += 65536) crypto.getRandomValues(chunk.subarray(at, Math.min(size, at + 65536)));
        const stored = await new Promise<boolean>((resolve) => {
          const tx = db.transaction('chunks', 'readwrite');
          tx.objectStore('chunks').put(chunk);
          tx.oncomplete = () => resolve(true);
          tx.onabort = () => resolve(false);
        });
        if (stored) written += size;
        else size /= 4;
      }
      db.close();
      return written;
    },
    { name: BALLAST_DB, maxBytes },
  );
}

/** Gives the room back. */
export async function dropBallast(page: Page): Promise<void> {
  await page.evaluate(
    (name) =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.deleteDatabase(name);
        req.onsuccess = () => resolve();
        req.onerror = () => reject(req.error);
      }),
    BALLAST_DB,
  );
}
