/**
 * Node-side helpers shared by the in-browser editor benchmarks: a per-frame recorder (animation-frame
 * intervals, the editor's perf probes, long tasks) and 20 scripted strokes with the real mouse.
 */
import type { Page } from '@playwright/test';

export const percentile = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

type Recorder = { __spocPerf: [string, number][]; __frames: number[]; __long: number[]; __stop: boolean; __longObserved?: boolean };

/** Starts recording animation-frame intervals, the editor's probes and long tasks in the page. */
export async function startRecording(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as Recorder;
    w.__spocPerf = [];
    w.__frames = [];
    w.__long = [];
    w.__stop = false;
    let last = performance.now();
    const tick = (t: number) => {
      w.__frames.push(t - last);
      last = t;
      if (!w.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    if (!w.__longObserved) {
      w.__longObserved = true;
      new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__long.push(e.duration))).observe({ type: 'longtask', buffered: false });
    }
  });
}

export interface Recording {
  frames: number[];
  long: number[];
  /** Samples of one editor probe by name. */
  probe: (name: string) => number[];
}

export async function stopRecording(page: Page): Promise<Recording> {
  const r = await page.evaluate(() => {
    const w = window as unknown as Recorder;
    w.__stop = true;
    return { perf: w.__spocPerf, frames: w.__frames.slice(2), long: w.__long };
  });
  return { frames: r.frames, long: r.long, probe: (name) => r.perf.filter(([n]) => n === name).map(([, ms]) => ms) };
}

/** 20 horizontal strokes across the editor canvas (actionable, then transformed), 60 moves each. */
export async function paintStrokes(page: Page): Promise<void> {
  const box = (await page.getByTestId('editor-canvas').boundingBox())!;
  await page.keyboard.press('1');
  for (let i = 0; i < 20; i++) {
    if (i === 10) await page.keyboard.press('2');
    const y = box.y + 40 + i * Math.min(28, (box.height - 80) / 20);
    await page.mouse.move(box.x + 40, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 40, y + 10, { steps: 60 });
    await page.mouse.up();
  }
}
