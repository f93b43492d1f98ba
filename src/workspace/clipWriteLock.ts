/**
 * Writing a clip from outside its editor (bundle import, prediction import, lifecycle steps) while
 * another tab edits it would leave that editor with a stale copy it later writes back. So every such
 * writer runs through withClipWriteLock: it goes on when this tab holds the clip's lock already (the
 * editor here), takes the lock for the duration otherwise, and refuses — before anything is written
 * — when another tab holds it.
 */
import type { SpocDb } from '../store/db';
import { newId } from '../store/ids';
import { CLIP_CLAIM_CHANNEL, ClipLocks, type ClipHold } from './clipLocks';

export interface ClipRef {
  id: string;
  name: string;
}

/** The clip as a refusal names it; its id stands in for the name when the clip is gone (the write then fails on its own). */
export async function storedClipRef(db: SpocDb, clipId: string): Promise<ClipRef> {
  const clip = await db.clips.get(clipId);
  return { id: clipId, name: clip?.name ?? clipId };
}

/** Thrown when a clip is held by another tab; nothing was written. */
export class ClipBusyError extends Error {
  override readonly name = 'ClipBusyError';
  readonly clip: ClipRef;

  constructor(what: string, clip: ClipRef) {
    super(`${what}: "${clip.name}" is open for editing in another tab; close it there (or finish) and try again. Nothing was changed.`);
    this.clip = clip;
  }
}

let shared: ClipLocks | null = null;

/** This page's locks, from what the browser offers (see clipLocks.ts for the three modes). */
export function pageClipLocks(): ClipLocks {
  shared ??= new ClipLocks({
    locks: typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null,
    // Only a page has other tabs to ask; Node (tests, CLI) has none.
    openChannel: typeof window !== 'undefined' && typeof BroadcastChannel !== 'undefined' ? () => new BroadcastChannel(CLIP_CLAIM_CHANNEL) : null,
    tabId: newId(),
  });
  return shared;
}

/** Makes `locks` the page's locks until the returned function is called (tests standing in for two tabs). */
export function replacePageClipLocks(locks: ClipLocks): () => void {
  const before = shared;
  shared = locks;
  return () => {
    shared = before;
  };
}

/** A lock released a moment ago (an editor closing, another writer finishing) can take a tick to be free. */
const ATTEMPTS = 3;
const RETRY_MS = 60;

/** Takes the clip's lock, asking again briefly; null when another tab keeps holding it. */
export async function acquireWithRetry(locks: ClipLocks, clipId: string, attempts = ATTEMPTS): Promise<ClipHold | null> {
  for (let i = 1; ; i++) {
    const hold = await locks.tryAcquire(clipId);
    if (hold || i >= attempts) return hold;
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
}

/**
 * Runs `fn` while this tab may write every clip in `clips`. `what` starts the refusal message
 * ("Cannot import demo.spoc.zip"). Locks are taken before `fn` runs and released after it settles;
 * if any clip is held elsewhere, the ones taken are given back and ClipBusyError is thrown without
 * calling `fn`: all or nothing.
 */
export async function withClipWriteLock<T>(clips: readonly ClipRef[], what: string, fn: () => Promise<T>, locks: ClipLocks = pageClipLocks()): Promise<T> {
  const holds: ClipHold[] = [];
  try {
    const seen = new Set<string>();
    for (const clip of clips) {
      if (seen.has(clip.id) || locks.heldHere(clip.id)) continue;
      seen.add(clip.id);
      const hold = await acquireWithRetry(locks, clip.id);
      if (!hold) throw new ClipBusyError(what, clip);
      holds.push(hold);
    }
    return await fn();
  } finally {
    for (const h of holds) h.release();
  }
}
