import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRYPT, hashPassword, needsRehash, verifyPassword } from './passwords';

const CHEAP = { N: 1024, r: 8, p: 1 };

describe('scrypt password hashes', () => {
  it('verifies the right password and refuses a wrong one (default cost)', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$N=32768,r=8,p=1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
  });

  it('salts per hash: the same password hashes differently', async () => {
    const a = await hashPassword('same password', CHEAP);
    const b = await hashPassword('same password', CHEAP);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same password', a)).toBe(true);
    expect(await verifyPassword('same password', b)).toBe(true);
  });

  it('verifies with the parameters recorded in the hash, and flags weaker ones for rehashing', async () => {
    const old = await hashPassword('an older password', CHEAP);
    expect(await verifyPassword('an older password', old)).toBe(true);
    expect(needsRehash(old, DEFAULT_SCRYPT)).toBe(true);
    expect(needsRehash(await hashPassword('x'.repeat(12), DEFAULT_SCRYPT), DEFAULT_SCRYPT)).toBe(false);
  });

  it('treats malformed or absurd stored hashes as a failed check, not a crash', async () => {
    for (const stored of ['', 'plain', 'scrypt$N=3,r=8,p=1$AAAA$AAAA', 'scrypt$N=1073741824,r=8,p=1$AAAA$AAAA', 'bcrypt$2b$10$abc']) {
      expect(await verifyPassword('whatever pass', stored)).toBe(false);
    }
  });

  it('normalises Unicode, so the same password typed on another keyboard (é vs e + ◌́) matches', async () => {
    const stored = await hashPassword('caf\u00e9 au lait!', CHEAP);
    expect(await verifyPassword('cafe\u0301 au lait!', stored)).toBe(true);
  });
});
