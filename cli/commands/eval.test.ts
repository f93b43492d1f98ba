import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { access, mkdir, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { LabelMap } from '../../src/masks/labelMap';
import {
  type Convention,
  type EvalClip,
  type EvalFrame,
  type Phase,
  clipProgress,
  countClip,
  emptyMask,
  evaluateSpoc,
  jAndF,
  maskOfLabels,
  voidMaskOf,
} from '../../src/metrics';
import { subsetOf } from '../../src/taxonomy';
import { mapOf, readMask, runCli, tempDir, writeJson, writeMask } from '../testing';

let root: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir: root, cleanup } = await tempDir('spoc-cli-eval-'));
  const demo = await runCli(
    ['demo', '--out', 'demo', '--clips', '3', '--frames', '6', '--size', '160x90', '--seed', '11', '--pred-out', 'pred', '--pred-noise', '0.7'],
    root,
  );
  expect(demo.code, demo.stderr).toBe(0);
});
afterAll(() => cleanup());

type Json = Record<string, unknown>;
interface FrameJson extends Json {
  clip: string;
  frame: string;
}

async function evalJson(args: string[], cwd = root): Promise<{ doc: Json; stdout: string; stderr: string; code: number }> {
  const r = await runCli(['eval', ...args, '--json', '-'], cwd);
  return { doc: r.code === 0 ? (JSON.parse(r.stdout) as Json) : {}, stdout: r.stdout, stderr: r.stderr, code: r.code };
}

const nul = (x: number): number | null => (Number.isFinite(x) ? x : null);

async function exists(p: string): Promise<boolean> {
  try {
    await access(p);
    return true;
  } catch {
    return false;
  }
}

/** Reads the demo GT and predictions straight from disk into EvalClips, independently of the CLI. */
async function loadClips(gtRoot: string, predRoot: string): Promise<EvalClip[]> {
  const clips: EvalClip[] = [];
  for (const osc of (await readdir(gtRoot)).sort()) {
    for (const video of (await readdir(path.join(gtRoot, osc, 'gt', 'masks'))).sort()) {
      const meta = JSON.parse(await readFile(path.join(gtRoot, osc, 'meta', `${video}.json`), 'utf8')) as {
        verb: string;
        noun: string;
        frames: { name: string; phase: Phase }[];
      };
      const frames: EvalFrame[] = [];
      for (let i = 0; i < meta.frames.length; i++) {
        const name = `${meta.frames[i].name}.png`;
        const predFile = path.join(predRoot, osc, 'pred', 'masks', video, name);
        frames.push({
          gt: await readMask(path.join(gtRoot, osc, 'gt', 'masks', video, name)),
          pred: (await exists(predFile)) ? await readMask(predFile) : null,
          phase: meta.frames[i].phase,
        });
      }
      clips.push({ id: `${osc}/${video}`, verb: meta.verb, noun: meta.noun, subset: subsetOf(meta.verb, meta.noun), frames });
    }
  }
  return clips;
}

