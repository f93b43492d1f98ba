/**
 * The database stops answering. A write to IndexedDB can go unanswered for good: on a full disk
 * Chromium has left the editor's transaction neither committed nor aborted (the quota run found it),
 * and a transaction another tab keeps open holds every later one on the same stores. The run makes
 * the second happen for real, from a raw IndexedDB connection that keeps a read-write transaction on
 * the editor's stores alive, and checks from the outside that:
 *   1. the page says saving is not answering (and a reload would ask first);
 *   2. once the database answers again, everything painted meanwhile is stored;
 *   3. when it never answers and the browser is killed, every stroke is stored after a relaunch
 *      (the app kept them elsewhere while the write hung).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { launchChromium, sleep, type RunningChromium } from './chromiumProcess';
import { createDemo, openFrame, paintStroke, waitSaved, waitSaveStatus } from './appDriver';
import { StrokeLedger } from './strokeLedger';
import type { Log, RunResult } from './runResult';

const APP_DB = 'spoc-studio';

export interface StallResult extends RunResult {
  /** 1: the save indicator said "not answering" while the database was held (release / kill part). */
  stallShown: [boolean, boolean];
  /** 1: the notice the page raised about it. */
  notice: string | null;
  /** 1: a reload while the write hung raised a beforeunload prompt (answered "stay"). */
  promptWhileStalled: boolean;
  /** 2: once the database answered again, the page reported every edit saved. */
  savedAfterRelease: boolean;
  storedAfterRelease: number;
}

export async function runStall(options: { baseURL: string; seed: number; log?: Log }): Promise<StallResult> {
  const { baseURL, seed, log = () => undefined } = options;
  const started = Date.now();
  const profile = mkdtempSync(join(tmpdir(), 'spoc-durability-stall-'));
  const notes: string[] = [];
  const note = (line: string) => {
    notes.push(line);
    log(`stall: ${line}`);
  };
  const dialogs: string[] = [];
  let browser: RunningChromium | null = null;
  const firstPage = async (b: RunningChromium): Promise<Page> => {
    const page = b.context.pages()[0] ?? (await b.context.newPage());
    page.on('dialog', (d) => {
      dialogs.push(d.type());
      void d.dismiss().catch(() => undefined);
    });
    return page;
  };
  try {
    browser = await launchChromium(profile);
    let page = await firstPage(browser);
    const clip = await createDemo(page, baseURL);
    const ledger = new StrokeLedger(clip);
    const frame = ledger.nextSpot().frameIndex;
    const paint = async () => {
      const spot = ledger.nextSpot();
      await paintStroke(page, spot);
      ledger.record(spot, 0, null);
    };
    await openFrame(page, baseURL, clip.id, frame);
    await paint();
    if (!(await waitSaved(page))) throw new Error('stallRun: a stroke painted with the database answering was not saved');

    // 1 and 2: held, then released.
    await holdDatabase(page);
    for (let i = 0; i < 3; i++) await paint();
    const firstStall = await stallShown(page);
    const notice = firstStall ? await page.getByText(/Saving is not answering: /).first().textContent().catch(() => null) : null;
    await page.evaluate(() => setTimeout(() => location.reload(), 0));
    await sleep(1500);
    const promptWhileStalled = dialogs.splice(0).includes('beforeunload');
    note(`held: ${firstStall ? 'the page says saving is not answering' : 'no stall shown'}; a reload ${promptWhileStalled ? 'asked first (stayed)' : 'did not ask'}`);
    await releaseDatabase(page);
    const savedAfterRelease = await waitSaved(page, 20_000);
    await ledger.check(page, clip.id, 0);
    const storedAfterRelease = ledger.strokes.filter((s) => s.status === 'stored').length;
    note(`released: ${savedAfterRelease ? 'every edit saved' : 'saving did not catch up'}; ${storedAfterRelease} of ${ledger.strokes.length} strokes stored`);

    // 3: held for good, then the browser is killed.
    await holdDatabase(page);
    for (let i = 0; i < 3; i++) await paint();
    const secondStall = await stallShown(page);
    await sleep(1000); // the notice is up; what the app keeps, it keeps as the stall is reported
    await browser.kill();
    browser = await launchChromium(profile);
    page = await firstPage(browser);
    await openFrame(page, baseURL, clip.id, frame);
    await ledger.check(page, clip.id, 10_000);
    const stored = ledger.strokes.filter((s) => s.status === 'stored').length;
    note(`killed while held: after a relaunch ${stored} of ${ledger.strokes.length} strokes are stored`);
    return {
      mode: 'kill',
      seed,
      cycles: 1,
      strokes: ledger.strokes,
      lost: ledger.lost,
      dialogs: promptWhileStalled ? 1 : 0,
      ms: Date.now() - started,
      notes,
      stallShown: [firstStall, secondStall],
      notice,
      promptWhileStalled,
      savedAfterRelease,
      storedAfterRelease,
    };
  } finally {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Waits for the save indicator to report a write that goes unanswered. */
function stallShown(page: Page): Promise<boolean> {
  return waitSaveStatus(page, 'stalled', 'true', 30_000);
}

/**
 * Opens the app's database over a raw connection and keeps a read-write transaction on its stores
 * alive (a request issued from each one's success) until releaseDatabase(): every write of the
 * editor waits behind it.
 */
async function holdDatabase(page: Page): Promise<void> {
  await page.evaluate(
    (name) =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          const stores = [...db.objectStoreNames];
          const tx = db.transaction(stores, 'readwrite');
          const holder = window as unknown as { harnessHold?: boolean };
          holder.harnessHold = true;
          const store = tx.objectStore(stores[0]!);
          const spin = () => {
            if (!holder.harnessHold) return;
            store.count().onsuccess = spin;
          };
          spin();
          tx.oncomplete = () => db.close();
          resolve();
        };
      }),
    APP_DB,
  );
}

async function releaseDatabase(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { harnessHold?: boolean }).harnessHold = false;
  });
}
