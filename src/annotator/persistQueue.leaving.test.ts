/**
 * writeBeforeLeaving() starts a second write beside the one in flight. When the page stays after
 * all (a "stay" answered to the beforeunload prompt), the two must be accounted for in order:
 * whichever fails, its items come back in order and one retry follows; nothing is left waiting
 * without a write or a timer (the quota-full durability run found a queue stuck that way).
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PersistQueue, type PendingWrite } from './persistQueue';

type Item = PendingWrite<string, string>;

const item = (frameIndex: number, layer: string, ...revisions: string[]): Item => ({ clipId: 'c', source: 'gt', frameIndex, layer, revisions });

/** Writes settled by hand, and a model store that applies a batch when its write is told to succeed. */
function controlledStore() {
  const calls: { batch: Item[]; settle: (ok: boolean) => void }[] = [];
  const layers = new Map<number, string>();
  const log: { frameIndex: number; rev: string }[] = [];
  const write = (batch: Item[]) =>
    new Promise<void>((resolve, reject) => {
      const copy = structuredClone(batch);
      calls.push({
        batch: copy,
        settle: (ok) => {
          if (!ok) return reject(new Error('QuotaExceededError'));
          for (const i of copy) {
            layers.set(i.frameIndex, i.layer);
            for (const rev of i.revisions) log.push({ frameIndex: i.frameIndex, rev });
          }
          resolve();
        },
      });
    });
  const revsOf = (frameIndex: number) => log.filter((e) => e.frameIndex === frameIndex).map((e) => e.rev);
  return { calls, layers, log, write, revsOf };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => {
  vi.useRealTimers();
});

/** A failing retry in flight (write 2) with one more edit waiting behind it, the page about to go. */
async function failingRetryWithOneWaiting() {
  const s = controlledStore();
  const q = new PersistQueue<string, string>({ write: s.write, retryBaseMs: 500 });
  q.enqueue(item(0, 'A', 'a1'));
  s.calls[0]!.settle(false);
  await vi.advanceTimersByTimeAsync(500); // the retry starts
  expect(s.calls).toHaveLength(2);
  expect(q.status).toMatchObject({ state: 'saving', retries: 1, stalled: false });
  q.enqueue(item(0, 'B', 'a2'));
  q.writeBeforeLeaving();
  expect(s.calls).toHaveLength(3);
  return { s, q };
}

describe('PersistQueue.writeBeforeLeaving when the page stays', () => {
  it('the retry in flight succeeds and the leaving write fails: its items are retried, not stranded', async () => {
    const { s, q } = await failingRetryWithOneWaiting();
    s.calls[1]!.settle(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(q.status.state).toBe('saving'); // the leaving write still runs
    s.calls[2]!.settle(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(q.status).toMatchObject({ state: 'error', pending: 1, error: 'QuotaExceededError' });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(s.calls).toHaveLength(4); // before the fix: no write and no timer, the edit waited forever
    expect(s.calls[3]!.batch).toEqual([item(0, 'B', 'a2')]);
    s.calls[3]!.settle(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(q.status).toEqual({ state: 'idle', pending: 0, error: null, retries: 0, stalled: false });
    expect(s.revsOf(0)).toEqual(['a1', 'a2']);
    expect(s.layers.get(0)).toBe('B');
  });

  it('both fail: one retry carries the older revisions first, then the newer, with the newest layer', async () => {
    const { s, q } = await failingRetryWithOneWaiting();
    q.enqueue(item(0, 'C', 'a3')); // an edit after the "stay"
    s.calls[2]!.settle(false); // the later write ends first: nothing is decided until the older one ends
    await vi.advanceTimersByTimeAsync(0);
    expect(q.status.state).toBe('saving');
    s.calls[1]!.settle(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(q.status).toMatchObject({ state: 'error', retries: 2, stalled: false });
    expect(q.unsaved()).toEqual([item(0, 'C', 'a1', 'a2', 'a3')]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(s.calls).toHaveLength(4);
    expect(s.calls[3]!.batch).toEqual([item(0, 'C', 'a1', 'a2', 'a3')]);
    s.calls[3]!.settle(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(s.revsOf(0)).toEqual(['a1', 'a2', 'a3']);
    expect(s.layers.get(0)).toBe('C');
  });

  it('the retry fails and the leaving write is stored: the retry keeps the newer stored layer', async () => {
    const { s, q } = await failingRetryWithOneWaiting();
    s.calls[1]!.settle(false);
    s.calls[2]!.settle(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(s.layers.get(0)).toBe('B');
    expect(q.unsaved()).toEqual([{ ...item(0, 'B', 'a1') }]);
    await vi.advanceTimersByTimeAsync(1000);
    s.calls[3]!.settle(true);
    await vi.advanceTimersByTimeAsync(0);
    // The layer is never put back to the older 'A'; every revision is stored once.
    expect(s.layers.get(0)).toBe('B');
    expect([...s.revsOf(0)].sort()).toEqual(['a1', 'a2']);
    expect(q.status.state).toBe('idle');
  });

  it('flush() while the two run resolves only once both are stored, and rejects if either fails', async () => {
    const { s, q } = await failingRetryWithOneWaiting();
    const flushed = q.flush();
    const settled = vi.fn();
    flushed.then(() => settled('stored'), () => settled('failed'));
    s.calls[2]!.settle(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).not.toHaveBeenCalled();
    s.calls[1]!.settle(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toHaveBeenCalledWith('failed');
  });

  it('guarantee: whatever writes fail, once they succeed every revision is stored once and each frame holds its newest layer (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant('edit' as const), frame: fc.nat(2) }),
            fc.record({ kind: fc.constant('leave' as const) }),
            fc.record({ kind: fc.constant('settle' as const), ok: fc.boolean() }),
            fc.record({ kind: fc.constant('wait' as const), ms: fc.nat(3000) }),
          ),
          { maxLength: 40 },
        ),
        async (steps) => {
          const s = controlledStore();
          const q = new PersistQueue<string, string>({ write: s.write, retryBaseMs: 100, retryMaxMs: 400 });
          const newest = new Map<number, string>();
          const revs: string[] = [];
          const open = () => s.calls.filter((c) => c.settle !== done);
          const done = () => undefined;
          const settle = (c: (typeof s.calls)[number], ok: boolean) => {
            c.settle(ok);
            c.settle = done;
          };
          for (const [k, step] of steps.entries()) {
            if (step.kind === 'edit') {
              q.enqueue(item(step.frame, `L${k}`, `r${k}`));
              newest.set(step.frame, `L${k}`);
              revs.push(`r${k}`);
            } else if (step.kind === 'leave') q.writeBeforeLeaving();
            else if (step.kind === 'settle') {
              // IndexedDB runs read-write transactions on the same stores in creation order.
              const oldest = open()[0];
              if (oldest) settle(oldest, step.ok);
            } else await vi.advanceTimersByTimeAsync(step.ms);
            await vi.advanceTimersByTimeAsync(0);
          }
          // From here on every write succeeds.
          for (let round = 0; round < 50 && q.status.state !== 'idle'; round++) {
            for (const c of open()) settle(c, true);
            await vi.advanceTimersByTimeAsync(500);
          }
          expect(q.status.state).toBe('idle');
          expect(s.log.map((e) => e.rev).sort()).toEqual([...revs].sort());
          for (const [frame, layer] of newest) expect(s.layers.get(frame)).toBe(layer);
          q.destroy();
        },
      ),
      { numRuns: 300 },
    );
  });
});
