import { describe, expect, it, vi } from 'vitest';
import { UUID_PATTERN, newId, newRowId, uuidV4FromBytes, uuidV7Generator } from './ids';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The crypto of an insecure context (plain http on a LAN address): no randomUUID. */
const insecureCrypto: Pick<Crypto, 'getRandomValues'> = { getRandomValues: (a) => crypto.getRandomValues(a) };

describe('newId', () => {
  it('builds v4 UUIDs from getRandomValues where randomUUID is missing', () => {
    const ids = Array.from({ length: 2000 }, () => newId(insecureCrypto));
    for (const id of ids) expect(id).toMatch(V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses crypto.randomUUID where it exists, looked up at call time', () => {
    const spy = vi.spyOn(crypto, 'randomUUID').mockReturnValue('00000000-0000-4000-8000-000000000001');
    try {
      expect(newId()).toBe('00000000-0000-4000-8000-000000000001');
    } finally {
      spy.mockRestore();
    }
    expect(newId()).toMatch(V4);
  });
});

describe('uuidV4FromBytes', () => {
  it('sets the version and variant bits and keeps the other 122 bits', () => {
    expect(uuidV4FromBytes(new Uint8Array(16).fill(0xff))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(uuidV4FromBytes(new Uint8Array(16))).toBe('00000000-0000-4000-8000-000000000000');
    expect(uuidV4FromBytes(Uint8Array.from({ length: 16 }, (_, i) => i))).toBe('00010203-0405-4607-8809-0a0b0c0d0e0f');
  });

  it('refuses a wrong number of bytes, naming it', () => {
    expect(() => uuidV4FromBytes(new Uint8Array(15))).toThrow('a UUID takes 16 random bytes, got 15');
  });

  it('does not alter the caller’s bytes', () => {
    const bytes = new Uint8Array(16).fill(0xff);
    uuidV4FromBytes(bytes);
    expect(bytes.every((b) => b === 0xff)).toBe(true);
  });
});

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The Unix milliseconds in the first 48 bits of a v7 id. */
const timeOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);
/** The 42-bit counter after the timestamp (rand_a, then rand_b without its variant bits). */
const counterOf = (id: string) => {
  const hex = id.replace(/-/g, '');
  return parseInt(hex.slice(13, 16), 16) * 2 ** 30 + (parseInt(hex.slice(16, 24), 16) & 0x3fffffff);
};

describe('uuidV7Generator', () => {
  it('makes version-7, variant-1 ids in canonical form, in an insecure context too', () => {
    const next = uuidV7Generator(Date.now, () => insecureCrypto);
    for (let i = 0; i < 100; i++) {
      const id = next();
      expect(id).toMatch(V7);
      expect(id).toMatch(UUID_PATTERN);
    }
  });

  it('encodes the clock’s milliseconds in the first 48 bits', () => {
    const at = Date.UTC(2026, 10, 28, 15, 4, 5, 678);
    expect(timeOf(uuidV7Generator(() => at)())).toBe(at);
    // The largest 48-bit time (year 10889) still decodes.
    expect(timeOf(uuidV7Generator(() => 2 ** 48 - 1)())).toBe(2 ** 48 - 1);
    const before = Date.now();
    const id = newRowId();
    expect(timeOf(id)).toBeGreaterThanOrEqual(before);
    expect(timeOf(id)).toBeLessThanOrEqual(Date.now());
  });

  it('is strictly increasing over 10k ids made in a tight loop, as strings and as timestamps', () => {
    const ids = Array.from({ length: 10_000 }, () => newRowId());
    for (let i = 1; i < ids.length; i++) {
      expect(ids[i] > ids[i - 1]).toBe(true);
      expect(timeOf(ids[i])).toBeGreaterThanOrEqual(timeOf(ids[i - 1]));
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('counts up within one millisecond and keeps order when the clock steps back', () => {
    let now = 5000;
    const next = uuidV7Generator(() => now);
    const a = next();
    const b = next();
    expect(timeOf(b)).toBe(5000);
    expect(counterOf(b)).toBe(counterOf(a) + 1);
    now = 4000; // the clock went back: the last timestamp is kept
    const c = next();
    expect(timeOf(c)).toBe(5000);
    expect(c > b).toBe(true);
    now = 6000;
    const d = next();
    expect(timeOf(d)).toBe(6000);
    expect(d > c).toBe(true);
    // A fresh millisecond's counter starts with its top bit clear, leaving room to count.
    expect(counterOf(d)).toBeLessThan(2 ** 41);
  });

  it('seeds a millisecond at most halfway up the counter, and counts on past it without touching version or variant', () => {
    const full: Pick<Crypto, 'getRandomValues'> = { getRandomValues: <T extends ArrayBufferView | null>(a: T) => (new Uint8Array((a as unknown as Uint8Array).buffer).fill(0xff), a) };
    const next = uuidV7Generator(() => 7, () => full);
    const first = next();
    expect(counterOf(first)).toBe(2 ** 41 - 1);
    let last = first;
    for (let i = 0; i < 3; i++) last = next();
    expect(last).toMatch(V7);
    expect(counterOf(last)).toBe(2 ** 41 + 2);
    expect(timeOf(last)).toBe(7);
  });
});
