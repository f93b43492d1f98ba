/**
 * Row identity in the real browser (docs/sync.md "Row identity"): strokes painted, a reload, and
 * undo leave revision rows in the page's IndexedDB that each carry a unique time-ordered UUID (v7),
 * increasing with seq, and the id index finds them; undo works as before.
 */
import { test, expect, type Page } from '@playwright/test';
import { readRows } from './helpers/store';
import { drag, openEditor, waitSaved } from './helpers/editor';

interface RevisionRow { seq: number; id: string; clipId: string; frameIndex: number; source: string }
interface LayerRow { clipId: string; frameIndex: number; source: string; actArea: number }

const CLIP = 'peeling potato (demo 2)';
const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const timeOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

async function clipRevisions(page: Page, clipId: string): Promise<RevisionRow[]> {
  return (await readRows<RevisionRow>(page, 'revisions')).filter((r) => r.clipId === clipId).sort((a, b) => a.seq - b.seq);
}

async function actArea(page: Page, clipId: string, frame: number): Promise<number> {
  return (await readRows<LayerRow>(page, 'layers')).find((l) => l.clipId === clipId && l.source === 'gt' && l.frameIndex === frame)?.actArea ?? 0;
}

/** Seqs the page's IndexedDB finds through the `id` index (raw IndexedDB, no app code). */
async function seqsById(page: Page, ids: string[]): Promise<(number | null)[]> {
  return page.evaluate(async (ids) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('spoc-studio');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const index = db.transaction('revisions').objectStore('revisions').index('id');
    const unique = index.unique;
    const out = await Promise.all(
      ids.map(
        (id) =>
          new Promise<number | null>((resolve, reject) => {
            const req = index.get(id);
            req.onsuccess = () => resolve((req.result as { seq: number } | undefined)?.seq ?? null);
            req.onerror = () => reject(req.error);
          }),
      ),
    );
    db.close();
    return unique ? out : [];
  }, ids);
}

test('every revision row gets a unique UUIDv7 id in seq order, through a reload and undo', async ({ page }) => {
  const started = Date.now();
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  await openEditor(page, CLIP);
  const clipId = (await readRows<{ id: string; name: string }>(page, 'clips')).find((c) => c.name === CLIP)!.id;

  await page.keyboard.press('1');
  await drag(page, 100, 100, 200, 100);
  await drag(page, 100, 140, 200, 140);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 2 / 20');
  await drag(page, 100, 100, 300, 100);
  await waitSaved(page);
  const painted = await clipRevisions(page, clipId);
  expect(painted).toHaveLength(3);
  const twoStrokes = await actArea(page, clipId, 0);
  expect(twoStrokes).toBeGreaterThan(0);

  // After a reload (a new page, a new id generator) undo still works from the stored log.
  await page.reload();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', /\d/);
  await page.getByTestId('timeline-frame').nth(0).click();
  await expect(page.getByTestId('frame-indicator')).toHaveText('frame 1 / 20');
  await page.keyboard.press('Control+z');
  await waitSaved(page);
  const oneStroke = await actArea(page, clipId, 0);
  expect(oneStroke).toBeGreaterThan(0);
  expect(oneStroke).toBeLessThan(twoStrokes);
  await page.keyboard.press('Control+z');
  await waitSaved(page);
  expect(await actArea(page, clipId, 0)).toBe(0);
  await page.keyboard.press('Control+y');
  await waitSaved(page);
  expect(await actArea(page, clipId, 0)).toBe(oneStroke);

  const rows = await clipRevisions(page, clipId);
  expect(rows.length).toBeGreaterThan(painted.length);
  // The rows written before the reload kept their ids.
  expect(rows.slice(0, 3).map((r) => r.id)).toEqual(painted.map((r) => r.id));
  for (const r of rows) {
    expect(r.id).toMatch(V7);
    expect(timeOf(r.id)).toBeGreaterThanOrEqual(started);
    expect(timeOf(r.id)).toBeLessThanOrEqual(Date.now());
  }
  const ids = rows.map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toEqual([...ids].sort());
  // The unique `id` index of schema v8 finds each row.
  expect(await seqsById(page, ids)).toEqual(rows.map((r) => r.seq));
});
