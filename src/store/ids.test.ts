import { describe, expect, it, vi } from 'vitest';
import { newId, uuidV4FromBytes } from './ids';

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
