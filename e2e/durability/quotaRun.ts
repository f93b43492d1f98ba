/**
 * The quota-full run. Chromium applies a quota override (CDP Storage.overrideQuotaForOrigin) only
 * to an origin whose storage it has not opened yet in this browser, and then enforces it with some
 * slack, so the run goes in three launches on one profile:
 *   1. create the demo and paint two strokes that are saved normally;
 *   2. set the quota to what the origin uses before the app opens, then
 *      a. paint until saving fails and the app says so, paint two more (edits that wait in the
 *         app) and reload at once, accepting any prompt: these edits must come back from the
 *         app's journal (the app may free its journal reserve here, so saves work again for a while);
 *      b. fill the room left with ballast, paint until saving fails steadily, and start a reload:
 *         the app must raise a beforeunload prompt. The harness answers "stay" and checks that the
 *         page did stay; then it drops the ballast, and the app's retries must store everything
 *         (or, when Chromium left a write unanswered, the page must say so, keep every edit in its
 *         journal, and the reload it asks for must store them);
 *   3. relaunch without the override (space freed): every stroke painted must be stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dialog, Page } from '@playwright/test';
import { launchChromium, sleep, type RunningChromium } from './chromiumProcess';
import { createDemo, openFrame, paintStroke, readyToPaint, saveState, waitSaved, waitSaveStatus } from './appDriver';
import { dropBallast, fillQuota } from './storageBallast';
import { StrokeLedger } from './strokeLedger';
import type { Log, RunResult } from './runResult';

export interface QuotaOptions {
  baseURL: string;
  seed: number;
  /** Bytes of quota above what the origin uses (default 0). */
  headroomBytes?: number;
  /** Strokes painted at most while waiting for a save to fail (and again to fail once more before the reload). */
  maxStrokesToFail?: number;
  /** Strokes painted once saving has failed: edits that only wait in the app. */
  strokesAfterFailure?: number;
  log?: Log;
}

export interface QuotaResult extends RunResult {
  /** The save indicator showed an error once the quota was full. */
  saveFailed: boolean;
  /** 2a: dialogs raised by the reload right after the first failure (accepted). */
  firstReloadDialogs: string[];
  /** 2b: saving failed steadily (through a retry) once the ballast filled the room left. */
  failedSteadily: boolean;
  /** 2b: the save indicator when the reload was started: a failing save makes a prompt due. */
  stateBeforeReload: string;
  /** 2b: failed attempts in a row when the reload was started (0: no save was failing). */
  retriesBeforeReload: number;
  /** 2b: dialogs the reload with a failing save raised (answered "stay"). */
  reloadDialogs: string[];
  /** 2b: after "stay", the same page was still there (nothing reloaded). */
  stayed: boolean;
  /** 2b: once the ballast was dropped, the page reported every edit saved. */
  savedAfterRoom: boolean;
  /** 2b: how: retries in the page that stayed, or (a write left unanswered) the reload the page asked for. */
  recovery: 'by itself' | 'by the reload it asked for' | 'not kept before the reload' | 'not saved';
  /** Strokes painted before the quota was full (saved normally). */
  storedBefore: number;
  /** Strokes stored after the relaunch with space freed. */
  storedAfter: number;
}

