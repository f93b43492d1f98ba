import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PersistQueue, type PendingWrite, type PersistStatus } from './persistQueue';

type Item = PendingWrite<string, string>;

const item = (frameIndex: number, layer: string, ...revisions: string[]): Item => ({ clipId: 'c', source: 'gt', frameIndex, layer, revisions });

/** A write function that records batches and the time they started, and can be told to fail or hang. */
function recorder() {
  const batches: { at: number; batch: Item[] }[] = [];
  let active = 0;
  let maxActive = 0;
  const failures: Error[] = [];
  let hold: Promise<void> | null = null;
  const write = vi.fn(async (batch: Item[]) => {
    batches.push({ at: Date.now(), batch: structuredClone(batch) });
    active++;
    maxActive = Math.max(maxActive, active);
    try {
      if (hold) await hold;
      const failure = failures.shift();
      if (failure) throw failure;
    } finally {
      active--;
    }
  });
  return {
    write,
    batches,
    failNext: (...messages: string[]) => failures.push(...messages.map((m) => new Error(m))),
    holdWrites: () => {
      let release!: () => void;
      hold = new Promise<void>((r) => (release = r));
      return () => {
        hold = null;
        release();
      };
    },
    get maxActive() {
      return maxActive;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('PersistQueue', () => {
  it('starts the write inside enqueue itself: a committed gesture never waits for a timer', () => {
    const r = recorder();
    const q = new PersistQueue<string, string>({ write: r.write });
    q.enqueue(item(0, 'L1', 'r1'));
    // Synchronously, before any timer or microtask: the pointer-up handler started the transaction.
    expect(r.batches).toEqual([{ at: 0, batch: [item(0, 'L1', 'r1')] }]);
    expect(q.status.state).toBe('saving');
  });

  it('while a write is in flight, enqueues coalesce and are written the moment it ends', async () => {
    const r = recorder();
    const q = new PersistQueue<string, string>({ write: r.write });
    const release = r.holdWrites();
    q.enqueue(item(0, 'A', 'a1'));
    q.enqueue(item(0, 'B', 'a2'));
    q.enqueue(item(1, 'C', 'c1'));
    expect(r.write).toHaveBeenCalledTimes(1);
    expect(q.unsaved()).toEqual([item(0, 'B', 'a1', 'a2'), item(1, 'C', 'c1')]);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(r.batches.map((b) => b.batch)).toEqual([[item(0, 'A', 'a1')], [item(0, 'B', 'a2'), item(1, 'C', 'c1')]]);
    expect(q.status.state).toBe('idle');
    expect(q.unsaved()).toEqual([]);
  });

  it('coalesces per (clip, source, frame): latest layer wins, every revision kept in order', async () => {
    const r = recorder();
    const q = new PersistQueue<string, string>({ write: r.write });
    const release = r.holdWrites();
    q.enqueue(item(9, 'first', 'f1')); // in flight: the rest waits behind it
    q.enqueue(item(3, 'A', 'a1'));
    q.enqueue(item(5, 'X', 'x1'));
    q.enqueue(item(3, 'B', 'a2', 'a3'));
    q.enqueue({ ...item(3, 'P', 'p1'), source: 'proposal' });
    q.enqueue({ ...item(3, 'Z', 'z1'), clipId: 'other' });
    expect(q.status).toMatchObject({ state: 'saving', pending: 5 });
    release();
    await q.flush();
    expect(r.batches[1].batch).toEqual([
      item(3, 'B', 'a1', 'a2', 'a3'),
      item(5, 'X', 'x1'),
      { ...item(3, 'P', 'p1'), source: 'proposal' },
      { ...item(3, 'Z', 'z1'), clipId: 'other' },
    ]);
  });

  it('does not keep a reference to the caller’s revision array', async () => {
    const r = recorder();
    const q = new PersistQueue<string, string>({ write: r.write });
    const it1 = item(0, 'A', 'a1');
    q.enqueue(it1);
    it1.revisions.push('sneaky');
    await q.flush();
    expect(r.batches[0].batch[0].revisions).toEqual(['a1']);
  });

  it('never overlaps writes; items enqueued during a write go into the next batch', async () => {
    const r = recorder();
    const q = new PersistQueue<string, string>({ write: r.write });
    const release = r.holdWrites();
    q.enqueue(item(0, 'A', 'a1'));
    expect(q.status.state).toBe('saving');
    q.enqueue(item(0, 'B', 'a2'));
    await vi.advanceTimersByTimeAsync(5000); // the first write hangs
    expect(r.write).toHaveBeenCalledTimes(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(r.batches.map((b) => b.batch)).toEqual([[item(0, 'A', 'a1')], [item(0, 'B', 'a2')]]);
    expect(r.maxActive).toBe(1);
  });

  it('retries a failed write with backoff, never drops it, and merges newer items after it', async () => {
    const r = recorder();
    const statuses: PersistStatus[] = [];
    const q = new PersistQueue<string, string>({ write: r.write, retryBaseMs: 500 });
    q.subscribe((s) => statuses.push(s));
    r.failNext('QuotaExceededError', 'still full');
    vi.setSystemTime(300);
    q.enqueue(item(0, 'A', 'a1'));
    await vi.advanceTimersByTimeAsync(0);
    expect(q.status).toEqual({ state: 'error', pending: 1, error: 'QuotaExceededError', retries: 1, stalled: false });
    q.enqueue(item(0, 'B', 'a2'));
    q.enqueue(item(1, 'C', 'c1'));
    expect(q.unsaved()).toEqual([item(0, 'B', 'a1', 'a2'), item(1, 'C', 'c1')]);
    await vi.advanceTimersByTimeAsync(499);
    expect(r.write).toHaveBeenCalledTimes(1); // new items wait for the retry, no hammering
    await vi.advanceTimersByTimeAsync(1);
    expect(q.status).toMatchObject({ state: 'error', error: 'still full', retries: 2, stalled: false });
    await vi.advanceTimersByTimeAsync(999);
    expect(r.write).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.batches.map((b) => b.at)).toEqual([300, 800, 1800]);
    expect(r.batches[2].batch).toEqual([item(0, 'B', 'a1', 'a2'), item(1, 'C', 'c1')]);
    expect(q.status).toEqual({ state: 'idle', pending: 0, error: null, retries: 0, stalled: false });
    // The second 'error' is the pending count growing while failing (frame 0 coalesced, frame 1 new).
    expect(statuses.map((s) => s.state)).toEqual(['saving', 'error', 'error', 'saving', 'error', 'saving', 'idle']);
  });

  it('caps the backoff', async () => {
    const r = recorder();
    const q = new PersistQueue<string, string>({ write: r.write, retryBaseMs: 1000, retryMaxMs: 4000 });
    r.failNext('a', 'b', 'c', 'd', 'e');
    q.enqueue(item(0, 'A', 'a1'));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(r.batches.map((b) => b.at)).toEqual([0, 1000, 3000, 7000, 11000, 15000]);
    expect(q.status.state).toBe('idle');
  });

  it('flush() writes now and resolves when stored; a failure rejects it and keeps the items', async () => {
    const r = recorder();
    const q = new PersistQueue<string, string>({ write: r.write });
    await q.flush(); // nothing to do
    q.enqueue(item(0, 'A', 'a1'));
    await q.flush();
    expect(r.batches).toEqual([{ at: 0, batch: [item(0, 'A', 'a1')] }]);
    r.failNext('disk gone');
    const release = r.holdWrites();
    q.enqueue(item(0, 'B', 'b1'));
    const flushed = q.flush();
    release();
    await expect(flushed).rejects.toThrow('disk gone');
    expect(q.status).toMatchObject({ state: 'error', retries: 1, stalled: false });
    await q.flush(); // skips the backoff
    expect(r.batches.at(-1)?.batch).toEqual([item(0, 'B', 'b1')]);
    expect(q.status.state).toBe('idle');
  });

  it('flush() during a write waits for it and then writes what was enqueued meanwhile', async () => {
    const r = recorder();
    const q = new PersistQueue<string, string>({ write: r.write });
    const release = r.holdWrites();
    q.enqueue(item(0, 'A', 'a1'));
    q.enqueue(item(1, 'B', 'b1'));
    let done = false;
    const flushed = q.flush().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    release();
    await flushed;
    expect(r.batches.map((b) => b.batch)).toEqual([[item(0, 'A', 'a1')], [item(1, 'B', 'b1')]]);
    expect(r.maxActive).toBe(1);
  });

  it('a write that throws synchronously is retried like a rejected one', async () => {
    let calls = 0;
    const q = new PersistQueue<string, string>({
      write: () => {
        if (++calls === 1) throw new Error('sync');
        return Promise.resolve();
      },
    });
    q.enqueue(item(0, 'A'));
    await vi.advanceTimersByTimeAsync(0);
    expect(q.status.error).toBe('sync');
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toBe(2);
    expect(q.status.state).toBe('idle');
  });

  it('status is a stable snapshot and listeners can unsubscribe', () => {
    const q = new PersistQueue<string, string>({ write: async () => {} });
    const a = q.status;
    expect(q.status).toBe(a);
    const seen: string[] = [];
    const off = q.subscribe((s) => seen.push(s.state));
    q.enqueue(item(0, 'A'));
    off();
    q.enqueue(item(1, 'B'));
    expect(seen).toEqual(['saving']);
    q.destroy();
    expect(() => q.enqueue(item(0, 'C'))).toThrow(/after destroy/);
  });

  it('uses injected timers for the backoff (and the stall watch) when given', async () => {
    const calls: number[] = [];
    const q = new PersistQueue<string, string>({
      write: async () => {
        throw new Error('full');
      },
      timers: { setTimeout: (_fn, ms) => (calls.push(ms), calls.length), clearTimeout: () => {} },
      retryBaseMs: 70,
      stallMs: 900,
    });
    q.enqueue(item(0, 'A'));
    await Promise.resolve();
    await Promise.resolve();
    expect(calls).toEqual([900, 70]);
  });

  it('writeBeforeLeaving() starts the waiting items’ write at once, beside the one in flight', async () => {
    const r = recorder();
    const q = new PersistQueue<string, string>({ write: r.write });
    const release = r.holdWrites();
    q.enqueue(item(0, 'A', 'a1'));
    q.enqueue(item(1, 'B', 'b1'));
    expect(q.waiting).toBe(1);
    q.writeBeforeLeaving();
    expect(r.batches.map((b) => b.batch)).toEqual([[item(0, 'A', 'a1')], [item(1, 'B', 'b1')]]);
    expect(q.waiting).toBe(0);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(r.write).toHaveBeenCalledTimes(2);
  });

  it('guarantee: with writes that succeed, every item’s write starts at its enqueue or when the write in flight ends (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ gap: fc.nat(700), frame: fc.nat(3) }), { minLength: 1, maxLength: 40 }),
        fc.nat(250),
        async (events, writeMs) => {
          vi.setSystemTime(0);
          const writtenAt = new Map<string, number>();
          const q = new PersistQueue<string, string>({
            write: async (batch) => {
              // Stamped when the write starts; a write takes writeMs.
              for (const i of batch) for (const rev of i.revisions) writtenAt.set(rev, Date.now());
              await new Promise((r) => setTimeout(r, writeMs));
            },
          });
          const enqueuedAt = new Map<string, number>();
          for (const [k, e] of events.entries()) {
            await vi.advanceTimersByTimeAsync(e.gap);
            enqueuedAt.set(`r${k}`, Date.now());
            q.enqueue(item(e.frame, `L${k}`, `r${k}`));
          }
          await vi.advanceTimersByTimeAsync(5000);
          expect(writtenAt.size).toBe(events.length);
          for (const [rev, t] of enqueuedAt) {
            // A write in flight delays the next one by at most its duration; with none, no delay at all.
            expect(writtenAt.get(rev)! - t).toBeLessThanOrEqual(writeMs);
          }
          q.destroy();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a write that goes unanswered is reported stalled, keeps what it carries unsaved, and clears once it ends', async () => {
    const r = recorder();
    const q = new PersistQueue<string, string>({ write: r.write, stallMs: 8000 });
    const release = r.holdWrites();
    q.enqueue(item(0, 'A', 'a1'));
    await vi.advanceTimersByTimeAsync(7999);
    expect(q.status.stalled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(q.status).toEqual({ state: 'saving', pending: 1, error: null, retries: 0, stalled: true });
    q.enqueue(item(0, 'B', 'a2'));
    // Neither retried nor dropped: it may still land; everything it and the later edits carry is unsaved.
    expect(r.write).toHaveBeenCalledTimes(1);
    expect(q.unsaved()).toEqual([item(0, 'B', 'a1', 'a2')]);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(q.status).toEqual({ state: 'idle', pending: 0, error: null, retries: 0, stalled: false });
    expect(r.batches.map((b) => b.batch)).toEqual([[item(0, 'A', 'a1')], [item(0, 'B', 'a2')]]);
  });
});
