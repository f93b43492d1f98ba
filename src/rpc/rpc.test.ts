/**
 * The worker RPC end to end in one process: RpcClient -> (structured clone, transfer lists) ->
 * server -> back, through the same in-process transport the workers' unit tests use.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RpcClient } from './client';
import { RpcError } from './protocol';
import { createRpcServer, type RpcHandlers, type RpcServerOptions } from './server';
import { inProcessTransport, type Transport } from './transport';

type TestApi = {
  echo: { params: { text: string }; result: { text: string } };
  count: { params: { to: number }; result: { counted: number }; progress: { step: number } };
  /** Runs until cancelled or `release()`d, counting the steps it took. */
  spin: { params: { id: string }; result: { steps: number } };
  fail: { params: { code?: string }; result: never };
  bytes: { params: { data: Uint8Array; view?: Uint8Array }; result: { sum: number; out: Uint8Array; kept: Uint8Array } };
  wait: { params: { ms: number; tag: string }; result: { tag: string } };
};

/** What the handlers saw, for the assertions. */
const seen = { ran: [] as string[], aborted: [] as string[], steps: new Map<string, number>(), kept: null as Uint8Array | null };
const releases = new Map<string, () => void>();
const tick = () => new Promise<void>((r) => setTimeout(r, 0));

class CodedError extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = 'QuotaProblem';
    this.code = code;
  }
}

const handlers: RpcHandlers<TestApi> = {
  echo: ({ text }) => ({ text }),
  count: async ({ to }, ctx) => {
    for (let step = 1; step <= to; step++) {
      await tick();
      ctx.progress({ step });
    }
    return { counted: to };
  },
  spin: async ({ id }, ctx) => {
    seen.ran.push(id);
    let released = false;
    releases.set(id, () => (released = true));
    let steps = 0;
    try {
      while (!released) {
        ctx.checkpoint(); // a cancel stops the loop here
        steps++;
        seen.steps.set(id, steps);
        await tick();
      }
      return { steps };
    } catch (e) {
      if (ctx.signal.aborted) seen.aborted.push(id);
      throw e;
    }
  },
  fail: ({ code }) => {
    if (code) throw new CodedError('over the limit', code);
    throw new RangeError('frame 12 is out of range');
  },
  bytes: ({ data, view }) => {
    const kept = new Uint8Array([7, 7]);
    seen.kept = kept;
    // A whole-buffer array is transferred back; a view into a larger buffer is copied.
    return { sum: data.reduce((a, b) => a + b, 0) + (view?.length ?? 0), out: new Uint8Array([1, 2, 3]), kept };
  },
  wait: async ({ ms, tag }) => {
    await new Promise((r) => setTimeout(r, ms));
    return { tag };
  },
};

let client: RpcClient<TestApi>;
const open = (options: RpcServerOptions<TestApi> = {}) => (client = new RpcClient<TestApi>(inProcessTransport(createRpcServer(handlers, options)), 'test'));

afterEach(() => {
  client?.destroy();
  for (const release of releases.values()) release();
  releases.clear();
  seen.ran = [];
  seen.aborted = [];
  seen.steps.clear();
});

