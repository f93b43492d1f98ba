/**
 * The crash harness: paint a few strokes, SIGKILL every Chromium process a random 0–60 ms after the
 * last pointer-up, relaunch on the same profile and look at what IndexedDB kept. The profile lives
 * across all cycles, so damage that builds up over crashes shows as strokes lost later.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { launchChromium, sleep, type RunningChromium } from './chromiumProcess';
import { createDemo, openFrame, paintStroke, type ClipInfo } from './appDriver';
import { crashDelay, intBetween, seededRandom } from './seededRandom';
import { StrokeLedger } from './strokeLedger';
import type { Log, RunResult } from './runResult';

export interface KillOptions {
  baseURL: string;
  kills: number;
  seed: number;
  /** Strokes per launch, the last one right before the kill. */
  minStrokes?: number;
  maxStrokes?: number;
  maxDelayMs?: number;
  /** Earliest kill after pointer-up (default 0: in the same tick mouse.up() resolved in). */
  minDelayMs?: number;
  log?: Log;
}

export async function runKills(options: KillOptions): Promise<RunResult> {
  const { baseURL, kills, seed, minStrokes = 1, maxStrokes = 3, maxDelayMs = 60, minDelayMs = 0, log = () => undefined } = options;
  const started = Date.now();
  const random = seededRandom(seed);
  const profile = mkdtempSync(join(tmpdir(), 'spoc-durability-kill-'));
  const notes: string[] = [];
  let dialogs = 0;
  let browser: RunningChromium | null = null;
  const firstPage = async (b: RunningChromium): Promise<Page> => {
    const page = b.context.pages()[0] ?? (await b.context.newPage());
    page.on('dialog', (d) => {
      dialogs++;
      void d.accept().catch(() => undefined);
    });
    return page;
  };
  try {
    const first = await launchChromium(profile);
    browser = first;
    const firstTab = await firstPage(first);
    const clip: ClipInfo = await createDemo(firstTab, baseURL);
    const ledger = new StrokeLedger(clip);
    for (let cycle = 0; cycle < kills; cycle++) {
      const running = cycle === 0 ? first : await launchChromium(profile);
      browser = running;
      const page = cycle === 0 ? firstTab : await firstPage(running);
      let frame = ledger.nextSpot().frameIndex;
      await openFrame(page, baseURL, clip.id, frame);
      if (cycle > 0) report(log, ledger, cycle - 1, await ledger.check(page, clip.id));
      const strokes = intBetween(random, minStrokes, maxStrokes);
      for (let i = 0; i < strokes; i++) {
        const spot = ledger.nextSpot();
        if (spot.frameIndex !== frame) await openFrame(page, baseURL, clip.id, (frame = spot.frameIndex));
        const last = i === strokes - 1;
        const delay = Math.max(minDelayMs, crashDelay(random, maxDelayMs));
        await paintStroke(page, spot);
        ledger.record(spot, cycle, last ? delay : null);
        if (delay > 0) await sleep(delay);
        // delay 0: the kill is sent in the same tick mouse.up() resolved in.
        if (last) await running.kill();
      }
      notes.push(...running.storageWarnings.map((w) => `kill cycle ${cycle}: chromium: ${w}`));
      browser = null;
    }
    const final = await launchChromium(profile);
    browser = final;
    const page = await firstPage(final);
    await openFrame(page, baseURL, clip.id, ledger.nextSpot().frameIndex);
    report(log, ledger, kills - 1, await ledger.check(page, clip.id));
    notes.push(...final.storageWarnings.map((w) => `after the last kill: chromium: ${w}`));
    return { mode: 'kill', seed, cycles: kills, strokes: ledger.strokes, lost: ledger.lost, dialogs, ms: Date.now() - started, notes };
  } finally {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

function report(log: Log, ledger: StrokeLedger, cycle: number, { newlyLost }: Awaited<ReturnType<StrokeLedger['check']>>): void {
  const painted = ledger.strokes.filter((s) => s.cycle === cycle);
  const delay = painted.at(-1)?.delayMs;
  const what = `kill ${cycle} (${painted.length} stroke${painted.length === 1 ? '' : 's'}, killed ${delay} ms after the last pointer-up)`;
  if (newlyLost.length === 0) return log(`${what}: nothing lost`);
  log(`${what}: LOST ${newlyLost.map((s) => `stroke ${s.spot.n}${s.lostLater ? ' (stored before, gone now)' : ''}`).join(', ')}`);
}
