/**
 * The davis2017-evaluation numpy re-statement (src/testing/davis2017_numpy.py) timed on a mask set
 * the CLI benches also evaluate: each clip's GT and prediction masks as the raw uint8 stacks the
 * script reads (written before the clock starts, so Python is not charged for PNG decoding, which
 * the real reference does with PIL: the ratio printed against it is conservative).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { decodeIndexedPng } from '../src/io/indexedPng';

const SCRIPT = new URL('../src/testing/davis2017_numpy.py', import.meta.url).pathname;

export function havePythonNumpy(): boolean {
  return spawnSync('python3', ['-c', 'import numpy, scipy'], { encoding: 'utf8' }).status === 0;
}

/**
 * Writes <dir>/numpy/manifest.json from a demo set (<set>/<osc>/gt/masks/<video>, pred/masks/<video>).
 * GT labels 1 and 2 (actionable, transformed) are the two objects, everything else background; the
 * first frame carries both ids (one pixel each if absent) so the reference scores two objects per
 * clip, as the CLI scores both states.
 */
export async function writeNumpyManifest(setDir: string, outDir: string): Promise<string> {
  const sequences: object[] = [];
  for (const osc of (await readdir(setDir)).sort()) {
    const gtRoot = path.join(setDir, osc, 'gt', 'masks');
    let videos: string[];
    try {
      videos = (await readdir(gtRoot)).sort();
    } catch {
      continue;
    }
    for (const video of videos) {
      const files = (await readdir(path.join(gtRoot, video))).filter((f) => f.endsWith('.png')).sort();
      let width = 0;
      let height = 0;
      const gtParts: Uint8Array[] = [];
      const resParts: Uint8Array[] = [];
      for (const f of files) {
        const gt = decodeIndexedPng(new Uint8Array(await readFile(path.join(gtRoot, video, f))), { fileName: f });
        ({ width, height } = gt);
        const g = gt.data.map((v) => (v === 1 || v === 2 ? v : 0));
        if (gtParts.length === 0) {
          if (!g.includes(1)) g[0] = 1;
          if (!g.includes(2)) g[1] = 2;
        }
        gtParts.push(g);
        let res = new Uint8Array(width * height);
        try {
          const p = decodeIndexedPng(new Uint8Array(await readFile(path.join(setDir, osc, 'pred', 'masks', video, f))), { fileName: f });
          res = p.data.map((v) => (v === 1 || v === 2 ? v : 0));
        } catch {
          // A dropped prediction frame: empty, as the CLI scores it.
        }
        resParts.push(res);
      }
      const name = `${osc}__${video}`;
      const join = (parts: Uint8Array[]): Uint8Array => {
        const out = new Uint8Array(parts.length * width * height);
        parts.forEach((p, i) => out.set(p, i * width * height));
        return out;
      };
      await writeFile(path.join(outDir, `${name}.gt.bin`), join(gtParts));
      await writeFile(path.join(outDir, `${name}.res.bin`), join(resParts));
      sequences.push({ name, frames: files.length, width, height, gt: path.join(outDir, `${name}.gt.bin`), res: path.join(outDir, `${name}.res.bin`) });
    }
  }
  const manifest = path.join(outDir, 'manifest.json');
  await writeFile(manifest, JSON.stringify({ sequences }));
  return manifest;
}

/** Wall and CPU seconds of one run of the reference (process start to exit). */
export function timeNumpyReference(manifest: string): { wall: number; cpu: number | null } {
  const gnuTime = existsSync('/usr/bin/time');
  const args = [SCRIPT, manifest, 'semi-supervised'];
  const t = performance.now();
  const run = gnuTime
    ? spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', 'python3', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 })
    : spawnSync('python3', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = (performance.now() - t) / 1000;
  if (run.status !== 0) throw new Error(`davis2017_numpy.py exited ${run.status}: ${run.stderr}`);
  const m = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(run.stderr);
  return { wall, cpu: m ? Number(m[1]) + Number(m[2]) : null };
}