export async function runQuotaFull(options: QuotaOptions): Promise<QuotaResult> {
  const { baseURL, seed, headroomBytes = 0, maxStrokesToFail = 40, strokesAfterFailure = 2, log = () => undefined } = options;
  const started = Date.now();
  const profile = mkdtempSync(join(tmpdir(), 'spoc-durability-quota-'));
  const origin = new URL(baseURL).origin;
  const notes: string[] = [];
  const note = (line: string) => {
    notes.push(line);
    log(`quota: ${line}`);
  };
  const dialogTypes: string[] = [];
  const consoleLines: string[] = [];
  let answer: 'accept' | 'dismiss' = 'accept';
  let browser: RunningChromium | null = null;
  const firstPage = async (b: RunningChromium): Promise<Page> => {
    const page = b.context.pages()[0] ?? (await b.context.newPage());
    // The page's own errors say why a save hangs or fails; keep the first few for the report.
    page.on('console', (m) => {
      if ((m.type() === 'error' || m.type() === 'warning') && consoleLines.length < 20) consoleLines.push(`${m.type()}: ${m.text().slice(0, 300)}`);
    });
    page.on('pageerror', (e) => consoleLines.length < 20 && consoleLines.push(`pageerror: ${e.message.slice(0, 300)}`));
    page.on('dialog', (d: Dialog) => {
      dialogTypes.push(d.type());
      void (answer === 'accept' ? d.accept() : d.dismiss()).catch(() => undefined);
    });
    return page;
  };
  try {
    // 1. Work saved with room to spare.
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
    await paint();
    if (!(await waitSaved(page))) throw new Error('quotaRun: two strokes painted with the quota untouched were not saved');
    await ledger.check(page, clip.id, 0);
    const storedBefore = ledger.strokes.filter((s) => s.status === 'stored').length;
    // Read while the origin's storage is open: before that, a fresh launch reports a usage of 0.
    // Not navigator.storage.estimate(): Chromium reports usage + 10 GiB there, whatever the quota.
    const { usage } = await (await browser.context.newCDPSession(page)).send('Storage.getUsageAndQuota', { origin });
    await browser.close();

    // 2a. A full disk from the start of this launch; leave right after saving failed.
    // A quota of 0 means "no override" to Chromium.
    const quotaSize = Math.max(1, usage + headroomBytes);
    // The override does not always take on the first launch: check it, and relaunch if it did not.
    for (let attempt = 1; ; attempt++) {
      browser = await launchChromium(profile);
      page = await firstPage(browser);
      const cdp = await browser.context.newCDPSession(page);
      await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize });
      await openFrame(page, baseURL, clip.id, frame);
      const { quota } = await cdp.send('Storage.getUsageAndQuota', { origin });
      note(`quota set to ${quotaSize} bytes (usage ${usage}); Chromium reports a quota of ${quota} (launch ${attempt})`);
      if (quota <= quotaSize || attempt === 3) break;
      await browser.close();
    }
    let saveFailed = false;
    let firstBallast = 0;
    for (let i = 0; i < maxStrokesToFail && !saveFailed; i++) {
      // Chromium enforces the override with some slack: past a few strokes, fill the slack too
      // (once: the room the app frees later, its journal reserve, is what keeps the edits).
      if (i === 3) firstBallast = await fillQuota(page);
      await paint();
      saveFailed = await settlesFailing(page);
    }
    if (firstBallast > 0) note(`ballast of ${firstBallast} bytes filled the slack`);
    const toFail = ledger.strokes.length - storedBefore;
    note(saveFailed ? `saving failed at stroke ${toFail} on the full quota` : `saving never failed in ${toFail} strokes on the full quota`);
    for (let i = 0; i < strokesAfterFailure; i++) await paint();
    const firstState = `${await saveState(page)}, ${await saveRetries(page)} failed attempts${(await isStalled(page)) ? ', stalled' : ''}, edits kept: ${await page.getByTestId('save-status').getAttribute('data-kept')}`;
    await page.reload();
    await readyToPaint(page, frame);
    const firstReloadDialogs = dialogTypes.splice(0);
    note(`reload right after the failure (save state ${firstState}): ${firstReloadDialogs.join(', ') || 'no dialog'}`);

    // 2b. Nothing left to free: saving fails for good. A reload must ask; the person stays.
    // Chromium accounts usage lazily (and the app may free space of its own), so a write can still
    // fit after the quota refused the ballast: top the ballast up until saving fails for good.
    let ballast = 0;
    let failedSteadily = false;
    for (let i = 0; i < maxStrokesToFail && !failedSteadily; i++) {
      ballast += await fillQuota(page);
      await paint();
      await settlesFailing(page);
      failedSteadily = await failsSteadily(page);
    }
    note(`ballast of ${ballast} bytes; saving ${failedSteadily ? 'fails steadily' : 'did not fail steadily'}`);
    const stateBeforeReload = (await saveState(page)) ?? 'missing';
    const retriesBeforeReload = await saveRetries(page);
    answer = 'dismiss';
    await page.evaluate(() => {
      (window as unknown as { harnessStay: boolean }).harnessStay = true;
      setTimeout(() => location.reload(), 0); // not awaited in the page: a prompt would block it
    });
    const deadline = Date.now() + 5000;
    while (dialogTypes.length === 0 && Date.now() < deadline) await sleep(50);
    await sleep(500); // time for a reload the prompt did not stop to begin
    const reloadDialogs = dialogTypes.splice(0);
    answer = 'accept';
    const stayed = await page
      .evaluate(() => (window as unknown as { harnessStay?: boolean }).harnessStay === true)
      .catch(() => false);
    note(`reload while failing (save state ${stateBeforeReload}, ${retriesBeforeReload} failed attempts): ${reloadDialogs.join(', ') || 'no dialog'}; ${stayed ? 'stayed' : 'the page reloaded'}`);
    if (!stayed) await readyToPaint(page, frame);
    await dropBallast(page);
    // The queue retries with a backoff that doubles up to 5 s. A write Chromium left unanswered on
    // the full disk never recovers in this page: the app says so and asks for a reload, once it
    // has kept every edit in its journal; the person does as told.
    let savedAfterRoom = await waitSaved(page, 30_000);
    let recovery: QuotaResult['recovery'] = savedAfterRoom ? 'by itself' : 'not saved';
    if (!savedAfterRoom && (await isStalled(page))) {
      const kept = await waitSaveStatus(page, 'kept', 'kept', 15_000); // every unsaved edit is in the journal
      note(`with the ballast gone the page says saving is not answering; edits ${kept ? 'kept in the journal' : 'NOT kept'}; reloading as its notice asks`);
      await page.reload();
      await readyToPaint(page, frame);
      dialogTypes.splice(0);
      savedAfterRoom = kept && (await waitSaved(page, 30_000));
      recovery = kept ? 'by the reload it asked for' : 'not kept before the reload';
    }
    note(savedAfterRoom ? `with the ballast gone, every edit got saved (${recovery})` : `with the ballast gone, saving did not catch up (${recovery}): ${await saveDetail(page)}`);
    await browser.close();

    // 3. Space freed: a new launch without the override.
    browser = await launchChromium(profile);
    page = await firstPage(browser);
    await openFrame(page, baseURL, clip.id, frame);
    await waitSaved(page);
    await ledger.check(page, clip.id, 10_000);
    const storedAfter = ledger.strokes.filter((s) => s.status === 'stored').length;
    log(`quota: after freeing space ${storedAfter} of ${ledger.strokes.length} strokes are stored`);
    // When a step went wrong, the page's own errors say why.
    if (!saveFailed || !failedSteadily || !savedAfterRoom || ledger.lost.length > 0) for (const line of consoleLines) log(`quota: page ${line}`);
    return {
      mode: 'quota',
      seed,
      cycles: 1,
      strokes: ledger.strokes,
      lost: ledger.lost,
      dialogs: firstReloadDialogs.length + reloadDialogs.length,
      ms: Date.now() - started,
      notes: [...notes, ...consoleLines.map((line) => `page console: ${line}`)],
      saveFailed,
      firstReloadDialogs,
      failedSteadily,
      stateBeforeReload,
      retriesBeforeReload,
      reloadDialogs,
      stayed,
      savedAfterRoom,
      recovery,
      storedBefore,
      storedAfter,
    };
  } finally {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The save indicator in full, for a report. */
async function saveDetail(page: Page): Promise<string> {
  const status = page.getByTestId('save-status');
  return `state ${await status.getAttribute('data-state')}, ${await status.getAttribute('data-retries')} failed attempts, "${await status.textContent()}"`;
}

/** Failed save attempts in a row, as the save indicator shows them (0: no save is failing). */
async function saveRetries(page: Page): Promise<number> {
  return Number((await page.getByTestId('save-status').getAttribute('data-retries')) ?? 0);
}

/** A save is failing: it ended in an error, its retry is in flight, or the database leaves it unanswered. */
async function saveIsFailing(page: Page): Promise<boolean> {
  return (await saveState(page)) === 'error' || (await saveRetries(page)) > 0 || (await isStalled(page));
}

async function isStalled(page: Page): Promise<boolean> {
  return (await page.getByTestId('save-status').getAttribute('data-stalled')) === 'true';
}



/** A save stays failing for `ms` (long enough for a retry to be tried and fail). */
async function failsSteadily(page: Page, ms = 1500): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!(await saveIsFailing(page))) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Waits for the stroke's save to end: true when it failed (the error state, or a write the
 * database leaves unanswered, which the app reports after 8 s).
 */
async function settlesFailing(page: Page, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await saveState(page);
    if (state === 'error' || (await isStalled(page))) return true;
    if (state === 'idle' || Date.now() > deadline) return false;
    await sleep(50);
  }
}
