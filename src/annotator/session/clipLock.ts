/**
 * One editing tab per clip. The Web Locks API grants the lock `spoc-clip:<id>` to the first tab;
 * a second tab opens the clip read-only instead of racing the first one's writes. The lock dies
 * with the tab, so a crashed tab never locks a clip forever.
 */
export interface ClipLock {
  /** True when this tab may edit. */
  granted: boolean;
  release(): void;
}

export async function acquireClipLock(clipId: string, attempts = 3): Promise<ClipLock> {
  if (!('locks' in navigator)) return { granted: true, release: () => undefined };
  // A lock released a moment ago (a view re-mounting) can take a tick to become free: ask again briefly.
  for (let i = 1; i < attempts; i++) {
    const lock = await tryLock(clipId);
    if (lock.granted) return lock;
    await new Promise((r) => setTimeout(r, 60));
  }
  return tryLock(clipId);
}

async function tryLock(clipId: string): Promise<ClipLock> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const granted = await new Promise<boolean>((answer) => {
    void navigator.locks.request(`spoc-clip:${clipId}`, { ifAvailable: true }, async (lock) => {
      answer(lock !== null);
      if (lock) await held;
    });
  });
  return { granted, release };
}
