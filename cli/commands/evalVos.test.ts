import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { portEvaluate, type PortResult } from '../../src/testing/davis2017Port';
import { vosFixtureSequence, type VosFixtureSequence } from '../../src/testing/vosFixtures';
import { runCli, tempDir, writeMask } from '../testing';
import { pythonFixed3 } from '../vos/report';

let root: string;
let cleanup: () => Promise<void>;
let sequences: VosFixtureSequence[];

beforeAll(async () => {
  ({ dir: root, cleanup } = await tempDir('spoc-cli-vos-'));
  sequences = [
    vosFixtureSequence({ name: 'kitchen', seed: 3, width: 160, height: 96, frames: 9, objects: 4, voidRing: true, missingObject: 3 }),
    vosFixtureSequence({ name: 'bike-packing', seed: 7, width: 160, height: 96, frames: 7, objects: 3, lateObject: true }),
    vosFixtureSequence({ name: 'dogs', seed: 11, width: 128, height: 80, frames: 8, objects: 5, voidRing: true, unsupDropLast: true }),
    // Longer than 256 scored frames: the reference's uint8 decay bins wrap here.
    vosFixtureSequence({ name: 'long', seed: 5, width: 24, height: 16, frames: 262, objects: 3 }),
  ];
  for (const s of sequences) {
    for (let t = 0; t < s.ids.length; t++) {
      const id = s.ids[t];
      await writeMask(path.join(root, 'davis/Annotations/480p', s.name, `${id}.png`), s.gt[t]);
      await writeMask(path.join(root, 'davis/Annotations_unsupervised/480p', s.name, `${id}.png`), s.gt[t]);
      await writeMask(path.join(root, 'semi', s.name, `${id}.png`), s.semi.get(id)!);
      await writeMask(path.join(root, 'unsup', s.name, `${id}.png`), s.unsup.get(id)!);
    }
  }
  // The list's order, not the folders', is the order of the rows (davis.py reads ImageSets).
  await mkdir(path.join(root, 'davis/ImageSets/2017'), { recursive: true });
  await writeFile(path.join(root, 'davis/ImageSets/2017/val.txt'), sequences.map((s) => s.name).join('\n') + '\n');
}, 120_000);
afterAll(() => cleanup());

type Json = Record<string, unknown>;

