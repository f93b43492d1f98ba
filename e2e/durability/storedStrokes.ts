/**
 * What IndexedDB really holds, read with the raw IndexedDB API in the page (no app code runs), and
 * which planned strokes it contains: a stroke counts as stored when the frame's stored `gt` layer
 * covers its centre and both ends. COCO RLE is decoded with the pure mask code from src/masks (the
 * documented, pycocotools-exact format the app stores), in Node.
 */
import type { Page } from '@playwright/test';
import { decodeRle, parseCocoRle } from '../../src/masks/rle';
import { STROKE_HALF_LENGTH, type StrokeSpot } from './strokePlan';

const DB_NAME = 'spoc-studio';

export interface ClipRow {
  id: string;
  name: string;
  width: number;
  height: number;
  frameCount: number;
}

interface LayerRow {
  frameIndex: number;
  act: unknown;
  trf: unknown;
}

/** Rows of a store, filtered in the page (layers of other clips stay there), blobs left out. */
async function readStore<T>(page: Page, store: string, clipId: string | null, source: string | null): Promise<T[]> {
  return page.evaluate(
    async ({ name, store, clipId, source }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
        // A fresh origin (say, after the database was lost): do not create an empty one.
        req.onupgradeneeded = () => {
          req.transaction?.abort();
        };
      }).catch(() => null);
      if (!db) return [];
      if (!db.objectStoreNames.contains(store)) {
        db.close();
        return [];
      }
      const rows = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const req = db.transaction(store).objectStore(store).getAll();
        req.onsuccess = () => resolve(req.result as Record<string, unknown>[]);
        req.onerror = () => reject(req.error);
      });
      db.close();
      return rows
        .filter((r) => (clipId === null || r.clipId === clipId) && (source === null || r.source === source))
        .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => !(v instanceof Blob))));
    },
    { name: DB_NAME, store, clipId, source },
  ) as Promise<T[]>;
}

export function readClips(page: Page): Promise<ClipRow[]> {
  return readStore<ClipRow>(page, 'clips', null, null);
}

/** Number of stored revisions of the clip's gt layers (one per gesture the store accepted). */
export async function countRevisions(page: Page, clipId: string): Promise<number> {
  return (await readStore<unknown>(page, 'revisions', clipId, 'gt')).length;
}

/** The spots whose stroke the stored gt layers show. */
export async function storedSpots(page: Page, clipId: string, spots: readonly StrokeSpot[]): Promise<Set<number>> {
  const layers = await readStore<LayerRow>(page, 'layers', clipId, 'gt');
  const masks = new Map<number, { mask: Uint8Array; w: number; h: number }>();
  for (const layer of layers) {
    // act holds actionable pixels only; the strokes are actionable, but a trf pixel there would still be "painted".
    const act = parseCocoRle(layer.act);
    const trf = parseCocoRle(layer.trf);
    const [h, w] = act.size;
    const mask = decodeRle(act);
    const trfMask = decodeRle(trf);
    for (let i = 0; i < mask.length; i++) mask[i] |= trfMask[i];
    masks.set(layer.frameIndex, { mask, w, h });
  }
  const stored = new Set<number>();
  for (const spot of spots) {
    const m = masks.get(spot.frameIndex);
    if (!m) continue;
    const on = (x: number, y: number) => m.mask[y * m.w + x] !== 0;
    if (on(spot.x, spot.y) && on(spot.x - STROKE_HALF_LENGTH, spot.y) && on(spot.x + STROKE_HALF_LENGTH, spot.y)) stored.add(spot.n);
  }
  return stored;
}
