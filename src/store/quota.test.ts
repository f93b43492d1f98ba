import { describe, expect, it } from 'vitest';
import {
  HOURLY_WRITES_FLOOR,
  expectedHourlyWrites,
  formatBytes,
  importRoomProblem,
  lowSpaceWarning,
  quotaWarning,
  readQuota,
  requestPersistence,
  type StorageLike,
} from './quota';

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

describe('importRoomProblem (refusing an import that will not fit, before decoding it)', () => {
  it('accepts an import that fits with a 10 % margin, and never refuses on an unknown quota', () => {
    expect(importRoomProblem(9 * MB, 30 * MB, 40 * MB)).toBeNull(); // 9.9 MB needed, 10 MB free
    expect(importRoomProblem(500 * MB, 0, 0)).toBeNull();
    expect(importRoomProblem(0, 40 * MB, 40 * MB)).toBeNull();
  });

  it('refuses one that does not, naming every size in MB', () => {
    expect(importRoomProblem(9.6 * MB, 30 * MB, 40 * MB)).toBe(
      'needs about 10.6 MB of storage (9.6 MB of images and data plus 10 %) but only 10.0 MB is free (30.0 MB of 40.0 MB used). ' +
        'Delete clips or export and remove a project first',
    );
    expect(importRoomProblem(40 * MB, 45 * MB, 40 * MB)).toMatch(/only 0\.0 MB is free/);
  });
});

describe('expectedHourlyWrites / lowSpaceWarning (the next hour of writes)', () => {
  const min = 60_000;

  it('never expects less than the painting floor', () => {
    expect(expectedHourlyWrites([])).toBe(HOURLY_WRITES_FLOOR);
    expect(expectedHourlyWrites([{ at: 0, usage: 5 * MB }])).toBe(HOURLY_WRITES_FLOOR);
    expect(expectedHourlyWrites([{ at: 0, usage: 5 * MB }, { at: 60 * min, usage: 6 * MB }])).toBe(HOURLY_WRITES_FLOOR);
  });

  it('scales this session\'s growth to an hour, ignoring shrinkage and extrapolating at least 15 minutes', () => {
    // 40 MB in 30 minutes, with a delete in between that freed 10 MB: 80 MB an hour.
    const samples = [
      { at: 0, usage: 10 * MB },
      { at: 10 * min, usage: 40 * MB },
      { at: 20 * min, usage: 30 * MB },
      { at: 30 * min, usage: 40 * MB },
    ];
    expect(expectedHourlyWrites(samples)).toBe(80 * MB);
    // A 40 MB import in the first minute reads as 40 MB per 15 minutes, not per minute.
    expect(expectedHourlyWrites([{ at: 0, usage: 0 }, { at: min, usage: 40 * MB }])).toBe(160 * MB);
  });

  it('warns when free space is under the next hour, critically under a quarter of it', () => {
    expect(lowSpaceWarning(10 * MB, 40 * MB, 25 * MB)).toBeNull();
    expect(lowSpaceWarning(20 * MB, 40 * MB, 25 * MB)).toEqual({
      level: 'warn',
      message:
        'Only 20.0 MB of storage is free, less than the next hour of work is expected to write (about 25.0 MB). ' +
        'Export a bundle and delete clips you no longer need before saves start to fail.',
    });
    expect(lowSpaceWarning(36 * MB, 40 * MB, 25 * MB)?.level).toBe('critical');
    expect(lowSpaceWarning(36 * MB, 0, 25 * MB)).toBeNull();
  });
});
