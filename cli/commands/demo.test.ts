import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { decode as decodeJpeg } from 'jpeg-js';
import { createDemoClip } from '../../src/demo';
import { readMask, runCli, tempDir } from '../testing';

let root: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir: root, cleanup } = await tempDir('spoc-cli-demo-'));
});
afterAll(() => cleanup());

const ARGS = ['--kind', 'peeling', '--seed', '5', '--frames', '4', '--size', '160x90'];

describe('spoc-studio demo', () => {
  it('writes frames, exact GT masks and metadata in the WhereToChange layout', async () => {
    const r = await runCli(['demo', '--out', 'a', ...ARGS], root);
    expect(r.code, r.stderr).toBe(0);
    const clip = createDemoClip({ seed: 5, kind: 'peeling', width: 160, height: 90, durationSec: 4 });
    const osc = `peeling_${clip.meta.noun.replace(/ /g, '_')}`;
    expect(r.stdout).toContain(`wrote a/${osc}/`);
    expect(r.stdout).toContain('Next: spoc-studio eval --gt a --pred a');
    const base = path.join(root, 'a', osc);
    expect((await readdir(path.join(base, 'JPEGImages_1fps', 'demo-5'))).sort()).toEqual(['frame0000.jpg', 'frame0001.jpg', 'frame0002.jpg', 'frame0003.jpg']);
    expect((await readdir(path.join(base, 'gt', 'masks', 'demo-5'))).sort()).toEqual(['frame0000.png', 'frame0001.png', 'frame0002.png', 'frame0003.png']);
    for (let i = 0; i < 4; i++) {
      const mask = await readMask(path.join(base, 'gt', 'masks', 'demo-5', `frame000${i}.png`));
      expect(mask.data).toEqual(clip.groundTruthAt(i).data);
      const jpg = decodeJpeg(await readFile(path.join(base, 'JPEGImages_1fps', 'demo-5', `frame000${i}.jpg`)), { useTArray: true });
      expect([jpg.width, jpg.height]).toEqual([160, 90]);
    }
    const meta = JSON.parse(await readFile(path.join(base, 'meta', 'demo-5.json'), 'utf8')) as Record<string, unknown>;
    expect(meta).toMatchObject({
      verb: 'peeling',
      noun: clip.meta.noun,
      actionable: clip.meta.actionable,
      transformed: clip.meta.transformed,
      format: 'spoc-studio/wtc-meta',
      version: 1,
      video: 'demo-5',
      fps: 1,
      frames: [0, 1, 2, 3].map((t) => ({ name: `frame000${t}`, timestamp_sec: t, phase: clip.phaseAt(t) })),
    });
    expect(['seen', 'novel']).toContain(meta.subset);
  });

  it('is deterministic, and --pred-noise 0 copies the GT exactly', async () => {
    const r1 = await runCli(['demo', '--out', 'b1', ...ARGS, '--pred-out', 'p1', '--pred-noise', '0'], root);
    const r2 = await runCli(['demo', '--out', 'b2', ...ARGS, '--pred-out', 'p2', '--pred-noise', '0'], root);
    expect(r1.code).toBe(0);
    expect(r1.stdout.replace(/b1|p1/g, 'X')).toBe(r2.stdout.replace(/b2|p2/g, 'X'));
    const [osc] = await readdir(path.join(root, 'b1'));
    for (const rel of [`${osc}/gt/masks/demo-5/frame0002.png`, `${osc}/JPEGImages_1fps/demo-5/frame0002.jpg`, `${osc}/meta/demo-5.json`]) {
      expect(await readFile(path.join(root, 'b1', rel))).toEqual(await readFile(path.join(root, 'b2', rel)));
    }
    const gt = await readFile(path.join(root, 'b1', osc, 'gt/masks/demo-5/frame0001.png'));
    expect(await readFile(path.join(root, 'p1', osc, 'pred/masks/demo-5/frame0001.png'))).toEqual(gt);
    const e = await runCli(['eval', '--gt', 'b1', '--pred', 'p1'], root);
    expect(e.stdout).toMatch(/^Mean \(verbs\) +1 +1\.000 +1\.000 +1\.000 +1\.000/m);
  });

  it('writes seeded degraded predictions with --pred-noise', async () => {
    const args = ['--clips', '3', '--frames', '6', '--size', '160x90', '--seed', '2', '--pred-noise', '1'];
    const r1 = await runCli(['demo', '--out', 'n', ...args, '--pred-out', 'n'], root);
    const r2 = await runCli(['demo', '--out', 'n2', ...args, '--pred-out', 'n2'], root);
    expect(r1.code).toBe(0);
    expect(r1.stdout).toBe(r2.stdout.replace(/\bn2\b/g, 'n'));
    // Every frame is degraded: no "exact" copies.
    expect(r1.stdout.match(/\(0 exact,/g)).toHaveLength(3);
    expect((await readdir(path.join(root, 'n'))).sort()).toEqual(['grating_carrot', 'peeling_potato', 'slicing_bread'].sort());
    // GT and predictions side by side in one folder: eval --gt n --pred n compares gt/masks with pred/masks.
    const e = await runCli(['eval', '--gt', 'n', '--pred', 'n'], root);
    expect(e.code).toBe(0);
    expect(e.stdout).toContain('Pred  n: WhereToChange layout (<osc>/pred/masks/<video>/*.png)');
    const mean = /^Mean \(verbs\) +3 +([0-9.]+)/m.exec(e.stdout);
    expect(Number(mean?.[1])).toBeLessThan(1);
  });
});

describe('demo output is the app\'s own WhereToChange format', () => {
  it('reads back through the app\'s importer (src/io/formats), phases included', async () => {
    const { importWtc } = await import('../../src/io/formats');
    const { dir, cleanup } = await tempDir('spoc-demo-fmt-');
    const r = await runCli(['demo', '--out', dir, '--seed', '9', '--kind', 'grating', '--frames', '5', '--size', '160x90'], dir);
    expect(r.code).toBe(0);
    const files: { path: string; blob: Blob }[] = [];
    const walk = async (rel: string): Promise<void> => {
      for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
        const p = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) await walk(p);
        else files.push({ path: p, blob: new Blob([await readFile(path.join(dir, p))]) });
      }
    };
    await walk('');
    const result = await importWtc(files, 'demo');
    const clip = result.clips[0].annotations;
    expect(clip.frames).toHaveLength(5);
    expect(clip.frames.some((f) => f.phase === 'transitioning' || f.phase === 'initial')).toBe(true);
    expect(result.warnings).toEqual([]);
    await cleanup();
  });
});
