import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseManifestText } from '../src/inference/models/manifest';
import { inProcessClient } from '../src/testing/inference';
import { makeTinyModels } from './make-tiny-models';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function generate(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'spoc-tiny-'));
  dirs.push(dir);
  await makeTinyModels(dir);
  return dir;
}

describe('scripts/make-tiny-models', () => {
  it('writes the same bytes every time, and a manifest whose self-tests pass when loaded from the files', async () => {
    const a = await generate();
    const b = await generate();
    const manifestText = await readFile(join(a, 'manifest.json'), 'utf8');
    expect(await readFile(join(b, 'manifest.json'), 'utf8')).toBe(manifestText);
    const manifest = parseManifestText(manifestText);
    expect(manifest.models.map((m) => m.family)).toEqual(['sam-official', 'sam-transformersjs', 'clip']);

    const client = inProcessClient();
    try {
      for (const entry of manifest.models) {
        const files: Record<string, { bytes: Uint8Array }> = {};
        for (const [role, path] of Object.entries(entry.files)) {
          const bytes = new Uint8Array(await readFile(join(a, path)));
          expect(bytes).toEqual(new Uint8Array(await readFile(join(b, path))));
          files[role] = { bytes };
        }
        const loaded = await client.load({ modelId: entry.id, family: entry.family, files, selfTest: entry.selfTest });
        for (const [role, result] of Object.entries(loaded.selfTest)) expect(result.failures, `${entry.id}/${role}`).toEqual([]);
        expect(Object.keys(loaded.selfTest).sort()).toEqual(Object.keys(entry.selfTest).sort());
      }
    } finally {
      client.destroy();
    }
  });
});
