import { describe, expect, it } from 'vitest';
import { zipSync, strToU8 } from 'fflate';
import { readZip } from './zipArchive';

const blobOf = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);

describe('readZip', () => {
  it('reads entries with normalised paths and skips junk and directories', async () => {
    const zip = zipSync({ 'clip/': {}, 'clip/b.jpg': strToU8('bb'), 'clip/a.jpg': strToU8('a'), '__MACOSX/clip/._a.jpg': strToU8('x') });
    const files = await readZip(blobOf(zip), 'frames.zip');
    expect(files.map((f) => f.path).sort()).toEqual(['clip/a.jpg', 'clip/b.jpg']);
    expect(await files.find((f) => f.path === 'clip/b.jpg')!.blob.text()).toBe('bb');
  });

  it('refuses a truncated archive, naming it', async () => {
    const zip = zipSync({ 'a.jpg': new Uint8Array(5000).fill(7) });
    await expect(readZip(blobOf(zip.subarray(0, zip.length - 30)), 'cut.zip')).rejects.toThrow(/^cut\.zip: is not a readable zip archive/);
  });

  it('refuses bytes that are not a zip', async () => {
    await expect(readZip(blobOf(strToU8('hello, not a zip')), 'x.zip')).rejects.toThrow(/^x\.zip: is not a readable zip archive/);
  });

  it('refuses path traversal before extracting anything', async () => {
    const zip = zipSync({ '../../etc/passwd.jpg': strToU8('x') });
    await expect(readZip(blobOf(zip), 'evil.zip')).rejects.toThrow('evil.zip: entry "../../etc/passwd.jpg" has an unsafe path');
  });

  it('refuses a zip bomb by its declared ratio', async () => {
    const zip = zipSync({ 'bomb.png': new Uint8Array(20 * 2 ** 20) }, { level: 9 });
    await expect(readZip(blobOf(zip), 'bomb.zip')).rejects.toThrow(/bomb\.zip: entry "bomb\.png" expands \d+:1, which looks like a zip bomb/);
  });

  it('enforces per-entry and entry-count limits', async () => {
    const zip = zipSync({ 'a.jpg': new Uint8Array(2000), 'b.jpg': new Uint8Array(10) }, { level: 0 });
    const limits = { maxEntries: 10, maxEntryBytes: 1000, maxTotalBytes: 1e9, maxRatio: 200 };
    await expect(readZip(blobOf(zip), 'big.zip', undefined, limits)).rejects.toThrow('big.zip: entry "a.jpg" declares 2000 bytes');
    await expect(readZip(blobOf(zip), 'many.zip', undefined, { ...limits, maxEntryBytes: 1e6, maxEntries: 1 })).rejects.toThrow('many.zip: has more than 1 entries');
  });
});