describe('eval on a generated demo set', () => {
  it('scores the GT against itself as perfect', async () => {
    const { doc, code, stderr } = await evalJson(['--gt', 'demo', '--pred', 'demo', '--boundary']);
    expect(code).toBe(0);
    expect(stderr).toContain('--gt and --pred read the same mask files');
    const table = (doc.summary as Json).table as Json[];
    for (const row of table) {
      expect(row.mIoU).toBe(1);
      expect(row.mIoU_act).toBe(1);
      expect(row.mIoU_trf).toBe(1);
      expect(row.wo_osc).toBe(1);
    }
    const frames = doc.frames as FrameJson[];
    expect(frames).toHaveLength(18);
    for (const f of frames) {
      for (const k of ['J_act', 'J_trf', 'J_obj', 'F_act', 'F_trf', 'F_obj']) expect(f[k], `${f.clip} ${f.frame} ${k}`).toBe(1);
      expect(f.R).toBe(f.R_gt);
    }
    const davis = (doc.summary as Json).davis as Json[];
    for (const row of davis) expect(row.JF).toBe(1);
  });

  it('prints the table with the layout it detected', async () => {
    const r = await runCli(['eval', '--gt', 'demo', '--pred', 'pred'], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('GT    demo: WhereToChange layout (<osc>/gt/masks/<video>/*.png); 3 clips, 18 frames');
    expect(r.stdout).toContain('Pred  pred: WhereToChange layout (<osc>/pred/masks/<video>/*.png)');
    expect(r.stdout).toMatch(/verb +clips +mIoU +mIoU_act +mIoU_trf +w\/o OSC +seen +novel +transition/);
    expect(r.stdout).toMatch(/^Mean \(verbs\) +3 +0\.\d{3}/m);
    for (const verb of ['grating', 'peeling', 'slicing']) expect(r.stdout).toMatch(new RegExp(`^${verb} +1 +[01]\\.\\d{3}`, 'm'));
    expect(r.stdout).toContain('Progress (3 of 3 clips have phases)');
  });

  it.each<Convention>(['clip-pooled', 'per-frame', 'dataset-pooled'])(
    'matches src/metrics computed directly on the same label maps (%s)',
    async (convention) => {
      const clips = await loadClips(path.join(root, 'demo'), path.join(root, 'pred'));
      expect(clips.flatMap((c) => c.frames).some((f) => f.pred === null)).toBe(true);
      const report = evaluateSpoc(clips.map(countClip), convention);
      const { doc, code } = await evalJson(['--gt', 'demo', '--pred', 'pred', '--convention', convention, '--boundary']);
      expect(code).toBe(0);
      expect(doc.convention).toBe(convention);
      const summary = doc.summary as Json;
      const table = summary.table as Json[];
      const row = (name: string): Json => table.find((r) => r.row === name || r.verb === name)!;
      const mean = row('mean_over_verbs');
      expect(mean.mIoU).toBe(nul(report.all.meanOverVerbs.miou));
      expect(mean.mIoU_act).toBe(nul(report.all.meanOverVerbs.act));
      expect(mean.mIoU_trf).toBe(nul(report.all.meanOverVerbs.trf));
      expect(mean.wo_osc).toBe(nul(report.all.meanOverVerbs.object));
      expect(mean.seen).toBe(nul(report.seen.meanOverVerbs.miou));
      expect(mean.novel).toBe(nul(report.novel.meanOverVerbs.miou));
      expect(mean.transition).toBe(nul(report.transition.meanOverVerbs.miou));
      expect(row('mean_over_clips').mIoU).toBe(nul(report.all.meanOverClips.miou));
      for (const verb of Object.keys(report.all.perVerb)) {
        expect(row(verb).mIoU).toBe(nul(report.all.perVerb[verb].miou));
        expect(row(verb).mIoU_act).toBe(nul(report.all.perVerb[verb].act));
        expect(row(verb).mIoU_trf).toBe(nul(report.all.perVerb[verb].trf));
        expect(row(verb).wo_osc).toBe(nul(report.all.perVerb[verb].object));
        expect(row(verb).transition).toBe(nul(report.transition.perVerb[verb]?.miou ?? NaN));
      }
      expect((summary.coverage as Json).missing_predictions).toBe(report.coverage.missingPredictions);

      // Per-frame DAVIS J and F, and progress per clip.
      const frames = doc.frames as FrameJson[];
      let k = 0;
      for (const clip of clips) {
        const progress = clipProgress(clip);
        const clipJson = (doc.clips as Json[]).find((c) => c.id === clip.id)!;
        expect((clipJson.progress as Json).tau).toBe(nul(progress.tau));
        expect((clipJson.progress as Json).end_sigma).toBe(nul(progress.end.sigma));
        expect((clipJson.progress as Json).end_l2).toBe(nul(progress.end.l2));
        expect((clipJson.progress as Json).tau_gt).toBe(nul(clipProgress(clip, { source: 'gt' }).tau));
        clip.frames.forEach((f, i) => {
          const fj = frames[k++];
          expect(`${fj.clip}#${i}`).toBe(`${clip.id}#${i}`);
          const voidMask = voidMaskOf(f.gt, [4, 5, 255]);
          const pick = (m: LabelMap | null, labels: number[]) => (m ? maskOfLabels(m, labels) : emptyMask(f.gt.width, f.gt.height));
          for (const [key, labels] of [['act', [1]], ['trf', [2]], ['obj', [1, 2]]] as const) {
            const s = jAndF(maskOfLabels(f.gt, labels), pick(f.pred, [...labels]), voidMask);
            expect(fj[`J_${key}`], `${fj.clip} ${fj.frame} J_${key}`).toBe(s.j);
            expect(fj[`F_${key}`], `${fj.clip} ${fj.frame} F_${key}`).toBe(s.f);
          }
          expect(fj.R).toBe(nul(progress.curve[i]));
        });
      }
      expect(k).toBe(frames.length);
      // Without --boundary, J comes from the SPOC counts: the same values.
      const plain = await evalJson(['--gt', 'demo', '--pred', 'pred', '--convention', convention]);
      (plain.doc.frames as FrameJson[]).forEach((f, i) => {
        for (const key of ['J_act', 'J_trf', 'J_obj', 'IoU_act', 'R']) expect(f[key], `${f.clip} ${f.frame} ${key}`).toBe(frames[i][key]);
      });
    },
  );

  it('writes the JSON file with the documented keys, deterministically', async () => {
    const a = await runCli(['eval', '--gt', 'demo', '--pred', 'pred', '--json', 'out/a.json', '--boundary'], root);
    const b = await runCli(['eval', '--gt', 'demo', '--pred', 'pred', '--json', 'out/b.json', '--boundary'], root);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain('JSON written to out/a.json');
    expect(a.stdout.replace('a.json', 'b.json')).toBe(b.stdout);
    const textA = await readFile(path.join(root, 'out', 'a.json'), 'utf8');
    expect(textA).toBe(await readFile(path.join(root, 'out', 'b.json'), 'utf8'));
    const doc = JSON.parse(textA) as Json;
    expect(Object.keys(doc)).toEqual(['schema', 'tool', 'convention', 'convention_definition', 'boundary', 'inputs', 'definitions', 'summary', 'clips', 'frames', 'warnings']);
    expect(doc.schema).toBe('spoc-studio/eval/1');
    expect(Object.keys(doc.summary as Json)).toEqual(['coverage', 'table', 'splits', 'progress', 'davis']);
    const frame = (doc.frames as Json[])[0];
    for (const key of ['clip', 'frame', 'gt', 'pred', 'ignored', 'phase', 'missing_pred', 'I_act', 'U_act', 'I_trf', 'U_trf', 'I_obj', 'U_obj', 'IoU_act', 'IoU_trf', 'IoU_obj', 'J_act', 'J_trf', 'J_obj', 'F_act', 'F_trf', 'F_obj', 'A_act', 'A_trf', 'R', 'R_gt']) {
      expect(frame, key).toHaveProperty(key);
    }
    const clip = (doc.clips as Json[])[0];
    for (const key of ['id', 'osc', 'video', 'verb', 'noun', 'subset', 'frames', 'evaluated_frames', 'missing_predictions', 'IoU_act', 'IoU_trf', 'mIoU', 'IoU_obj', 'progress', 'davis']) {
      expect(clip, key).toHaveProperty(key);
    }
    for (const key of ['J_act', 'F_act', 'R', 'mIoU', 'wo_osc', 'tau', 'end_sigma']) expect(doc.definitions, key).toHaveProperty(key);
    // Without --boundary, F is null.
    const noF = await evalJson(['--gt', 'demo', '--pred', 'pred']);
    expect((noF.doc.frames as Json[])[0].F_act).toBeNull();
    expect((noF.doc.summary as Json).davis).toBeNull();
  });
});

describe('eval on hand-made masks', () => {
  let dir: string;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup: done } = await tempDir('spoc-cli-hand-'));
    const f1 = mapOf(['1111', '1111', '2222', '0000']);
    const f2 = mapOf(['1111', '2222', '0000', '0000']);
    // WhereToChange GT, flat WhereToChange prediction with frame f2 missing.
    await writeMask(path.join(dir, 'miss/gt/chopping_apple/gt/masks/v1/f1.png'), f1);
    await writeMask(path.join(dir, 'miss/gt/chopping_apple/gt/masks/v1/f2.png'), f2);
    await writeMask(path.join(dir, 'miss/pred/chopping_apple/v1/f1.png'), f1);
    // DAVIS layout on both sides.
    await writeMask(path.join(dir, 'davis/gt/v1/00000.png'), f1);
    await writeMask(path.join(dir, 'davis/gt/v1/00001.png'), f2);
    await writeMask(path.join(dir, 'davis/pred/v1/00000.png'), f2);
    await writeMask(path.join(dir, 'davis/pred/v1/00001.png'), f2);
    await writeMask(path.join(dir, 'davis/pred/v1/00002.png'), f2);
    await writeMask(path.join(dir, 'davis/pred/v9/00000.png'), f2);
    // Release labels 3/4/5/255.
    await writeMask(path.join(dir, 'rel/gt/peeling_kiwi/gt/masks/v/a.png'), mapOf(['1133', '4455', '22FF', '0000']));
    await writeMask(path.join(dir, 'rel/pred/peeling_kiwi/pred/masks/v/a.png'), mapOf(['1111', '1111', '2222', '2222']));
    // Errors.
    await writeMask(path.join(dir, 'size/gt/v/a.png'), f1);
    await writeMask(path.join(dir, 'size/pred/v/a.png'), mapOf(['11111', '11111', '22222', '00000']));
    await writeMask(path.join(dir, 'label/gt/v/a.png'), mapOf(['1111', '1171', '2222', '0000']));
    await writeMask(path.join(dir, 'label/pred/v/a.png'), f1);
    await writeMask(path.join(dir, 'mixed/v/a.png'), f1);
    await writeMask(path.join(dir, 'mixed/chopping_apple/gt/masks/v/a.png'), f1);
  });
  afterAll(() => done());

  it('scores a missing prediction frame as empty (numbers by hand)', async () => {
    const { doc, code, stderr } = await evalJson(['--gt', 'miss/gt', '--pred', 'miss/pred'], dir);
    expect(code).toBe(0);
    expect((doc.inputs as Json).pred).toMatchObject({ layout: 'wtc', description: 'WhereToChange layout (<osc>/<video>/*.png)' });
    // act: I = 8 + 0, U = 8 + 4 -> 2/3; trf: I = 4 + 0, U = 4 + 4 -> 1/2; mIoU 7/12; object 12/20.
    const clip = (doc.clips as Json[])[0];
    expect(clip).toMatchObject({ id: 'chopping_apple/v1', verb: 'chopping', noun: 'apple', subset: 'seen', missing_predictions: 1 });
    expect(clip.IoU_act).toBeCloseTo(2 / 3, 12);
    expect(clip.IoU_trf).toBeCloseTo(1 / 2, 12);
    expect(clip.mIoU).toBeCloseTo(7 / 12, 12);
    expect(clip.IoU_obj).toBeCloseTo(12 / 20, 12);
    const f2 = (doc.frames as Json[])[1];
    expect(f2).toMatchObject({ frame: 'f2', pred: null, missing_pred: true, I_act: 0, U_act: 4, J_act: 0, J_trf: 0, R: null, A_act: null });
    expect(stderr).toContain('lacks 1 of 2 GT frames (f2); scored as empty predictions');
    // per-frame convention: act mean(1, 0), trf mean(1, 0).
    const perFrame = await evalJson(['--gt', 'miss/gt', '--pred', 'miss/pred', '--convention', 'per-frame'], dir);
    expect(((perFrame.doc.clips as Json[])[0]).mIoU).toBe(0.5);
    const text = await runCli(['eval', '--gt', 'miss/gt', '--pred', 'miss/pred'], dir);
    expect(text.stdout).toContain('2 evaluated, 0 ignored, 1 missing predictions (scored as empty)');
    expect(text.stdout).toMatch(/^chopping +1 +0\.583 +0\.667 +0\.500 +0\.600/m);
  });

  it('leaves frames listed as ignored in the metadata out', async () => {
    await writeJson(path.join(dir, 'miss/gt/chopping_apple/meta/v1.json'), { ignored: ['f2'], phases: { f1: 'initial', f2: 'end' } });
    try {
      const { doc, code } = await evalJson(['--gt', 'miss/gt', '--pred', 'miss/pred'], dir);
      expect(code).toBe(0);
      expect(((doc.clips as Json[])[0]).mIoU).toBe(1);
      expect(((doc.summary as Json).coverage as Json)).toMatchObject({ evaluated_frames: 1, ignored_frames: 1, missing_predictions: 0 });
      expect((doc.frames as Json[])[1]).toMatchObject({ ignored: true, phase: 'end', I_act: null, J_act: null });
    } finally {
      await writeJson(path.join(dir, 'miss/gt/chopping_apple/meta/v1.json'), {});
    }
  });

  it('detects the DAVIS layout, warns about predictions without GT and has no seen/novel split', async () => {
    const r = await runCli(['eval', '--gt', 'davis/gt', '--pred', 'davis/pred'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('GT    davis/gt: DAVIS layout (<video>/*.png); 1 clips, 2 frames');
    expect(r.stdout).toContain('Pred  davis/pred: DAVIS layout (<video>/*.png); 2 clips, 4 frames');
    expect(r.stdout).toContain('verb "unknown" and no seen/novel split');
    expect(r.stdout).toMatch(/^unknown +1 +/m);
    expect(r.stderr).toContain('davis/pred/v1/00002.png: no GT frame "00002" in davis/gt/v1/; ignored');
    expect(r.stderr).toContain('davis/pred/v9/: no GT video "v9"; its 1 frame(s) are ignored');
    const { doc } = await evalJson(['--gt', 'davis/gt', '--pred', 'davis/pred'], dir);
    expect((doc.summary as Json).splits).toMatchObject({ seen: null, novel: null });
    expect(((doc.summary as Json).table as Json[])[0]).toMatchObject({ seen: null, novel: null });
    expect((doc.clips as Json[])[0]).toMatchObject({ id: 'v1', verb: 'unknown', subset: null });
  });

  it('matches a DAVIS-layout prediction to WhereToChange GT by video name', async () => {
    const { doc, code } = await evalJson(['--gt', 'miss/gt', '--pred', 'davis/pred'], dir);
    expect(code).toBe(0);
    expect((doc.clips as Json[])[0]).toMatchObject({ id: 'chopping_apple/v1', prediction: 'v1' });
  });

  it('excludes GT labels 4, 5 and 255 and reads 3 as background', async () => {
    const { doc, code } = await evalJson(['--gt', 'rel/gt', '--pred', 'rel/pred'], dir);
    expect(code).toBe(0);
    const f = (doc.frames as Json[])[0];
    // act: GT act 2 px, pred act 4 px outside excluded pixels -> 2 / 4; trf: 2 / 6.
    expect(f).toMatchObject({ I_act: 2, U_act: 4, I_trf: 2, U_trf: 6 });
    expect(((doc.clips as Json[])[0]).subset).toBe('novel');
    expect(((doc.summary as Json).table as Json[])[0].novel).toBeCloseTo((1 / 2 + 1 / 3) / 2, 12);
  });

  it('reports a size mismatch naming both files (exit 1)', async () => {
    const r = await runCli(['eval', '--gt', 'size/gt', '--pred', 'size/pred'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('size/pred/v/a.png: is 5x4 but the GT mask size/gt/v/a.png is 4x4');
  });

  it('reports an unknown label naming the file (exit 1)', async () => {
    const r = await runCli(['eval', '--gt', 'label/gt', '--pred', 'label/pred'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'label/gt/v/a.png: holds labels 0, 1, 2, 7: 7 is not a SPOC label (label 7 first at x=2, y=1); a SPOC mask in the DAVIS layout holds only 0 background, 1 actionable, 2 transformed and 255 void',
    );
    expect(r.stderr).toContain('--task vos');
  });

  // Failed before: objects 3 and 4 were read as release background / ambiguous and the prediction,
  // which misses both, scored 1.000 everywhere.
  it('refuses DAVIS-layout multi-object masks (object ids 1..4) instead of scoring them as SPOC states (exit 1)', async () => {
    const gt = mapOf(['1100', '2200', '3300', '4400']);
    const missing34 = mapOf(['1100', '2200', '0000', '0000']);
    for (const f of ['00000', '00001']) {
      await writeMask(path.join(dir, `objects/gt/seq/${f}.png`), gt);
      await writeMask(path.join(dir, `objects/pred/seq/${f}.png`), missing34);
    }
    const r = await runCli(['eval', '--gt', 'objects/gt', '--pred', 'objects/pred', '--boundary'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('objects/gt/seq/00000.png: holds labels 0, 1, 2, 3, 4: 3, 4 are not SPOC labels');
    expect(r.stderr).toContain('score it per object with `spoc-studio eval --task vos`');
    // The prediction side is checked the same way.
    await writeMask(path.join(dir, 'objects/pred/seq/00001.png'), gt);
    const p = await runCli(['eval', '--gt', 'objects/pred', '--pred', 'objects/gt'], dir);
    expect(p.code).toBe(1);
    expect(p.stderr).toMatch(/objects\/gt\/seq\/00000\.png: holds labels|objects\/pred\/seq\/00001\.png: holds labels/);
  });

  it('refuses a folder that mixes layouts (exit 2) and one without masks (exit 1)', async () => {
    const mixed = await runCli(['eval', '--gt', 'mixed', '--pred', 'mixed'], dir);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('mixes layouts');
    await mkdir(path.join(dir, 'empty/chopping_apple/JPEGImages_1fps/v1'), { recursive: true });
    const empty = await runCli(['eval', '--gt', 'empty', '--pred', 'miss/pred'], dir);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('empty: no masks found; expected <osc>/gt/masks/<video>/*.png');
    expect(empty.stderr).not.toContain('warning');
  });

  it('reads an older export that wraps the dataset root in a folder named after the project, and points at it among several', async () => {
    // Older SPOC Studio zips put everything under the project's name: Kitchen/<osc>/gt/masks/...
    await writeMask(path.join(dir, 'unzipped/Kitchen/slicing_bread/gt/masks/v1/frame0000.png'), mapOf(['10', '20']));
    const r = await runCli(['eval', '--gt', 'unzipped', '--pred', 'unzipped', '--json', '-'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('gt: unzipped/Kitchen: read as the dataset root');
    expect((JSON.parse(r.stdout) as { clips: { id: string }[] }).clips.map((c) => c.id)).toEqual(['slicing_bread/v1']);
    const ok = await runCli(['eval', '--gt', 'unzipped/Kitchen', '--pred', 'unzipped/Kitchen'], dir);
    expect(ok.code).toBe(0);
    expect(ok.stderr).not.toContain('dataset root');
    // Beside another folder it is not guessed: the message names the folder to give.
    await writeMask(path.join(dir, 'unzipped2/Kitchen/slicing_bread/gt/masks/v1/frame0000.png'), mapOf(['10', '20']));
    await mkdir(path.join(dir, 'unzipped2/notes'), { recursive: true });
    const two = await runCli(['eval', '--gt', 'unzipped2', '--pred', 'unzipped2'], dir);
    expect(two.code).toBe(1);
    expect(two.stderr).toContain('unzipped2: no masks found; unzipped2/Kitchen holds WhereToChange folders (unzipped2/Kitchen/slicing_bread/gt/masks): give that folder instead');
  });

  it('takes the app\'s export as it is: an ignored frame without a mask (and its prediction) raise no warning', async () => {
    // The app writes no gt mask for an ignored frame; its metadata lists the frame as ignored.
    const base = path.join(dir, 'appexport');
    await writeMask(path.join(base, 'gt/slicing_bread/gt/masks/v1/frame0000.png'), mapOf(['10', '20']));
    await writeMask(path.join(base, 'gt/slicing_bread/gt/masks/v1/frame0002.png'), mapOf(['12', '00']));
    await writeJson(path.join(base, 'gt/slicing_bread/meta/v1.json'), {
      format: 'spoc-studio/wtc-meta', version: 1, video: 'v1', verb: 'slicing', noun: 'bread', fps: 1, width: 2, height: 2, source: 'gt',
      frames: [{ name: 'frame0000', timestamp_sec: 0, phase: 'initial' }, { name: 'frame0001', timestamp_sec: 1, ignored: { reason: 'too_blurry' } }, { name: 'frame0002', timestamp_sec: 2, phase: 'end' }],
    });
    for (const k of [0, 1, 2]) await writeMask(path.join(base, `pred/slicing_bread/gt/masks/v1/frame000${k}.png`), mapOf(['10', '20']));
    const r = await runCli(['eval', '--gt', 'appexport/gt', '--pred', 'appexport/pred', '--json', '-'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as Json;
    expect((doc.warnings as string[])).toEqual([]);
    expect((doc.summary as Json).coverage).toMatchObject({ evaluated_frames: 2, missing_predictions: 0 });
    expect((doc.summary as Json).coverage).toMatchObject({ evaluated_frames: 2, ignored_frames: 1 });
    // A frame the metadata names that is neither masked nor ignored is an unpainted frame: an
    // all-background GT, scored (as the app's panel scores it), with a warning naming it.
    await writeJson(path.join(base, 'gt/slicing_bread/meta/v1.json'), {
      format: 'spoc-studio/wtc-meta', version: 1, video: 'v1', verb: 'slicing', noun: 'bread', fps: 1, source: 'gt',
      frames: [0, 1, 2].map((k) => ({ name: `frame000${k}`, timestamp_sec: k })),
    });
    const w = await runCli(['eval', '--gt', 'appexport/gt', '--pred', 'appexport/pred', '--json', '-'], dir);
    expect(w.code, w.stderr).toBe(0);
    expect(w.stderr).toContain('1 of 3 frames have no GT mask (frame0001); scored as all-background GT');
    expect(w.stderr).not.toContain('no GT frame');
    const unpainted = JSON.parse(w.stdout) as { summary: Json; frames: FrameJson[] };
    expect(unpainted.summary.coverage).toMatchObject({ evaluated_frames: 3, ignored_frames: 0 });
    // The prediction's actionable pixel on frame0001 is a false positive against nothing.
    expect(unpainted.frames[1]).toMatchObject({ frame: 'frame0001', gt: null, I_act: 0, U_act: 1, A_act_gt: 0 });
  });

  it('refuses a folder that holds masks directly (exit 2)', async () => {
    const r = await runCli(['eval', '--gt', 'davis/gt/v1', '--pred', 'davis/pred'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('holds mask files directly');
  });

  it('reports a malformed metadata file (exit 1)', async () => {
    await writeJson(path.join(dir, 'miss/gt/chopping_apple/meta/v1.json'), { phases: ['initial'] });
    try {
      const r = await runCli(['eval', '--gt', 'miss/gt', '--pred', 'miss/pred'], dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('miss/gt/chopping_apple/meta/v1.json: "phases" has 1 entries but the 2 GT masks of chopping_apple/v1 has 2');
    } finally {
      await writeJson(path.join(dir, 'miss/gt/chopping_apple/meta/v1.json'), {});
    }
  });
});
