/**
 * The reload and tab-close harness, in one browser: paint a stroke and, the instant mouse.up()
 * resolves, either reload the page or close the tab (without running beforeunload, as when the
 * user closes a window or the OS kills the tab) and open the clip in a new tab; then count whether
 * the stroke is stored. A beforeunload prompt (the app warns while edits are unsaved) is accepted,
 * as a user leaving anyway would, and counted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { launchChromium, sleep, type RunningChromium } from './chromiumProcess';
import { createDemo, openFrame, paintStroke, readyToPaint } from './appDriver';
import { crashDelay, seededRandom } from './seededRandom';
import { StrokeLedger } from './strokeLedger';
import type { Log, RunResult } from './runResult';

export interface PageCycleOptions {
  baseURL: string;
  mode: 'reload' | 'close';
  cycles: number;
  seed: number;
  /** 0 (the default): leave right after pointer-up every time; otherwise a seeded 0..max ms. */
  maxDelayMs?: number;
  log?: Log;
}

export async function runPageCycles(options: PageCycleOptions): Promise<RunResult> {
  const { baseURL, mode, cycles, seed, maxDelayMs = 0, log = () => undefined } = options;
  const started = Date.now();
  const random = seededRandom(seed);
  const profile = mkdtempSync(join(tmpdir(), `spoc-durability-${mode}-`));
  let dialogs = 0;
  const watch = (page: Page) =>
    page.on('dialog', (d) => {
      dialogs++;
      void d.accept().catch(() => undefined);
    });
  let browser: RunningChromium | null = null;
  try {
    browser = await launchChromium(profile);
    let page = browser.context.pages()[0] ?? (await browser.context.newPage());
    watch(page);
    const clip = await createDemo(page, baseURL);
    const ledger = new StrokeLedger(clip);
    let frame = ledger.nextSpot().frameIndex;
    await openFrame(page, baseURL, clip.id, frame);
    for (let cycle = 0; cycle < cycles; cycle++) {
      const spot = ledger.nextSpot();
      if (spot.frameIndex !== frame) await openFrame(page, baseURL, clip.id, (frame = spot.frameIndex));
      const delay = maxDelayMs === 0 ? 0 : crashDelay(random, maxDelayMs);
      const dialogsBefore = dialogs;
      await paintStroke(page, spot);
      ledger.record(spot, cycle, delay);
      if (delay > 0) await sleep(delay);
      if (mode === 'reload') {
        await page.reload();
        await readyToPaint(page, frame);
      } else {
        await page.close({ runBeforeUnload: false });
        page = await browser.context.newPage();
        watch(page);
        await openFrame(page, baseURL, clip.id, frame);
      }
      const { newlyLost } = await ledger.check(page, clip.id);
      const prompt = dialogs > dialogsBefore ? ', prompted' : '';
      log(`${mode} ${cycle}: ${newlyLost.length === 0 ? 'nothing lost' : `LOST stroke ${newlyLost.map((s) => s.spot.n).join(', ')}`}${prompt}`);
    }
    return { mode, seed, cycles, strokes: ledger.strokes, lost: ledger.lost, dialogs, ms: Date.now() - started, notes: [] };
  } finally {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
