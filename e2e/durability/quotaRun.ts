/**
 * The quota-full run. Chromium applies a quota override (CDP Storage.overrideQuotaForOrigin) only
 * to an origin whose storage it has not opened yet in this browser, and then enforces it with some
 * slack, so the run goes in three launches on one profile:
 *   1. create the demo and paint two strokes that are saved normally;
 *   2. set the quota to what the origin uses before the app opens, paint until saving fails and
 *      the app says so, paint a little more (edits that only wait in the app), then reload: the
 *      app must warn with a beforeunload prompt (accepted, as a user leaving anyway would);
 *   3. relaunch without the override (space was freed): every stroke painted must be stored, as the
 *      app keeps pending edits in a journal and replays them on start-up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { launchChromium, sleep, type RunningChromium } from './chromiumProcess';
import { createDemo, openFrame, paintStroke, saveState, waitEditorOn, waitSaved } from './appDriver';
import { StrokeLedger } from './strokeLedger';
import type { Log, RunResult } from './runResult';

export interface QuotaOptions {
  baseURL: string;
  seed: number;
  /** Bytes of quota above what the origin uses (default 0). */
  headroomBytes?: number;
  /** Strokes painted at most while waiting for a save to fail. */
  maxStrokesToFail?: number;
  /** Strokes painted once saving has failed: edits that only wait in the app. */
  strokesAfterFailure?: number;
  log?: Log;
}

export interface QuotaResult extends RunResult {
  /** The save indicator showed an error once the quota was full. */
  saveFailed: boolean;
  /** Dialog types the reload with unsaved edits raised. */
  reloadDialogs: string[];
  /** The save indicator just before the reload: 'idle' when every edit got stored after all (the journal's reserve gave room). */
  stateBeforeReload: string;
  /** Failed attempts in a row just before the reload (0: no save is failing). */
  retriesBeforeReload: number;
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
  const dialogTypes: string[] = [];
  let browser: RunningChromium | null = null;
  const firstPage = async (b: RunningChromium): Promise<Page> => {
    const page = b.context.pages()[0] ?? (await b.context.newPage());
    page.on('dialog', (d) => {
      dialogTypes.push(d.type());
      void d.accept().catch(() => undefined);
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
    await openFrame(page, baseURL, clip.id, frame);
    for (let i = 0; i < 2; i++) {
      const spot = ledger.nextSpot();
      await paintStroke(page, spot);
      ledger.record(spot, 0, null);
    }
    if (!(await waitSaved(page))) throw new Error('quotaRun: two strokes painted with the quota untouched were not saved');
    await ledger.check(page, clip.id, 0);
    const storedBefore = ledger.strokes.filter((s) => s.status === 'stored').length;
    // Read while the origin's storage is open: before that, a fresh launch reports a usage of 0.
    // Not navigator.storage.estimate(): Chromium reports usage + 10 GiB there, whatever the quota.
    const { usage } = await (await browser.context.newCDPSession(page)).send('Storage.getUsageAndQuota', { origin });
    await browser.close();

    // 2. A full disk, from the start of this launch.
    browser = await launchChromium(profile);
    page = await firstPage(browser);
    const cdp = await browser.context.newCDPSession(page);
    // A quota of 0 means "no override" to Chromium.
    const quotaSize = Math.max(1, usage + headroomBytes);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize });
    notes.push(`quota set to ${quotaSize} bytes (usage ${usage})`);
    await openFrame(page, baseURL, clip.id, frame);
    let saveFailed = false;
    for (let i = 0; i < maxStrokesToFail && !saveFailed; i++) {
      const spot = ledger.nextSpot();
      await paintStroke(page, spot);
      ledger.record(spot, 0, null);
      saveFailed = await settlesInError(page);
    }
    const toFail = ledger.strokes.length - storedBefore;
    notes.push(saveFailed ? `saving failed at stroke ${toFail} on the full quota` : `saving never failed in ${toFail} strokes on the full quota`);
    for (let i = 0; i < strokesAfterFailure; i++) {
      const spot = ledger.nextSpot();
      await paintStroke(page, spot);
      ledger.record(spot, 0, null);
    }
    const stateBeforeReload = (await saveState(page)) ?? 'missing';
    const retriesBeforeReload = Number(await page.getByTestId('save-status').getAttribute('data-retries'));
    log(`quota: ${ledger.strokes.length} strokes painted, saving ${saveFailed ? 'failed' : 'never failed'}, save state "${stateBeforeReload}"; reloading`);
    await page.reload();
    await waitEditorOn(page, frame);
    const reloadDialogs = [...dialogTypes];
    notes.push(`the reload with unsaved edits raised ${reloadDialogs.length === 0 ? 'no dialog' : reloadDialogs.join(', ')}`);
    await browser.close();

    // 3. Space freed: a new launch without the override.
    browser = await launchChromium(profile);
    page = await firstPage(browser);
    await openFrame(page, baseURL, clip.id, frame);
    await waitSaved(page);
    await ledger.check(page, clip.id, 10_000);
    const storedAfter = ledger.strokes.filter((s) => s.status === 'stored').length;
    log(`quota: after freeing space ${storedAfter} of ${ledger.strokes.length} strokes are stored`);
    return {
      mode: 'quota',
      seed,
      cycles: 1,
      strokes: ledger.strokes,
      lost: ledger.lost,
      dialogs: reloadDialogs.length,
      ms: Date.now() - started,
      notes,
      saveFailed,
      stateBeforeReload,
      retriesBeforeReload,
      reloadDialogs,
      storedBefore,
      storedAfter,
    };
  } finally {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Waits for the stroke's save to end: true when it ended in the error state. */
async function settlesInError(page: Page, timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await saveState(page);
    if (state === 'error') return true;
    if (state === 'idle' || Date.now() > deadline) return false;
    await sleep(50);
  }
}
