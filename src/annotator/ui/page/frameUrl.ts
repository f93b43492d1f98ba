/**
 * Writes the shown frame into the URL (#/c/<clip>/<k>), at most once per `quietMs` while frames are
 * stepped through quickly: a switch after a pause is written at once (a single key press, a click on
 * the timeline: the URL is right before the next action), switches that follow it within the window
 * fold into one write at the window's end, of the last frame. Each URL write is a same-document
 * navigation: Chromium updates the history entry, fetches and decodes the page's icon again (an SVG
 * document on the page's main thread), and the app re-renders from the route, which cost 10–15 ms of
 * a frame switch's main thread (docs/architecture.md "Frame switching").
 *
 * Pure apart from the clock and the writer it is given, so it is tested with fake timers.
 */
export interface FrameUrlWriter {
  /** Frame k is the one shown now. */
  set(frame: number): void;
  /** Drops a write not done yet (the editor closes, or the page went elsewhere). */
  cancel(): void;
}

export const FRAME_URL_QUIET_MS = 200;

export function frameUrlWriter(write: (frame: number) => void, quietMs = FRAME_URL_QUIET_MS, now = () => performance.now()): FrameUrlWriter {
  let lastWrite = -Infinity;
  let pending: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    if (pending === null) return;
    const frame = pending;
    pending = null;
    lastWrite = now();
    write(frame);
  };
  return {
    set(frame) {
      pending = frame;
      const wait = lastWrite + quietMs - now();
      if (wait <= 0 && timer === null) flush();
      else if (timer === null) timer = setTimeout(flush, Math.max(0, wait));
    },
    cancel() {
      pending = null;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
