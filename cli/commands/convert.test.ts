import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import path from 'node:path';
import { encode as encodeJpeg } from 'jpeg-js';
import { createDemoClip, sampleTimes } from '../../src/demo';
import { decodeIndexedPng } from '../../src/io/indexedPng';
import { exportWtc, frameLabelMap, importFormat, FORMAT_IDS, type ClipAnnotations, type FormatId, type FrameImage } from '../../src/io/formats';
import type { VirtualFile } from '../../src/io/files/virtualFile';
import { runCli, tempDir } from '../testing';
import { exportVisorObjects } from '../../src/io/formats/visorObjects';
import { objectsClip } from '../../src/io/formats/testdata/objectsFixtures';

/*
 * Tiny data from the demo generator (src/demo): two 64x48 clips of 4 frames with exact ground
 * truth, phases and JPEG frames, written as a WhereToChange tree with full metadata. Every format
 * is made from it with `convert`, then converted to every format, and the label maps that come out
 * are compared byte for byte with the generator's.
 */

const W = 64;
const H = 48;
const FRAMES = 4;
let root: string;
let cleanup: () => Promise<void>;
/** clip name -> frame name -> label map bytes */
const truth = new Map<string, Map<string, Uint8Array>>();

function demoClip(seed: number, kind: 'grating' | 'peeling'): { annotations: ClipAnnotations; images: FrameImage[] } {
  const clip = createDemoClip({ seed, kind, width: W, height: H, durationSec: FRAMES });
  const times = sampleTimes(clip.durationSec, 1).slice(0, FRAMES);
  const { verb, noun, actionable, transformed } = clip.meta;
  const name = `demo-${seed}`;
  const frames = times.map((t, i) => ({ name: `frame${String(i).padStart(4, '0')}`, timestampSec: t, phase: clip.phaseAt(t) }));
  const gt = new Map(times.map((t, i) => [i, clip.groundTruthAt(t)] as const));
  truth.set(name, new Map(frames.map((f, i) => [f.name, gt.get(i)!.data])));
  const images = times.map((t, i) => {
    const rgba = clip.renderAt(t, { frameIndex: i });
    return { data: encodeJpeg({ data: rgba.data, width: W, height: H }, 90).data, mime: 'image/jpeg' };
  });
  return {
    annotations: { clip: { name, width: W, height: H, fps: 1, osc: { verb, noun, actionable, transformed }, subset: 'seen' }, frames, sources: new Map([['gt', gt]]) },
    images,
  };
}

async function writeTree(dir: string, files: { path: string; data: Uint8Array | Blob }[]): Promise<void> {
  for (const f of files) {
    const target = path.join(dir, ...f.path.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, f.data instanceof Blob ? new Uint8Array(await f.data.arrayBuffer()) : f.data);
  }
}

async function tree(dir: string, rel = ''): Promise<VirtualFile[]> {
  const out: VirtualFile[] = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await tree(dir, r)));
    else out.push({ path: r, blob: await openAsBlob(path.join(dir, r)) });
  }
  return out;
}

/** The label maps an output holds: clip name -> frame name -> bytes. */
async function labelMaps(format: FormatId, out: string): Promise<Map<string, Map<string, Uint8Array>>> {
  const abs = path.join(root, out);
  const result = new Map<string, Map<string, Uint8Array>>();
  const files = out.endsWith('.json') ? [{ path: path.basename(abs), blob: await openAsBlob(abs) }] : await tree(abs);
  if (format === 'wtc' && !files.some((f) => f.path.includes('/JPEGImages_1fps/'))) {
    // A WhereToChange tree converted from a JSON format has no frames, which the importer needs: read the PNGs.
    for (const f of files.filter((x) => x.path.endsWith('.png'))) {
      const [, , , video, file] = f.path.split('/');
      if (!result.has(video)) result.set(video, new Map());
      result.get(video)!.set(file.replace(/\.png$/, ''), decodeIndexedPng(new Uint8Array(await f.blob.arrayBuffer()), { fileName: f.path }).data);
    }
    return result;
  }
  const { clips } = await importFormat(format, files, out);
  for (const c of clips) {
    const a = c.annotations;
    const masks = a.sources.get('gt')!;
    result.set(a.clip.name, new Map(a.frames.map((f, i) => [f.name, frameLabelMap(masks.get(i)!, a.clip).data])));
  }
  return result;
}

