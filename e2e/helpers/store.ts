/**
 * Reads the app's real IndexedDB from the page with the raw IndexedDB API (no app code), so specs
 * assert on what was stored, not on what the UI claims.
 */
import type { Page } from '@playwright/test';

export const DB_NAME = 'spoc-studio';

/**
 * Row count and primary keys of every object store: equal snapshots mean an unchanged store. The
 * journal's change number (journalMarks) is left out: it counts transactions, so a write undone
 * by a cleanup moves it on while every row is back as it was.
 */
export async function storeSnapshot(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const out: Record<string, string[]> = {};
    for (const store of Array.from(db.objectStoreNames)) {
      if (store === 'journalMarks') continue;
      const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
        const req = db.transaction(store).objectStore(store).getAllKeys();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      out[store] = keys.map((k) => JSON.stringify(k)).sort();
    }
    db.close();
    return out;
  }, DB_NAME);
}

export async function readRows<T>(page: Page, store: string): Promise<T[]> {
  return page.evaluate(
    async ({ name, store }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const rows = await new Promise<unknown[]>((resolve, reject) => {
        const req = db.transaction(store).objectStore(store).getAll();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      db.close();
      // Blobs do not cross into Node; describe them instead.
      return JSON.parse(JSON.stringify(rows, (_k, v) => (v instanceof Blob ? { blobSize: v.size, blobType: v.type } : v)));
    },
    { name: DB_NAME, store },
  ) as Promise<T[]>;
}

/** RGBA pixels of a region of a stored frame image, decoded by the browser. */
export async function storedFramePixels(
  page: Page,
  clipId: string,
  index: number,
  region: { x: number; y: number; w: number; h: number },
): Promise<{ width: number; height: number; data: number[]; imageWidth: number; imageHeight: number }> {
  return page.evaluate(
    async ({ name, clipId, index, region }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const row = await new Promise<{ blob: Blob } | undefined>((resolve, reject) => {
        const req = db.transaction('frameImages').objectStore('frameImages').get([clipId, index]);
        req.onsuccess = () => resolve(req.result as { blob: Blob } | undefined);
        req.onerror = () => reject(req.error);
      });
      db.close();
      if (!row) throw new Error(`no stored image for frame ${index} of clip ${clipId}`);
      const bitmap = await createImageBitmap(row.blob);
      const canvas = new OffscreenCanvas(region.w, region.h);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, -region.x, -region.y);
      const data = Array.from(ctx.getImageData(0, 0, region.w, region.h).data);
      const result = { width: region.w, height: region.h, data, imageWidth: bitmap.width, imageHeight: bitmap.height };
      bitmap.close();
      return result;
    },
    { name: DB_NAME, clipId, index, region },
  );
}
