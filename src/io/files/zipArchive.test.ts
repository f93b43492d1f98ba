import { describe, expect, it } from 'vitest';
import { zipSync, strToU8 } from 'fflate';
import { readZip } from './zipArchive';
import {
  CP437_CAFE,
  badCrcZip,
  damagedDirectoryZip,
  encryptedZip,
  entry,
  forgeZip,
  lyingSizeZip,
  manyEntryBomb,
  namedZip,
  unicodePathExtra,
} from '../../testing/zips';

const blobOf = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);
const bytes = (s: string) => new TextEncoder().encode(s);

describe('readZip', () => {
  it('reads entries with normalised paths and skips junk and directories', async () => {
    const zip = zipSync({ 'clip/': {}, 'clip/b.jpg': strToU8('bb'), 'clip/a.jpg': strToU8('a'), '__MACOSX/clip/._a.jpg': strToU8('x') });
    const files = await readZip(blobOf(zip), 'frames.zip');
    expect(files.map((f) => f.path).sort()).toEqual(['clip/a.jpg', 'clip/b.jpg']);
    expect(await files.find((f) => f.path === 'clip/b.jpg')!.blob.text()).toBe('bb');
  });

  it('reads stored and deflated entries byte for byte, with their types, and a zip64 archive the same way', async () => {
    const jpeg = new Uint8Array(5000).map((_, i) => (i * 7919) % 251);
    const made = [entry('f/frame1.jpg', jpeg, 0), entry('f/frame2.png', jpeg, 8), entry('f/meta.json', bytes('{"a": 1}'))];
    for (const zip of [forgeZip(made), forgeZip(made, { zip64: true })]) {
      const files = await readZip(blobOf(zip), 'frames.zip');
      expect(files.map((f) => [f.path, f.blob.type, f.blob.size])).toEqual([
        ['f/frame1.jpg', 'image/jpeg', 5000],
        ['f/frame2.png', 'image/png', 5000],
        ['f/meta.json', 'application/json', 8],
      ]);
      expect(new Uint8Array(await files[0].blob.arrayBuffer())).toEqual(jpeg);
      expect(new Uint8Array(await files[1].blob.arrayBuffer())).toEqual(jpeg);
    }
  });

  it('never inflates entries the caller does not want', async () => {
    // The unwanted entry lies about its size; reading it would fail.
    const zip = forgeZip([entry('f/frame1.jpg', bytes('ok')), { ...entry('notes.txt', new Uint8Array(4000)), size: 10 }]);
    const files = await readZip(blobOf(zip), 'frames.zip', (p) => p.endsWith('.jpg'));
    expect(files.map((f) => f.path)).toEqual(['f/frame1.jpg']);
  });

  it('refuses a truncated archive, naming it', async () => {
    const zip = zipSync({ 'a.jpg': new Uint8Array(5000).fill(7) });
    await expect(readZip(blobOf(zip.subarray(0, zip.length - 30)), 'cut.zip')).rejects.toThrow(/^cut\.zip: is not a readable zip archive/);
  });

  it('refuses bytes that are not a zip', async () => {
    await expect(readZip(blobOf(strToU8('hello, not a zip')), 'x.zip')).rejects.toThrow(/^x\.zip: is not a readable zip archive/);
  });

  it('says when the central directory is damaged', async () => {
    await expect(readZip(blobOf(damagedDirectoryZip()), 'd.zip')).rejects.toThrow(
      /^d\.zip: the zip's central directory is damaged \(record 2 at byte \d+ is not a directory entry\)/,
    );
  });

  it('refuses path traversal and rooted names before extracting anything', async () => {
    const zip = zipSync({ '../../etc/passwd.jpg': strToU8('x') });
    await expect(readZip(blobOf(zip), 'evil.zip')).rejects.toThrow('evil.zip: entry "../../etc/passwd.jpg" has a path that climbs out of the archive');
    await expect(readZip(blobOf(namedZip('\\evil.jpg')), 'evil.zip')).rejects.toThrow('evil.zip: entry "\\\\evil.jpg" has an absolute path');
    await expect(readZip(blobOf(namedZip('C:\\x')), 'evil.zip')).rejects.toThrow('evil.zip: entry "C:\\\\x" has an absolute path');
    await expect(readZip(blobOf(namedZip('a\\..\\..\\x.jpg')), 'evil.zip')).rejects.toThrow('climbs out of the archive');
  });

  it('refuses one entry that would expand past the per-entry ratio', async () => {
    const zip = zipSync({ 'bomb.png': new Uint8Array(20 * 2 ** 20) }, { level: 9 });
    await expect(readZip(blobOf(zip), 'bomb.zip')).rejects.toThrow(/bomb\.zip: entry "bomb\.png" would expand \d+:1, which looks like a zip bomb/);
  });

  // Its speed is measured by npm run bench zip-bomb, not asserted here; memory shows nothing was inflated.
  it('refuses the many-entry bomb (4,250 entries of ~1 MB of zeros) from its directory, without inflating it', async () => {
    const bomb = manyEntryBomb();
    expect(bomb.length).toBeLessThan(5 * 2 ** 20);
    const rssBefore = process.memoryUsage().rss;
    const err = await readZip(blobOf(bomb), 'bomb.zip').catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^bomb\.zip: looks like a zip bomb: its first \d+ entries alone declare \d+\.\d MB of content in a 4\.5 MB file \(over 100:1/);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 2 ** 20);
  });

  it('accepts a small archive of highly compressible entries (under the ratio floor)', async () => {
    const zip = manyEntryBomb({ entries: 20, entryBytes: 100_000 });
    expect(await readZip(blobOf(zip), 'flat.zip')).toHaveLength(20);
  });

  it('stops an entry that inflates past its declared size', async () => {
    await expect(readZip(blobOf(lyingSizeZip(1000)), 'lie.zip')).rejects.toThrow(
      'lie.zip: entry "frames/frame1.jpg" inflates to more than the 1000 bytes it declares; the archive is corrupt or a zip bomb',
    );
  });

  it('checks CRC-32', async () => {
    await expect(readZip(blobOf(badCrcZip()), 'crc.zip')).rejects.toThrow('crc.zip: entry "frames/frame1.jpg" fails its CRC-32 check');
  });

  it('refuses encrypted entries', async () => {
    await expect(readZip(blobOf(encryptedZip()), 'locked.zip')).rejects.toThrow('locked.zip: entry "frames/frame1.jpg" is encrypted; encrypted zips are not supported');
  });

  it('reads names per the spec: code page 437 unflagged, UTF-8 flagged, the Unicode Path field, unflagged UTF-8 as UTF-8', async () => {
    const cp437 = await readZip(blobOf(namedZip(CP437_CAFE)), 'old.zip');
    expect(cp437.map((f) => f.path)).toEqual(['café.jpg']);
    const flagged = await readZip(blobOf(namedZip('grün/frame1.jpg')), 'new.zip');
    expect(flagged.map((f) => f.path)).toEqual(['grün/frame1.jpg']);
    const unflagged = await readZip(blobOf(namedZip(bytes('grün/frame1.jpg'), 0)), 'linux.zip');
    expect(unflagged.map((f) => f.path)).toEqual(['grün/frame1.jpg']);
    const raw = new Uint8Array([0x6b, 0x81, 0x72, 0x62, 0x69, 0x73, 0x2e, 0x6a, 0x70, 0x67]);
    const withField = forgeZip([{ ...entry(raw, bytes('y')), extra: unicodePathExtra(raw, 'kürbis-ü.jpg') }]);
    expect((await readZip(blobOf(withField), 'infozip.zip')).map((f) => f.path)).toEqual(['kürbis-ü.jpg']);
  });

  it('refuses a name flagged as UTF-8 that is not, and names whose bytes are unusable', async () => {
    await expect(readZip(blobOf(namedZip(CP437_CAFE, 1 << 11)), 'bad.zip')).rejects.toThrow(
      'bad.zip: entry 1 ("caf�.jpg"): its name is not valid UTF-8 although the archive marks it as UTF-8 (flag bit 11)',
    );
    await expect(readZip(blobOf(namedZip(new Uint8Array([0x61, 0x07, 0x62]))), 'bell.zip')).rejects.toThrow('bell.zip: entry "a\\u0007b" has a control character in its name');
  });

  it('enforces per-entry and entry-count limits', async () => {
    const zip = zipSync({ 'a.jpg': new Uint8Array(2000), 'b.jpg': new Uint8Array(10) }, { level: 0 });
    const limits = { maxEntries: 10, maxEntryBytes: 1000, maxTotalBytes: 1e9, maxEntryRatio: 200, maxArchiveRatio: 100, maxDirectoryBytes: 1e6 };
    await expect(readZip(blobOf(zip), 'big.zip', undefined, limits)).rejects.toThrow('big.zip: entry "a.jpg" declares 2000 bytes');
    await expect(readZip(blobOf(zip), 'many.zip', undefined, { ...limits, maxEntryBytes: 1e6, maxEntries: 1 })).rejects.toThrow('many.zip: has 2 entries; at most 1 are accepted');
  });
});