beforeAll(async () => {
  ({ dir: root, cleanup } = await tempDir('spoc-cli-convert-'));
  for (const [seed, kind] of [[1, 'grating'], [2, 'peeling']] as const) {
    const { annotations, images } = demoClip(seed, kind);
    await writeTree(path.join(root, 'in-wtc'), exportWtc(annotations, { frameImages: images }));
  }
  for (const to of FORMAT_IDS.filter((f) => f !== 'wtc')) {
    const r = await runCli(['convert', '--from', 'wtc', '--to', to, 'in-wtc', to === 'coco' ? 'in-coco.json' : `in-${to}`], root);
    expect(r.code, r.stderr).toBe(0);
  }
});
afterAll(() => cleanup());

const inputOf = (f: FormatId) => (f === 'coco' ? 'in-coco.json' : `in-${f}`);
const pairs = FORMAT_IDS.flatMap((from) => FORMAT_IDS.map((to) => [from, to] as const));

describe('spoc-studio convert', () => {
  it.each(pairs)('%s -> %s gives byte-identical label maps', async (from, to) => {
    const out = to === 'coco' ? `out-${from}-coco.json` : `out-${from}-${to}`;
    const extra = from === 'davis' || from === 'visor' ? ['--verb', 'grating', '--noun', 'carrot'] : [];
    const r = await runCli(['convert', '--from', from, '--to', to, inputOf(from), out, ...(to === 'wtc' ? extra : [])], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('read 2 clips (8 frames, source gt)');
    expect(r.stderr).toBe('');
    const maps = await labelMaps(to, out);
    expect([...maps.keys()].sort()).toEqual(['demo-1', 'demo-2']);
    for (const [clip, frames] of truth) {
      for (const [frame, bytes] of frames) expect(maps.get(clip)?.get(frame), `${clip}/${frame}`).toEqual(bytes);
    }
  });

  it('copies frame images unchanged between folder formats', async () => {
    const r1 = await runCli(['convert', '--from', 'wtc', '--to', 'davis', 'in-wtc', 'img-davis'], root);
    const r2 = await runCli(['convert', '--from', 'davis', '--to', 'wtc', 'img-davis', 'img-wtc', '--verb', 'grating', '--noun', 'carrot'], root);
    expect([r1.code, r2.code]).toEqual([0, 0]);
    const [osc] = (await readdir(path.join(root, 'in-wtc'))).filter((d) => d.startsWith('grating'));
    const a = await readFile(path.join(root, 'in-wtc', osc, 'JPEGImages_1fps', 'demo-1', 'frame0002.jpg'));
    expect(await readFile(path.join(root, 'img-davis', 'JPEGImages', 'demo-1', 'frame0002.jpg'))).toEqual(a);
    expect(await readFile(path.join(root, 'img-wtc', 'grating_carrot', 'JPEGImages_1fps', 'demo-1', 'frame0002.jpg'))).toEqual(a);
  });

  it('keeps metadata (phases, ignores, timestamps, OSC) through wtc -> coco -> wtc', async () => {
    const meta = path.join(root, 'in-wtc');
    const [osc] = (await readdir(meta)).filter((d) => d.startsWith('peeling'));
    const file = path.join(meta, osc, 'meta', 'demo-2.json');
    const doc = JSON.parse(await readFile(file, 'utf8')) as { frames: Record<string, unknown>[] };
    doc.frames[1].ignored = { reason: 'too_blurry', note: 'motion', by: 'ann', at: 1700000000000 };
    doc.frames[2].reviewed = true;
    await mkdir(path.join(root, 'meta-in'), { recursive: true });
    const { cp } = await import('node:fs/promises');
    await cp(path.join(meta, osc), path.join(root, 'meta-in', osc), { recursive: true });
    await writeFile(path.join(root, 'meta-in', osc, 'meta', 'demo-2.json'), JSON.stringify(doc));
    expect((await runCli(['convert', '--from', 'wtc', '--to', 'coco', 'meta-in', 'meta.json'], root)).code).toBe(0);
    expect((await runCli(['convert', '--from', 'coco', '--to', 'wtc', 'meta.json', 'meta-out'], root)).code).toBe(0);
    const back = JSON.parse(await readFile(path.join(root, 'meta-out', osc, 'meta', 'demo-2.json'), 'utf8')) as Record<string, unknown>;
    const orig = JSON.parse(await readFile(path.join(root, 'meta-in', osc, 'meta', 'demo-2.json'), 'utf8')) as Record<string, unknown>;
    expect(back.frames).toEqual(orig.frames);
    expect([back.verb, back.noun, back.actionable, back.transformed, back.fps]).toEqual([orig.verb, orig.noun, orig.actionable, orig.transformed, orig.fps]);
  });

  it('writes one VISOR file for one clip, and refuses a file name for several', async () => {
    const one = await runCli(['convert', '--from', 'visor', '--to', 'visor', 'in-visor/demo-1.json', 'one.json'], root);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain('wrote 1 file to one.json as VISOR');
    const many = await runCli(['convert', '--from', 'wtc', '--to', 'visor', 'in-wtc', 'many.json'], root);
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('VISOR writes one file per clip and the input has 2 clips; give a folder for OUT');
  });

  it('notes that JSON formats carry no frame images', async () => {
    const r = await runCli(['convert', '--from', 'coco', '--to', 'davis', 'in-coco.json', 'note-davis'], root);
    expect(r.stdout).toContain('note: COCO carries no frame images, so note-davis holds masks only');
  });

  it.each([
    [['convert'], 2, '--from is required'],
    [['convert', '--from', 'wtc'], 2, '--to is required'],
    [['convert', '--from', 'png', '--to', 'coco', 'a', 'b'], 2, '--from must be one of wtc, davis, coco, visor; got "png"'],
    [['convert', '--from', 'wtc', '--to', 'coco', 'in-wtc'], 2, 'needs the input and the output'],
    [['convert', '--from', 'wtc', '--to', 'coco', 'in-wtc', 'x.json', 'y'], 2, 'unexpected argument "y"'],
    [['convert', '--from', 'wtc', '--to', 'coco', 'nowhere', 'x.json'], 2, 'nowhere: no such file or folder'],
    [['convert', '--from', 'wtc', '--to', 'coco', 'in-coco.json', 'x.json'], 2, 'in-coco.json is a file; WhereToChange input is a folder (or a .zip of one)'],
    [['convert', '--from', 'wtc', '--to', 'coco', 'in-wtc', 'in-coco.json'], 2, 'in-coco.json exists; pass --force to overwrite it'],
    [['convert', '--from', 'wtc', '--to', 'davis', 'in-wtc', 'in-davis'], 2, 'in-davis is not empty; pass --force'],
    [['convert', '--from', 'wtc', '--to', 'davis', 'in-wtc', 'x.json'], 2, 'DAVIS output is a folder; "x.json" looks like a file'],
    [['convert', '--from', 'wtc', '--to', 'coco', 'in-wtc', 'x.json', '--source', 'model'], 2, '--source must be gt, proposal or pred:<name>'],
    [['convert', '--from', 'wtc', '--to', 'coco', 'in-wtc', 'x.json', '--verb', 'cut'], 2, '--verb and --noun go together'],
    [['convert', '--from', 'davis', '--to', 'wtc', 'in-davis', 'no-osc'], 1, 'has no verb and noun, which name the WhereToChange folder (pass --verb and --noun)'],
    [['convert', '--from', 'coco', '--to', 'wtc', 'in-davis', 'y'], 1, 'in-davis: has no .json file to read as COCO'],
  ])('%j exits %i', async (argv, code, message) => {
    const r = await runCli(argv, root);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toContain(message);
  });

  it('reads a zip of a folder format, and reports malformed input as a data error naming the file', async () => {
    const { zipSync } = await import('fflate');
    const files: Record<string, Uint8Array> = {};
    for (const f of await tree(path.join(root, 'in-davis'))) files[f.path] = new Uint8Array(await f.blob.arrayBuffer());
    await writeFile(path.join(root, 'davis.zip'), zipSync(files));
    const ok = await runCli(['convert', '--from', 'davis', '--to', 'coco', 'davis.zip', 'from-zip.json'], root);
    expect(ok.code, ok.stderr).toBe(0);
    await writeFile(path.join(root, 'broken.json'), '{"images": [');
    const bad = await runCli(['convert', '--from', 'coco', '--to', 'davis', 'broken.json', 'z'], root);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('spoc-studio convert: error: broken.json: is not valid JSON');
  });
});

describe('spoc-studio convert --objects', () => {
  it('VISOR entities -> COCO tracks -> VISOR gives the same entities, masks and contacts; -> DAVIS gives object numbers', async () => {
    const doc = exportVisorObjects(objectsClip(24));
    // A VISOR-layout file: no spoc_* fields.
    const plain = {
      info: doc.info,
      video_annotations: doc.video_annotations.map((e) => ({
        ...e,
        annotations: e.annotations.map(({ spoc_object_id: _o, spoc_presence: _p, spoc_keyframe: _k, spoc_class_id: _c, ...rest }) => rest),
      })),
    };
    await writeFile(path.join(root, 'objects-visor.json'), JSON.stringify(plain));
    const toCoco = await runCli(['convert', '--from', 'visor', '--to', 'coco', '--objects', 'objects-visor.json', 'objects-coco.json'], root);
    expect(toCoco.code, toCoco.stderr).toBe(0);
    const coco = JSON.parse(await readFile(path.join(root, 'objects-coco.json'), 'utf8')) as { annotations: { track_id: number }[]; spoc: { kind: string } };
    expect(coco.spoc.kind).toBe('objects');
    expect(new Set(coco.annotations.map((a) => a.track_id)).size).toBe(24);
    // Our COCO says it holds objects: no --objects needed on the way back.
    const back = await runCli(['convert', '--from', 'coco', '--to', 'visor', 'objects-coco.json', 'objects-back.json'], root);
    expect(back.code, back.stderr).toBe(0);
    const again = JSON.parse(await readFile(path.join(root, 'objects-back.json'), 'utf8')) as typeof doc;
    const strip = (d: typeof plain) => d.video_annotations.filter((e) => e.annotated !== false).map((e) => e.annotations.map((x) => ({ ...x, id: '' })));
    const stripped = { info: again.info, video_annotations: again.video_annotations.map((e) => ({ ...e, annotations: e.annotations.map(({ spoc_object_id: _o, spoc_presence: _p, spoc_keyframe: _k, spoc_class_id: _c, ...rest }) => rest) })) };
    expect(strip(stripped)).toEqual(strip(plain).map((f) => f.map((x) => ({ ...x, in_contact_object: x.in_contact_object && (x.in_contact_object.includes('/') ? expect.any(String) : x.in_contact_object) }))));
    const toDavis = await runCli(['convert', '--from', 'visor', '--to', 'davis', '--objects', 'objects-visor.json', 'objects-davis'], root);
    expect(toDavis.code, toDavis.stderr).toBe(0);
    const png = await readFile(path.join(root, 'objects-davis', 'Annotations', 'P01_01', `${doc.video_annotations[0].image.name.replace('.jpg', '')}.png`));
    expect(new Set(decodeIndexedPng(png, { fileName: 'x' }).data).size).toBe(25);
  });
});
