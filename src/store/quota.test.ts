import { describe, expect, it } from 'vitest';
import { formatBytes, quotaWarning, readQuota, requestPersistence, type StorageLike } from './quota';

const MB = 1024 * 1024;
const GB = 1024 * MB;

describe('quotaWarning', () => {
  it('is silent below 80 % and when the quota is unknown', () => {
    expect(quotaWarning(0, 10 * GB)).toBeNull();
    expect(quotaWarning(7.99 * GB, 10 * GB)).toBeNull();
    expect(quotaWarning(9 * GB, 0)).toBeNull();
    expect(quotaWarning(9 * GB, Number.NaN)).toBeNull();
  });

  it('warns from 80 % and is critical from 95 %', () => {
    expect(quotaWarning(8 * GB, 10 * GB)).toEqual({
      level: 'warn',
      message: 'Storage is 80% full (8.0 GB of 10.0 GB). Consider deleting clips you no longer need.',
    });
    expect(quotaWarning(9.49 * GB, 10 * GB)?.level).toBe('warn');
    expect(quotaWarning(9.5 * GB, 10 * GB)?.level).toBe('critical');
    expect(quotaWarning(9.5 * GB, 10 * GB)?.message).toMatch(/95% full .*Delete clips or export a bundle/);
  });

  it('counts the incoming bytes, and is critical when they do not fit', () => {
    expect(quotaWarning(7 * GB, 10 * GB, 0.5 * GB)).toBeNull();
    expect(quotaWarning(7 * GB, 10 * GB, 1.2 * GB)).toMatchObject({
      level: 'warn',
      message: expect.stringMatching(/^Storage will be 82% full after this/),
    });
    expect(quotaWarning(7 * GB, 10 * GB, 2.6 * GB)?.level).toBe('critical');
    expect(quotaWarning(100 * MB, 200 * MB, 150 * MB)).toEqual({
      level: 'critical',
      message: 'Not enough storage: this needs 150.0 MB but only 100.0 MB is free. Delete clips or free disk space first.',
    });
  });
});

describe('requestPersistence / readQuota', () => {
  it('are safe without navigator.storage (Node, old webviews)', async () => {
    expect(await requestPersistence(undefined)).toBe(false);
    expect(await requestPersistence({})).toBe(false);
    expect(await readQuota(undefined)).toEqual({ usage: 0, quota: 0, persisted: false, known: false });
  });

  it('asks only when not yet persisted, and survives a rejecting browser', async () => {
    let asked = 0;
    const already: StorageLike = { persisted: async () => true, persist: async () => (asked++, true) };
    expect(await requestPersistence(already)).toBe(true);
    expect(asked).toBe(0);
    const grants: StorageLike = { persisted: async () => false, persist: async () => (asked++, true) };
    expect(await requestPersistence(grants)).toBe(true);
    expect(asked).toBe(1);
    const throws: StorageLike = { persist: () => Promise.reject(new Error('private mode')) };
    expect(await requestPersistence(throws)).toBe(false);
  });

  it('reads usage, quota and persistence', async () => {
    const storage: StorageLike = {
      persisted: async () => true,
      estimate: async () => ({ usage: 5 * MB, quota: 2 * GB }),
    };
    expect(await readQuota(storage)).toEqual({ usage: 5 * MB, quota: 2 * GB, persisted: true, known: true });
    expect(await readQuota({ estimate: () => Promise.reject(new Error('no')) })).toMatchObject({ known: false });
  });
});

describe('formatBytes', () => {
  it('picks a readable unit', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(3.25 * MB)).toBe('3.3 MB');
    expect(formatBytes(1.5 * GB)).toBe('1.5 GB');
  });
});
