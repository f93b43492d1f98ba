/**
 * Writes the tiny test models (real ONNX files with the exact signatures of the supported model
 * families, outputs that are simple known functions), a toy CLIP tokenizer.json and a manifest
 * with golden self-tests into public/models/tiny/ (gitignored: regenerate, never commit).
 *
 *   npx tsx scripts/make-tiny-models.ts [--out <dir>]
 *
 * Point the app at public/models/tiny/manifest.json to try every assist without real weights.
 * Output is deterministic: running it twice gives identical files.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-web';
import { computeTinyManifest, makeTinyModelSet } from '../src/inference/onnx/tiny';
import { wrapSession } from '../src/inference/runtime/ortSession';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export async function makeTinyModels(outDir: string): Promise<string[]> {
  const set = makeTinyModelSet();
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  for (const [path, bytes] of Object.entries(set.files)) {
    await writeFile(join(outDir, path), bytes);
    written.push(path);
  }
  const manifest = await computeTinyManifest(set, async (bytes) => wrapSession(ort, await ort.InferenceSession.create(bytes), 'wasm'));
  await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  written.push('manifest.json');
  return written;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const i = process.argv.indexOf('--out');
  const out = i > 0 && process.argv[i + 1] ? resolve(process.argv[i + 1]) : join(root, 'public', 'models', 'tiny');
  const files = await makeTinyModels(out);
  console.log(`wrote ${files.length} files to ${out}: ${files.join(', ')}`);
}
