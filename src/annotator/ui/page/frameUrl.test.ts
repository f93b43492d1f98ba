import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { frameUrlWriter } from './frameUrl';

describe('frameUrlWriter', () => {
  let clock = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 1000;
  });
  afterEach(() => vi.useRealTimers());
  const advance = (ms: number) => {
    clock += ms;
    vi.advanceTimersByTime(ms);
  };

  it('writes a switch after a pause at once', () => {
    const writes: number[] = [];
    const url = frameUrlWriter((k) => writes.push(k), 200, () => clock);
    url.set(3);
    expect(writes).toEqual([3]);
    advance(500);
    url.set(4);
    expect(writes).toEqual([3, 4]);
  });

  it('folds quick switches into one write of the last frame at the end of the window', () => {
    const writes: number[] = [];
    const url = frameUrlWriter((k) => writes.push(k), 200, () => clock);
    url.set(1);
    for (let k = 2; k <= 6; k++) {
      advance(30);
      url.set(k);
    }
    expect(writes).toEqual([1]);
    advance(50); // 200 ms after the first write
    expect(writes).toEqual([1, 6]);
    advance(1000);
    expect(writes).toEqual([1, 6]);
  });

  it('drops a pending write when cancelled', () => {
    const writes: number[] = [];
    const url = frameUrlWriter((k) => writes.push(k), 200, () => clock);
    url.set(1);
    advance(10);
    url.set(2);
    url.cancel();
    advance(1000);
    expect(writes).toEqual([1]);
  });
});
