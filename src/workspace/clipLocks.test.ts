import { afterEach, describe, expect, it } from 'vitest';
import { ClipLocks } from './clipLocks';
import { ClipBusyError, withClipWriteLock } from './clipWriteLock';
import { settle, sharedLockManager } from '../testing/locks';

/*
 * Two ClipLocks in one process stand for two tabs. The broadcast mode runs over Node's real
 * BroadcastChannel (the same API the browser gives an insecure page); the Web Locks mode over a
 * shared in-memory lock table (testLocks.ts).
 */

const opened: ClipLocks[] = [];
afterEach(() => {
  for (const l of opened.splice(0)) l.destroy();
});

let channelName = 0;
function broadcastTabs(...ids: string[]): ClipLocks[] {
  const name = `test-claims-${++channelName}`;
  return ids.map((tabId) => {
    const l = new ClipLocks({ tabId, openChannel: () => new BroadcastChannel(name) as never, answerWindowMs: 40 });
    opened.push(l);
    return l;
  });
}

const CLIP = { id: 'clip-1', name: 'peel potato 01' };
const OTHER = { id: 'clip-2', name: 'grate carrot 02' };

describe('ClipLocks, broadcast mode (no Web Locks: plain http)', () => {
  it('a clip held by one tab is refused to another until released', async () => {
    const [a, b] = broadcastTabs('tab-a', 'tab-b');
    expect(a.mode).toBe('broadcast');
    const hold = await a.tryAcquire(CLIP.id);
    expect(hold).not.toBeNull();
    expect(a.heldHere(CLIP.id)).toBe(true);
    expect(await b.tryAcquire(CLIP.id)).toBeNull();
    expect(b.heldHere(CLIP.id)).toBe(false);
    // Another clip is free.
    expect(await b.tryAcquire(OTHER.id)).not.toBeNull();
    hold!.release();
    hold!.release(); // twice is harmless
    expect(a.heldHere(CLIP.id)).toBe(false);
    expect(await b.tryAcquire(CLIP.id)).not.toBeNull();
  });

  it('two tabs claiming at the same instant: exactly one gets the clip', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b, c] = broadcastTabs(`x${round}`, `m${round}`, `b${round}`);
      const holds = await Promise.all([a.tryAcquire(CLIP.id), b.tryAcquire(CLIP.id), c.tryAcquire(CLIP.id)]);
      expect(holds.filter(Boolean)).toHaveLength(1);
    }
  });

  it('a second hold of the same clip in the same tab is refused, as Web Locks do', async () => {
    const [a] = broadcastTabs('tab-a');
    expect(await a.tryAcquire(CLIP.id)).not.toBeNull();
    expect(await a.tryAcquire(CLIP.id)).toBeNull();
  });
});

describe('ClipLocks, Web Locks mode', () => {
  it('counts what this tab holds; the other tab is refused', async () => {
    const locks = sharedLockManager();
    const a = new ClipLocks({ tabId: 'a', locks });
    const b = new ClipLocks({ tabId: 'b', locks });
    expect(a.mode).toBe('web-locks');
    const hold = await a.tryAcquire(CLIP.id);
    expect(a.heldHere(CLIP.id)).toBe(true);
    expect(await b.tryAcquire(CLIP.id)).toBeNull();
    hold!.release();
    await settle();
    expect(await b.tryAcquire(CLIP.id)).not.toBeNull();
  });

  it('without Web Locks or BroadcastChannel every request is granted (the banner warns)', async () => {
    const a = new ClipLocks({ tabId: 'a' });
    expect(a.mode).toBe('unguarded');
    expect(await a.tryAcquire(CLIP.id)).not.toBeNull();
  });
});

describe('withClipWriteLock', () => {
  it('refuses with a message naming the clip and never calls fn when another tab holds it', async () => {
    const locks = sharedLockManager();
    const editor = new ClipLocks({ tabId: 'editor', locks });
    const importer = new ClipLocks({ tabId: 'importer', locks });
    await editor.tryAcquire(CLIP.id);
    let ran = false;
    const err = await withClipWriteLock([OTHER, CLIP], 'Cannot import demo.spoc.zip', async () => (ran = true), importer).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClipBusyError);
    expect((err as Error).message).toBe(
      'Cannot import demo.spoc.zip: "peel potato 01" is open for editing in another tab; close it there (or finish) and try again. Nothing was changed.',
    );
    expect(ran).toBe(false);
    // The clip taken before the refusal was given back.
    expect(importer.heldHere(OTHER.id)).toBe(false);
    await settle();
    expect(await editor.tryAcquire(OTHER.id)).not.toBeNull();
  });

  it('runs in the tab that edits the clip, and holds free clips only while fn runs (also when it throws)', async () => {
    const locks = sharedLockManager();
    const tab = new ClipLocks({ tabId: 'tab', locks });
    const other = new ClipLocks({ tabId: 'other', locks });
    await tab.tryAcquire(CLIP.id); // this tab's editor
    const seen = await withClipWriteLock([CLIP, OTHER, OTHER], 'Cannot submit', async () => ({ clip: tab.heldHere(CLIP.id), other: tab.heldHere(OTHER.id) }), tab);
    expect(seen).toEqual({ clip: true, other: true });
    expect(tab.heldHere(OTHER.id)).toBe(false);
    expect(tab.heldHere(CLIP.id)).toBe(true); // the editor's hold is untouched
    await expect(
      withClipWriteLock([OTHER], 'Cannot submit', async () => {
        throw new Error('write failed');
      }, tab),
    ).rejects.toThrow('write failed');
    expect(tab.heldHere(OTHER.id)).toBe(false);
    await settle();
    expect(await other.tryAcquire(OTHER.id)).not.toBeNull();
  });
});
