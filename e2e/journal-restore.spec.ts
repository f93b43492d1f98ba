/**
 * The lost database (docs/durability.md): Chromium may delete a damaged IndexedDB database at an
 * ordinary restart and say nothing. Here the database is deleted between two page loads (CDP
 * Storage.clearDataForOrigin, IndexedDB only; the Origin Private File System stays), and the app
 * must notice, say so, and restore every row from its crash journal, compared row for row with
 * every blob's bytes.
 */
import { readFile } from 'node:fs/promises';
import { test, expect, type Page } from '@playwright/test';
import { unzipSync, strFromU8 } from 'fflate';
import { DB_NAME } from './helpers/store';
import { drag, openEditor, waitSaved } from './helpers/editor';

/** Every row of every object store; blobs as SHA-256 of their bytes. */
async function everyRow(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const hex = (b: ArrayBuffer) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('');
    const describe = async (v: unknown): Promise<unknown> => {
      if (v instanceof Blob) return { blob: hex(await crypto.subtle.digest('SHA-256', await v.arrayBuffer())), type: v.type, size: v.size };
      if (Array.isArray(v)) return Promise.all(v.map(describe));
      if (v && typeof v === 'object') {
        const out: Record<string, unknown> = {};
        for (const k of Object.keys(v).sort()) out[k] = await describe((v as Record<string, unknown>)[k]);
        return out;
      }
      return v;
    };
    const out: Record<string, string[]> = {};
    for (const store of Array.from(db.objectStoreNames)) {
      const rows = await new Promise<unknown[]>((resolve, reject) => {
        const req = db.transaction(store).objectStore(store).getAll();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      // The journal mark: only its change number counts (a rebuild writes the row anew).
      const comparable = store === 'journalMarks' ? rows.map((r) => (r as { seq: number }).seq) : rows;
      out[store] = (await Promise.all(comparable.map(async (r) => JSON.stringify(await describe(r))))).sort();
    }
    db.close();
    return out;
  }, DB_NAME);
}

/** Waits until the journal holds every change the store does (appends run after each commit). */
async function journalCaughtUp(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async (name) => {
          try {
            const db = await new Promise<IDBDatabase>((resolve, reject) => {
              const req = indexedDB.open(name);
              req.onsuccess = () => resolve(req.result);
              req.onerror = () => reject(req.error);
            });
            const seq = await new Promise<unknown>((resolve) => {
              const req = db.transaction('journalMarks').objectStore('journalMarks').getAllKeys();
              req.onsuccess = () => resolve((req.result as number[]).at(-1) ?? 0);
            });
            db.close();
            const root = await (await navigator.storage.getDirectory()).getDirectoryHandle('spoc-journal');
            const names: string[] = [];
            for (const dir of ['tx', 'snap']) {
              const d = await root.getDirectoryHandle(dir, { create: true });
              for await (const n of (d as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(`${dir}/${n}`);
            }
            const txMax = Math.max(0, ...names.filter((n) => /^tx\/\d{12}\.rec$/.test(n)).map((n) => Number(n.slice(3, 15))));
            let through = 0;
            if (names.includes('snap/manifest.json')) {
              const f = await (await (await root.getDirectoryHandle('snap')).getFileHandle('manifest.json')).getFile();
              through = (JSON.parse(await f.text()) as { compactedThrough: number }).compactedThrough;
            }
            return seq === Math.max(txMax, through) && (seq as number) > 0;
          } catch {
            return false; // a journal file replaced while being read: ask again
          }
        }, DB_NAME),
      { timeout: 15_000 },
    )
    .toBe(true);
}

async function deleteDatabaseOnly(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', { origin: new URL(page.url()).origin, storageTypes: 'indexeddb' });
  await cdp.detach();
}

test('a deleted database is noticed on start and restored from the journal, row for row', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  await openEditor(page, 'peeling potato (demo 2)');
  await page.keyboard.press('1');
  await drag(page, 100, 100, 300, 120);
  await page.keyboard.press('2');
  await drag(page, 120, 200, 260, 210);
  await waitSaved(page);
  await journalCaughtUp(page);
  const before = await everyRow(page);
  expect(before.layers.length).toBeGreaterThan(0);
  expect(before.frameImages.length).toBeGreaterThan(10);

  await page.goto('about:blank');
  await page.goto('/');
  await deleteDatabaseOnly(page);
  await page.reload();

  const panel = page.getByRole('alertdialog');
  await expect(panel).toContainText('Your projects are missing from this browser’s database');
  await panel.getByRole('button', { name: 'Restore from the journal' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Restored from the crash journal: 1 project, 3 clips.' })).toBeVisible({ timeout: 60_000 });
  expect(await everyRow(page)).toEqual(before);

  // The restored store is the working store again: the projects page lists the project.
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
});

test('after a compaction too, and the journal can be downloaded as importable bundles', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  await journalCaughtUp(page);
  // A full compaction runs on the next start (the journal has no snapshots yet): wait for it.
  await page.reload();
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const root = await (await navigator.storage.getDirectory()).getDirectoryHandle('spoc-journal');
          const snap = await root.getDirectoryHandle('snap', { create: true });
          const names: string[] = [];
          for await (const n of (snap as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(n);
          return names.filter((n) => n.startsWith('clip-') && n.endsWith('.rec')).length;
        }),
      { timeout: 30_000 },
    )
    .toBe(3);
  await openEditor(page, 'grating carrot (demo 1)');
  await page.keyboard.press('1');
  await drag(page, 50, 60, 200, 60);
  await waitSaved(page);
  await journalCaughtUp(page);
  const before = await everyRow(page);

  await page.goto('/');
  await deleteDatabaseOnly(page);
  await page.reload();
  const panel = page.getByRole('alertdialog');
  await expect(panel).toBeVisible();
  const download = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Download the journal as bundles' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.spoc\.zip$/);
  // An ordinary project bundle: its manifest counts what the store held.
  const zip = unzipSync(new Uint8Array(await readFile(await file.path())), { filter: (f) => f.name === 'manifest.json' });
  const manifest = JSON.parse(strFromU8(zip['manifest.json'])) as { counts: { clips: number; layers: number; frameImages: number } };
  expect(manifest.counts.clips).toBe(3);
  expect(manifest.counts.frameImages).toBe(before.frameImages.length);
  await panel.getByRole('button', { name: 'Restore from the journal' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Restored from the crash journal' })).toBeVisible({ timeout: 60_000 });
  expect(await everyRow(page)).toEqual(before);
});
