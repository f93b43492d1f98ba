/**
 * Every stroke a run painted and what became of it. A stroke is "painted" once mouse.up() resolved
 * (the gesture is finished from the user's point of view); the next look at the store marks it
 * stored or lost. A stroke seen stored once and missing later counts as lost too (damage that
 * accumulates across crashes), but only once.
 */
import type { Page } from '@playwright/test';
import { storedSpots } from './storedStrokes';
import { strokeSpot, type FrameSize, type StrokeSpot } from './strokePlan';
import { sleep } from './chromiumProcess';

export interface StrokeRecord {
  spot: StrokeSpot;
  cycle: number;
  /** Milliseconds between this stroke's pointer-up and the crash / reload / close (null: not the last before it). */
  delayMs: number | null;
  status: 'unchecked' | 'stored' | 'lost';
  /** Stored at one check, gone at a later one. */
  lostLater: boolean;
}

export class StrokeLedger {
  readonly strokes: StrokeRecord[] = [];
  constructor(private readonly size: FrameSize) {}

  /** Where the next stroke goes (not yet recorded). */
  nextSpot(): StrokeSpot {
    return strokeSpot(this.strokes.length, this.size);
  }

  record(spot: StrokeSpot, cycle: number, delayMs: number | null): void {
    this.strokes.push({ spot, cycle, delayMs, status: 'unchecked', lostLater: false });
  }

  get lost(): StrokeRecord[] {
    return this.strokes.filter((s) => s.status === 'lost');
  }

  /**
   * Reads the store and settles every stroke. Waits up to `graceMs` for strokes still missing:
   * an app that replays a journal of pending edits on start-up gets the time to do it (a stroke
   * that is back by then is not lost to the user).
   */
  async check(page: Page, clipId: string, graceMs = 3000): Promise<{ newlyLost: StrokeRecord[] }> {
    const deadline = Date.now() + graceMs;
    let stored: Set<number>;
    for (;;) {
      stored = await storedSpots(page, clipId, this.strokes.map((s) => s.spot));
      const missing = this.strokes.some((s) => s.status !== 'lost' && !stored.has(s.spot.n));
      if (!missing || Date.now() > deadline) break;
      await sleep(250);
    }
    const newlyLost: StrokeRecord[] = [];
    for (const s of this.strokes) {
      if (s.status === 'lost') continue;
      if (stored.has(s.spot.n)) {
        s.status = 'stored';
        continue;
      }
      s.lostLater = s.status === 'stored';
      s.status = 'lost';
      newlyLost.push(s);
    }
    return { newlyLost };
  }
}