function expectClose(actual: number | null, expected: number, what: string): void {
  if (Number.isNaN(expected)) expect(actual, what).toBeNull();
  else expect(Math.abs((actual as number) - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9);
}

function compare(doc: Json, port: PortResult): void {
  const global = doc.global as Record<string, number | null>;
  ['J&F-Mean', 'J-Mean', 'J-Recall', 'J-Decay', 'F-Mean', 'F-Recall', 'F-Decay'].forEach((c, i) => expectClose(global[c], port.global[i], c));
  const rows = doc.per_sequence as { Sequence: string; 'J-Mean': number; 'F-Mean': number }[];
  expect(rows.map((r) => r.Sequence)).toEqual(port.perSequence.map((r) => r.name));
  rows.forEach((r, i) => {
    expectClose(r['J-Mean'], port.perSequence[i].jMean, `${r.Sequence} J`);
    expectClose(r['F-Mean'], port.perSequence[i].fMean, `${r.Sequence} F`);
  });
  const objects = (doc.sequences as { objects: Json[] }[]).flatMap((s) => s.objects);
  objects.forEach((o, i) => {
    const p = port.objects[i];
    (['J_mean', 'J_recall', 'J_decay'] as const).forEach((k, j) => expectClose(o[k] as number | null, p.J[j], `${o.name as string} ${k}`));
    (['F_mean', 'F_recall', 'F_decay'] as const).forEach((k, j) => expectClose(o[k] as number | null, p.F[j], `${o.name as string} ${k}`));
  });
}

const portInput = (which: 'semi' | 'unsup') => sequences.map((s) => ({ name: s.name, gt: s.gt, ids: s.ids, res: which === 'semi' ? s.semi : s.unsup }));

describe('spoc-studio eval --task vos against a literal port of davis2017-evaluation', () => {
  it.each([
    ['semi-supervised', 'semi', false],
    ['semi-supervised', 'semi', true],
    ['unsupervised', 'unsup', false],
    ['unsupervised', 'unsup', true],
  ] as const)('%s (results %s, --davis-compat %s): global, per-sequence and per-object numbers', async (protocol, res, compat) => {
    const r = await runCli(['eval', '--task', 'vos', '--protocol', protocol, '--gt', 'davis', '--pred', res, '--json', '-', ...(compat ? ['--davis-compat'] : [])], root);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Json;
    const port = portEvaluate(protocol, portInput(res), !compat);
    compare(doc, port);
    // The long sequence is where the uint8 bins of the reference differ: its decay is NaN there.
    const long = port.objects.slice(-3);
    expect(long.every((o) => (compat ? Number.isNaN(o.J[2]) && Number.isNaN(o.F[2]) : Number.isFinite(o.J[2]) && Number.isFinite(o.F[2])))).toBe(true);
    expect(doc.protocol).toBe(protocol);
  }, 120_000);

  it('writes the two CSV files laid out as evaluation_method.py writes them', async () => {
    const r = await runCli(['eval', '--task', 'vos', '--gt', 'davis', '--pred', 'semi', '--csv', 'out', '--set', 'val'], root);
    expect(r.code, r.stderr).toBe(0);
    const port = portEvaluate('semi-supervised', portInput('semi'), true);
    const globalCsv = await readFile(path.join(root, 'out/global_results-val.csv'), 'utf8');
    expect(globalCsv).toBe('J&F-Mean,J-Mean,J-Recall,J-Decay,F-Mean,F-Recall,F-Decay\n' + port.global.map(pythonFixed3).join(',') + '\n');
    const seqCsv = await readFile(path.join(root, 'out/per-sequence_results-val.csv'), 'utf8');
    expect(seqCsv).toBe('Sequence,J-Mean,F-Mean\n' + port.perSequence.map((p) => `${p.name},${pythonFixed3(p.jMean)},${pythonFixed3(p.fMean)}\n`).join(''));
    expect(seqCsv.split('\n')[1]).toMatch(/^kitchen_1,\d\.\d{3},\d\.\d{3}$/);
    // The printed tables carry the same rows.
    expect(r.stdout).toContain('--------------------------- Global results for val ---------------------------');
    expect(r.stdout).toContain('kitchen_4');
    // The object that enters after the first frame is not counted, and the user is told.
    expect(r.stderr).toContain('bike-packing: frames hold object ids up to 4 but the first frame');
  }, 120_000);
});

describe('pythonFixed3 (Python "%.3f")', () => {
  it('rounds exact ties to even and keeps the sign of -0, as Python prints them', () => {
    const cases: [number, string][] = [
      [0.0625, '0.062'],
      [0.1875, '0.188'],
      [0.3125, '0.312'],
      [0.9375, '0.938'],
      [-0.0625, '-0.062'],
      [1.0625, '1.062'],
      [0.0005, '0.001'],
      [0.6666666, '0.667'],
      [-0, '-0.000'],
      [2.5, '2.500'],
    ];
    for (const [x, s] of cases) expect(pythonFixed3(x), String(x)).toBe(s);
  });
});

describe('--task vos refusals', () => {
  it('refuses a semi-supervised result with an id the first GT frame lacks (exit 1), as the reference stops', async () => {
    const s = sequences[0];
    const bad = s.semi.get(s.ids[3])!;
    const copy = { ...bad, data: bad.data.slice() };
    copy.data[0] = 9;
    for (let t = 0; t < s.ids.length; t++) await writeMask(path.join(root, 'bad', s.name, `${s.ids[t]}.png`), t === 3 ? copy : s.semi.get(s.ids[t])!);
    const r = await runCli(['eval', '--task', 'vos', '--gt', 'davis', '--pred', 'bad', '--sequences', s.name], root);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`bad/${s.name}/${s.ids[3]}.png: holds object id 9 but the sequence has 4 object(s) in its first GT frame`);
  });

  it('names a missing result frame (exit 1) and refuses SPOC options (exit 2)', async () => {
    const r = await runCli(['eval', '--task', 'vos', '--gt', 'davis', '--pred', 'semi', '--sequences', 'nope'], root);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('davis/Annotations/480p/nope: no such sequence folder (listed by --sequences)');
    const u = await runCli(['eval', '--task', 'vos', '--gt', 'davis', '--pred', 'semi', '--boundary'], root);
    expect(u.code).toBe(2);
    const v = await runCli(['eval', '--gt', 'davis', '--pred', 'semi', '--protocol', 'unsupervised'], root);
    expect(v.code).toBe(2);
    const semiOnlyInner = await runCli(['eval', '--task', 'vos', '--gt', 'davis', '--pred', 'bad', '--sequences', 'dogs'], root);
    expect(semiOnlyInner.code).toBe(1);
    expect(semiOnlyInner.stderr).toContain('bad/dogs/00001.png: missing; a semi-supervised result needs a mask for every GT frame but the first and the last');
  });
});