describe('worker RPC over the in-process transport', () => {
  it('answers a request with its result (cloned, not shared)', async () => {
    open();
    const params = { text: 'hello' };
    const r = await client.call('echo', params);
    expect(r).toEqual({ text: 'hello' });
    expect(r).not.toBe(params);
    expect(client.inFlight).toBe(0);
  });

  it('delivers progress in the order sent, all before the result', async () => {
    open();
    const events: string[] = [];
    const done = client.call('count', { to: 5 }, { onProgress: (p) => events.push(`step ${p.step}`) }).then((r) => events.push(`result ${r.counted}`));
    await done;
    expect(events).toEqual(['step 1', 'step 2', 'step 3', 'step 4', 'step 5', 'result 5']);
  });

  it('keeps concurrent requests apart: each answer reaches its own caller, whatever the order', async () => {
    open();
    const order: string[] = [];
    const slow = client.call('wait', { ms: 30, tag: 'slow' }).then((r) => (order.push(r.tag), r));
    const fast = client.call('wait', { ms: 1, tag: 'fast' }).then((r) => (order.push(r.tag), r));
    const echoes = Promise.all(['a', 'b', 'c'].map((text) => client.call('echo', { text })));
    expect(await slow).toEqual({ tag: 'slow' });
    expect(await fast).toEqual({ tag: 'fast' });
    expect(order).toEqual(['fast', 'slow']);
    expect((await echoes).map((r) => r.text)).toEqual(['a', 'b', 'c']);
  });

  it('carries a thrown Error as its name and message, and the code when it has one', async () => {
    open();
    const plain = await client.call('fail', {}).catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(RpcError);
    expect(plain).toMatchObject({ name: 'RangeError', message: 'frame 12 is out of range' });
    expect((plain as RpcError).code).toBeUndefined();
    await expect(client.call('fail', { code: 'QUOTA' })).rejects.toMatchObject({ name: 'QuotaProblem', message: 'over the limit', code: 'QUOTA' });
  });

  it('answers an unknown method with a BadRequest, and keeps serving', async () => {
    open();
    await expect(client.call('nonsense' as 'echo', { text: '' })).rejects.toMatchObject({ name: 'BadRequest', message: 'unknown method nonsense' });
    await expect(client.call('toString' as 'echo', { text: '' })).rejects.toMatchObject({ name: 'BadRequest' });
    expect(await client.call('echo', { text: 'still here' })).toEqual({ text: 'still here' });
  });

  it('transfers buffers when asked: the sender\'s array is detached; result arrays come back transferred', async () => {
    open();
    const data = new Uint8Array([1, 2, 3, 4]);
    const big = new ArrayBuffer(16);
    const view = new Uint8Array(big, 4, 4);
    const r = await client.call('bytes', { data, view }, { transfer: true });
    expect(r.sum).toBe(14);
    expect(data.byteLength).toBe(0); // moved to the worker, not copied
    expect(big.byteLength).toBe(16); // a view into a larger buffer is copied, never transferred
    expect([...r.out]).toEqual([1, 2, 3]);
    expect(seen.kept!.byteLength).toBe(0); // the worker's result buffer moved to the page
    expect([...r.kept]).toEqual([7, 7]);

    const copied = new Uint8Array([5, 5]);
    await client.call('bytes', { data: copied });
    expect(copied.byteLength).toBe(2); // copied by default

    const bare = new ArrayBuffer(8);
    await client.call('bytes', { data: new Uint8Array(bare) }, { transfer: [bare] });
    expect(bare.byteLength).toBe(0); // an explicit transfer list
  });

  it('cancels a running call: the caller is rejected at once and the handler sees its signal and stops', async () => {
    open();
    const ac = new AbortController();
    const running = client.call('spin', { id: 'run' }, { signal: ac.signal });
    while ((seen.steps.get('run') ?? 0) < 3) await tick();
    ac.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError', message: 'spin cancelled' });
    expect(client.inFlight).toBe(0);
    // The handler stopped by itself: with a no-op cancel it would spin on until released.
    for (let i = 0; i < 20 && seen.aborted.length === 0; i++) await tick();
    expect(seen.aborted).toEqual(['run']);
    const stoppedAt = seen.steps.get('run')!;
    for (let i = 0; i < 10; i++) await tick();
    expect(seen.steps.get('run')).toBe(stoppedAt);
  });

  it('cancels a queued call before it starts: it never runs, and the queue goes on', async () => {
    open({ queue: true, immediate: ['echo'] });
    const first = client.call('spin', { id: 'first' });
    const ac = new AbortController();
    const queued = client.call('spin', { id: 'queued' }, { signal: ac.signal });
    const after = client.call('wait', { ms: 1, tag: 'after' });
    while (!releases.has('first')) await tick();
    // Immediate methods are answered while the queue is busy.
    expect(await client.call('echo', { text: 'now' })).toEqual({ text: 'now' });
    ac.abort();
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    releases.get('first')!();
    expect((await first).steps).toBeGreaterThan(0);
    expect(await after).toEqual({ tag: 'after' });
    expect(seen.ran).toEqual(['first']); // "queued" never started
  });

  it('refuses a call whose signal is already aborted without sending it', async () => {
    open();
    const ac = new AbortController();
    ac.abort();
    await expect(client.call('spin', { id: 'never' }, { signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError', message: 'spin aborted before it was sent' });
    await tick();
    expect(seen.ran).toEqual([]);
  });

  it('runs high priority before queued low priority work, FIFO within a priority', async () => {
    open({ queue: true });
    const order: string[] = [];
    const gate = client.call('spin', { id: 'gate' });
    const calls = [
      client.call('wait', { ms: 0, tag: 'low-a' }, { priority: 'low' }),
      client.call('wait', { ms: 0, tag: 'high' }),
      client.call('wait', { ms: 0, tag: 'low-b' }, { priority: 'low' }),
    ].map((p) => p.then((r) => order.push(r.tag)));
    while (!releases.has('gate')) await tick();
    releases.get('gate')!();
    await gate;
    await Promise.all(calls);
    expect(order).toEqual(['high', 'low-a', 'low-b']);
  });

  it('destroy() rejects pending calls and refuses new ones', async () => {
    open();
    const pending = client.call('spin', { id: 'pending' });
    client.destroy();
    await expect(pending).rejects.toMatchObject({ name: 'ClientDestroyed', message: 'the test client was destroyed' });
    await expect(client.call('echo', { text: 'x' })).rejects.toMatchObject({ name: 'ClientDestroyed' });
  });

  it('fails every pending call with WorkerFailed when the worker dies', async () => {
    let die: (e: Error) => void = () => undefined;
    const dead: Transport = { send() {}, onMessage() {}, onFatal: (h) => (die = h), close() {} };
    const c = new RpcClient<TestApi>(dead, 'test');
    const pending = c.call('echo', { text: 'x' });
    die(new Error('test worker failed: out of memory'));
    await expect(pending).rejects.toMatchObject({ name: 'WorkerFailed', message: 'test worker failed: out of memory' });
    expect(c.failure?.name).toBe('WorkerFailed');
  });
});
