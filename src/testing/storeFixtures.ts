/**
 * Test-only helpers for the store's Vitest suites (Node + fake-indexeddb). Not exported from index.ts.
 * Kept free of vitest imports so any test runner or bench can reuse them.
 *
 * Blobs: fake-indexeddb 6 clones values with Node's structuredClone, which handles Blob on Node 20,
 * so frame images are stored as real Blobs here exactly as in the browser (frames.test.ts checks the
 * bytes come back).
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openSpocDb, type SpocDb, type SpocDbOptions } from '../store/db';
import type { ClipImportDraft, DraftLayer } from '../store/importCommit';
import { StoreError } from '../store/errors';
import type { Rle } from '../store/types';

/** A private IndexedDB per test: no cross-test leakage, no global polyfill. */
export function fakeIdb(): SpocDbOptions {
  return { indexedDB: new IDBFactory(), IDBKeyRange };
}

export async function freshDb(): Promise<SpocDb> {
  return openSpocDb('spoc-test', fakeIdb());
}

/** Fresh stores for the tests of a file: `open` one, and `closeAll` of them after each test. */
export function storePool(): { open: () => Promise<SpocDb>; closeAll: () => void } {
  const opened: SpocDb[] = [];
  return {
    open: async () => {
      const db = await freshDb();
      opened.push(db);
      return db;
    },
    closeAll: () => {
      for (const db of opened.splice(0)) db.close();
    },
  };
}

/** pycocotools rleToString, written independently of src/store/rleArea.ts so tests check one against the other. */
export function countsToString(runs: readonly number[]): string {
  let s = '';
  for (let i = 0; i < runs.length; i++) {
    let x = runs[i];
    if (i > 2) x -= runs[i - 2];
    let more = true;
    while (more) {
      let c = x & 0x1f;
      x >>= 5;
      more = c & 0x10 ? x !== -1 : x !== 0;
      if (more) c |= 0x20;
      s += String.fromCharCode(c + 48);
    }
  }
  return s;
}

/**
 * RLE from a picture: one string per row, '#' = set. COCO runs go down columns (column-major),
 * which is exactly what a row-major test picture would get wrong if the code mixed them up.
 */
export function rleFromPicture(rows: readonly string[]): Rle {
  const h = rows.length;
  const w = rows[0]?.length ?? 0;
  const runs: number[] = [];
  let current = 0;
  let run = 0;
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) {
      const v = rows[y][x] === '#' ? 1 : 0;
      if (v !== current) {
        runs.push(run);
        run = 0;
        current = v;
      }
      run++;
    }
  }
  runs.push(run);
  return { size: [h, w], counts: countsToString(runs) };
}

/** `area` pixels set at the start (column-major) of an h x w mask. */
export function rleWithArea(h: number, w: number, area: number): Rle {
  const runs = area === 0 ? [h * w] : [0, area, h * w - area];
  if (area === h * w) runs.pop();
  return { size: [h, w], counts: countsToString(runs) };
}

export function pngBlob(seed: number, bytes = 64): Blob {
  const data = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) data[i] = (seed * 31 + i) & 0xff;
  return new Blob([data], { type: 'image/png' });
}

export const W = 8;
export const H = 6;

export function clipDraft(projectId: string, overrides: Partial<ClipImportDraft['clip']> = {}): ClipImportDraft['clip'] {
  return {
    projectId,
    name: 'peel banana 01',
    width: W,
    height: H,
    frameCount: 3,
    sampleFps: 1,
    source: { kind: 'video', fileName: 'banana.mp4', durationSec: 3 },
    osc: { verb: 'peel', noun: 'banana', actionable: 'unpeeled banana', transformed: 'peeled banana' },
    subset: 'seen',
    status: 'todo',
    ...overrides,
  };
}

export function gtLayer(frameIndex: number, actArea: number, trfArea: number): DraftLayer {
  return {
    frameIndex,
    source: 'gt',
    act: rleWithArea(H, W, actArea),
    trf: rleWithArea(H, W, trfArea),
    provenance: { kind: 'imported', by: 'wtc-importer', at: 1 },
  };
}

/** A valid draft of `n` frames with gt layers on frames 0 and 1. */
export function importDraft(projectId: string, n = 3, extra: Partial<ClipImportDraft> = {}): ClipImportDraft {
  return {
    projectId,
    clip: clipDraft(projectId, { frameCount: n }),
    frames: Array.from({ length: n }, (_, i) => ({ timestampSec: i, image: pngBlob(i), mime: 'image/png' })),
    layers: [gtLayer(0, 5, 0), gtLayer(1, 3, 4)].filter((l) => l.frameIndex < n),
    thumbnail: pngBlob(99, 16),
    ...extra,
  };
}

/**
 * Every row of every table, blobs replaced by their bytes, so two snapshots compare with toEqual:
 * the check that a failed import left the store exactly as it was.
 */
export async function snapshot(db: SpocDb): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of db.tables) {
    const rows = await table.toArray();
    out[table.name] = await Promise.all(rows.map(unblob));
  }
  return out;
}

async function unblob(row: unknown): Promise<unknown> {
  if (row instanceof Blob) return { blob: Array.from(new Uint8Array(await row.arrayBuffer())), type: row.type };
  if (Array.isArray(row)) return Promise.all(row.map(unblob));
  if (row && typeof row === 'object') {
    const entries = await Promise.all(Object.entries(row).map(async ([k, v]) => [k, await unblob(v)] as const));
    return Object.fromEntries(entries);
  }
  return row;
}

/** The StoreError a promise rejects with; throws (failing the test) when it resolves or fails otherwise. */
export async function storeRejection(p: Promise<unknown>): Promise<StoreError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof StoreError)) throw new Error(`expected a StoreError, got ${err === null ? 'success' : String(err)}`);
  return err;
}
