/**
 * One editing tab per clip. The first tab to open a clip holds its lock `spoc-clip:<id>` for the
 * whole editor session; a second tab opens the clip read-only instead of racing the first one's
 * writes, and writers outside the editor (imports, status changes) in other tabs are refused
 * (src/workspace/clipWriteLock.ts). The lock dies with the tab, so a crashed tab never locks a clip
 * forever. Without Web Locks (plain http) the tabs ask each other over a BroadcastChannel instead
 * (src/workspace/clipLocks.ts).
 */
import { acquireWithRetry, pageClipLocks } from '../../workspace/clipWriteLock';
import type { ClipLocks } from '../../workspace/clipLocks';

export interface ClipLock {
  /** True when this tab may edit. */
  granted: boolean;
  release(): void;
}

export async function acquireClipLock(clipId: string, attempts = 3, locks: ClipLocks = pageClipLocks()): Promise<ClipLock> {
  const hold = await acquireWithRetry(locks, clipId, attempts);
  return hold ? { granted: true, release: () => hold.release() } : { granted: false, release: () => undefined };
}
