import { describe, expect, it } from 'vitest';
import { createRng, hash2, hashString, mix32, mulberry32, normalizeSeed } from './random';
import { dcos, dsin } from './math';

describe('random', () => {
  it('mulberry32 produces the pinned reference stream (same on every platform)', () => {
    const next = mulberry32(1);
    const got = Array.from({ length: 5 }, () => Math.floor(next() * 4294967296));
    // Pinned: a change here changes every demo clip.
    expect(got).toEqual([2693262067, 11749833, 2265367787, 4213581821, 4159151403]);
  });

  it('is deterministic per seed and differs across seeds', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const sa = Array.from({ length: 100 }, () => a.next());
    const sb = Array.from({ length: 100 }, () => b.next());
    const sc = Array.from({ length: 100 }, () => c.next());
    expect(sa).toEqual(sb);
    expect(sa).not.toEqual(sc);
    expect(sa.every((v) => v >= 0 && v < 1)).toBe(true);
  });

  it('forks are independent of draws on the parent', () => {
    const a = createRng(7);
    const b = createRng(7);
    b.next();
    b.next();
    expect(a.fork('x').next()).toBe(b.fork('x').next());
    expect(a.fork('x').next()).not.toBe(a.fork('y').next());
  });

  it('helpers stay in range', () => {
    const r = createRng(3);
    for (let i = 0; i < 1000; i++) {
      const k = r.int(7);
      expect(Number.isInteger(k) && k >= 0 && k < 7).toBe(true);
      const v = r.range(-2, 5);
      expect(v >= -2 && v < 5).toBe(true);
    }
    expect(() => r.pick([])).toThrow(RangeError);
  });

  it('hashes are uint32 and mix well', () => {
    expect(mix32(0)).toBe(0);
    expect(mix32(1)).not.toBe(mix32(2));
    expect(hash2(1, 2)).not.toBe(hash2(2, 1));
    expect(hashString('grating')).not.toBe(hashString('peeling'));
    for (const v of [hash2(-1, 5), hashString(''), mix32(0xffffffff)]) expect(v >>> 0).toBe(v);
  });

  it('normalizeSeed accepts safe integers only', () => {
    expect(normalizeSeed(0)).toBe(normalizeSeed(0));
    expect(normalizeSeed(-1)).not.toBe(normalizeSeed(4294967295));
    expect(normalizeSeed(2 ** 40)).not.toBe(normalizeSeed(0));
    expect(() => normalizeSeed(1.5)).toThrow(RangeError);
    expect(() => normalizeSeed(Number.NaN)).toThrow(RangeError);
  });

  it('deterministic sin/cos match Math within 1e-9', () => {
    for (let x = -50; x <= 50; x += 0.0137) {
      expect(Math.abs(dsin(x) - Math.sin(x))).toBeLessThan(1e-9);
      expect(Math.abs(dcos(x) - Math.cos(x))).toBeLessThan(1e-9);
    }
  });
});
