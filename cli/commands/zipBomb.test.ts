/**
 * `convert` reads a zip of a folder format through the app's hardened zip reader: hostile zips
 * (generated here, never committed) are refused as data errors naming the file and the real
 * problem, fast and without unpacking, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { damagedDirectoryZip, manyEntryBomb, namedZip } from '../../src/testing/zips';
import { runCli, tempDir } from '../testing';

let root: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir: root, cleanup } = await tempDir('spoc-cli-zip-'));
});
afterAll(() => cleanup());

async function convert(zip: Uint8Array, name: string) {
  await writeFile(path.join(root, name), zip);
  const t = performance.now();
  const result = await runCli(['convert', '--from', 'wtc', '--to', 'coco', name, `${name}.json`], root);
  return { ...result, ms: performance.now() - t, wrote: existsSync(path.join(root, `${name}.json`)) };
}

describe('convert refuses hostile zips', () => {
  it('the 4 MB many-entry bomb: exit 1, named as a zip bomb, in well under a second, nothing written', async () => {
    const r = await convert(manyEntryBomb({ name: (i) => `chopping_onion/JPEGImages_1fps/v1/frame${String(i).padStart(5, '0')}.jpg` }), 'bomb.zip');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/spoc-studio convert: error: bomb\.zip: looks like a zip bomb: its first \d+ entries alone declare/);
    expect(r.ms).toBeLessThan(2000);
    expect(r.wrote).toBe(false);
  });

  it('a damaged central directory and a backslash-rooted name are named as such', async () => {
    const damaged = await convert(damagedDirectoryZip(), 'damaged.zip');
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain("damaged.zip: the zip's central directory is damaged");
    const rooted = await convert(namedZip('\\evil.jpg'), 'rooted.zip');
    expect(rooted.code).toBe(1);
    expect(rooted.stderr).toContain('rooted.zip: entry "\\\\evil.jpg" has an absolute path');
  });
});
