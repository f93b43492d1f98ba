import { describe, expect, it } from 'vitest';
import { chooseBackend, wasmThreads } from './backend';
import { ByteLru } from './byteLru';
import { JobQueue } from '../../rpc/jobQueue';
import { transferablesOf } from '../../rpc/protocol';

describe('backend choice', () => {
  const env = (adapter: unknown, isolated = false, cores = 8) => ({
    gpu: { requestAdapter: async () => adapter },
    crossOriginIsolated: isolated,
    hardwareConcurrency: cores,
  });

  it('uses WebGPU only when an adapter exists', async () => {
    expect(await chooseBackend(env({}))).toMatchObject({ backend: 'webgpu' });
    expect(await chooseBackend(env(null))).toEqual({ backend: 'wasm', reason: 'WebGPU offers no adapter (no usable GPU)' });
    expect(await chooseBackend({ crossOriginIsolated: false, hardwareConcurrency: 2 })).toMatchObject({ backend: 'wasm', reason: /not available/ });
    expect(await chooseBackend(env({}), 'wasm')).toMatchObject({ backend: 'wasm' });
    const throwing = { ...env(null), gpu: { requestAdapter: () => Promise.reject(new Error('boom')) } };
    expect(await chooseBackend(throwing)).toMatchObject({ backend: 'wasm', reason: /boom/ });
  });

  it('uses threads only when cross-origin isolated', () => {
    expect(wasmThreads(env(null, false, 8))).toBe(1);
    expect(wasmThreads(env(null, true, 8))).toBe(4);
    expect(wasmThreads(env(null, true, 2))).toBe(2);
    expect(wasmThreads(env(null, true, 2), 16)).toBe(2);
  });
});

describe('ByteLru', () => {
  it('evicts least recently used entries to stay within the byte budget', () => {
    const evicted: string[] = [];
    const c = new ByteLru<number>(10, (k) => evicted.push(k));
    c.set('a', 1, 4);
    c.set('b', 2, 4);
    expect(c.get('a')).toBe(1); // a is now the most recent
    c.set('c', 3, 4);
    expect(evicted).toEqual(['b']);
    expect(c.keys()).toEqual(['a', 'c']);
    expect(c.bytes).toBe(8);
    expect(c.set('huge', 4, 11)).toBe(false);
    expect(c.has('huge')).toBe(false);
    c.setBudget(4);
    expect(c.keys()).toEqual(['c']);
    expect(c.deleteWhere(() => true)).toBe(1);
    expect(c.bytes).toBe(0);
  });
});

describe('JobQueue', () => {
  it('runs one job at a time, high priority first, FIFO within a priority', async () => {
    const q = new JobQueue();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = q.push(1, 'low', async () => {
      order.push('first');
      await gate;
    });
    const jobs = [
      q.push(2, 'low', async () => void order.push('low-a')),
      q.push(3, 'high', async () => void order.push('high')),
      q.push(4, 'low', async () => void order.push('low-b')),
    ];
    expect(q.pending).toBe(3);
    release();
    await Promise.all([first, ...jobs]);
    expect(order).toEqual(['first', 'high', 'low-a', 'low-b']);
  });

  it('drops a queued job on remove, rejecting its promise', async () => {
    const q = new JobQueue();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const running = q.push(1, 'high', () => gate);
    let ran = false;
    const dropped = q.push(2, 'high', async () => void (ran = true));
    expect(q.remove(2, new Error('cancelled'))).toBe(true);
    expect(q.remove(1, new Error('x'))).toBe(false); // running jobs are not removable
    release();
    await running;
    await expect(dropped).rejects.toThrow('cancelled');
    expect(ran).toBe(false);
  });
});

describe('transferablesOf', () => {
  it('collects whole-buffer typed arrays, once each, and never views into larger buffers', () => {
    const own = new Float32Array(4);
    const big = new ArrayBuffer(64);
    const view = new Uint8Array(big, 8, 8);
    const list = transferablesOf({ a: own, b: [own, { c: view }], d: new Uint8Array(2), s: 'x', n: null });
    expect(list).toHaveLength(2);
    expect(list).toContain(own.buffer);
    expect(list).not.toContain(big);
  });
});
