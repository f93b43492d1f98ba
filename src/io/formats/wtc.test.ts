import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readZip } from '../files/zipArchive';
import { decodeIndexedPng, encodeIndexedPng } from '../indexedPng';
import { exportWtc, importWtc, wtcOscFolder } from './wtc';
import { parseWtcMeta, wtcMetaJson } from './wtcMeta';
import { expectSameClip, fakeJpeg, frameImages, mapFromRows, maskBytes, sampleClip, text, toVirtualFiles, vf } from './testdata/fixtures';

describe('WhereToChange export', () => {
  it('writes frames (in a folder named by the clip rate: 2 fps), indexed masks (as painted, also on ignored frames) and one metadata file', () => {
    const clip = sampleClip();
    const files = exportWtc(clip, { frameImages: frameImages(clip) });
    expect(files.map((f) => f.path)).toEqual([
      'chopping_sweet_potato/JPEGImages_2fps/v1/frame0000.jpg',
      'chopping_sweet_potato/JPEGImages_2fps/v1/frame0001.jpg',
      'chopping_sweet_potato/JPEGImages_2fps/v1/frame0002.jpg',
      'chopping_sweet_potato/JPEGImages_2fps/v1/frame0003.jpg',
      'chopping_sweet_potato/JPEGImages_2fps/v1/frame0010.jpg',
      'chopping_sweet_potato/gt/masks/v1/frame0000.png',
      'chopping_sweet_potato/gt/masks/v1/frame0001.png',
      'chopping_sweet_potato/gt/masks/v1/frame0003.png',
      'chopping_sweet_potato/gt/masks/v1/frame0010.png',
      'chopping_sweet_potato/meta/v1.json',
    ]);
    const png = files[6].data as Uint8Array;
    const map = decodeIndexedPng(png, { fileName: 'm.png' });
    expect(Array.from(map.data)).toEqual(maskBytes(clip)[1]);
    // 8-bit palette PNG (colour type 3) with the 6 release colours.
    expect(png[25]).toBe(3);
    const meta = JSON.parse(text(files[9]));
    expect(meta).toMatchObject({ format: 'spoc-studio/wtc-meta', version: 1, video: 'v1', verb: 'chopping', noun: 'sweet potato', fps: 2, source: 'gt' });
    expect(meta.frames[1]).toEqual({
      name: 'frame0001',
      timestamp_sec: 0.5,
      phase: 'transitioning',
      ignored: { reason: 'too_blurry', note: 'motion blur', by: 'ann', at: 1700000000000 },
    });
  });

  it('needs a verb and noun to name the folder, and one-word verbs', () => {
    const clip = sampleClip();
    delete clip.clip.osc;
    expect(() => exportWtc(clip)).toThrow('clip "v1" has no verb and noun');
    expect(() => wtcOscFolder({ verb: 'cut up', noun: 'x' })).toThrow('must be one word');
    expect(wtcOscFolder({ verb: 'peeling', noun: ' sweet  potato ' })).toBe('peeling_sweet_potato');
  });

  it('refuses frame names that cannot be file names', () => {
    const clip = sampleClip();
    clip.frames[2].name = 'a/b';
    expect(() => exportWtc(clip)).toThrow('clip "v1", frame 2: the frame name "a/b" contains a character not allowed');
    clip.frames[2].name = 'FRAME0000';
    expect(() => exportWtc(clip)).toThrow('is also the name of frame 0');
  });
});

describe('WhereToChange round trip', () => {
  it('export -> import gives identical metadata, label maps and frame files', async () => {
    const clip = sampleClip();
    const images = frameImages(clip);
    const result = await importWtc(toVirtualFiles(exportWtc(clip, { frameImages: images }), 'root'), 'root');
    expect(result.warnings).toEqual([]);
    expect(result.clips).toHaveLength(1);
    expectSameClip(result.clips[0].annotations, clip);
    expect([...result.clips[0].annotations.sources.keys()]).toEqual(['gt']);
    const files = result.clips[0].frameFiles!;
    for (let k = 0; k < files.length; k++) {
      expect(new Uint8Array(await (files[k] as { blob: Blob }).blob.arrayBuffer())).toEqual(images[k].data);
    }
  });

  it('writes a prediction source in the prediction place (pred/masks, pred/meta), never where ground truth goes', () => {
    const clip = sampleClip();
    const paths = exportWtc(clip, { source: 'pred:model-a' }).map((f) => f.path);
    expect(paths).toEqual(['chopping_sweet_potato/pred/masks/v1/frame0000.png', 'chopping_sweet_potato/pred/meta/v1.json']);
  });

  it('reads gt and a prediction exported into one folder as two sources, and an older prediction export under gt/masks', async () => {
    const clip = sampleClip();
    const gt = exportWtc(clip, { frameImages: frameImages(clip) });
    const pred = exportWtc(clip, { frameImages: frameImages(clip), source: 'pred:model-a' });
    const merged = new Map([...gt, ...pred].map((f) => [f.path, f]));
    const both = await importWtc(toVirtualFiles([...merged.values()], 'root'), 'root');
    expect(both.warnings).toEqual([]);
    const a = both.clips[0].annotations;
    expect([...a.sources.keys()].sort()).toEqual(['gt', 'pred:model-a']);
    expect(maskBytes(a, 'gt')).toEqual(maskBytes(clip, 'gt'));
    expect(maskBytes(a, 'pred:model-a')).toEqual(maskBytes(clip, 'pred:model-a'));
    // Older exports wrote a prediction under gt/masks with its metadata naming the source.
    const old = pred.map((f) => ({ ...f, path: f.path.replace('/pred/masks/', '/gt/masks/').replace('/pred/meta/', '/meta/') }));
    const read = await importWtc(toVirtualFiles(old, 'root'), 'root');
    expect([...read.clips[0].annotations.sources.keys()]).toEqual(['pred:model-a']);
  });

  it('carries a prediction source through the metadata, and through a zip', async () => {
    const clip = sampleClip();
    const files = exportWtc(clip, { frameImages: frameImages(clip), source: 'pred:model-a' });
    const zip = zipSync(Object.fromEntries(files.map((f) => [f.path, f.data as Uint8Array])));
    const read = await readZip(new Blob([zip]), 'export.zip');
    const result = await importWtc(read, 'export.zip');
    const a = result.clips[0].annotations;
    expect([...a.sources.keys()]).toEqual(['pred:model-a']);
    expect(maskBytes(a, 'pred:model-a')).toEqual(maskBytes(clip, 'pred:model-a'));
    expect(a.frames).toEqual(clip.frames);
  });

  it('exports twice to the same bytes', () => {
    const a = exportWtc(sampleClip());
    const b = exportWtc(sampleClip());
    expect(a.map((f) => Array.from(f.data as Uint8Array))).toEqual(b.map((f) => Array.from(f.data as Uint8Array)));
  });
});

describe('WhereToChange release layout (no metadata)', () => {
  const png = (rows: string[]) => encodeIndexedPng(mapFromRows(rows));

  it('takes the rate from a JPEGImages_<rate>fps folder of any rate (timestamps k / rate)', async () => {
    const files = [vf('rel/peeling_apple/JPEGImages_5fps/v/f1.jpg', fakeJpeg(4, 2)), vf('rel/peeling_apple/JPEGImages_5fps/v/f2.jpg', fakeJpeg(4, 2))];
    const { clips, warnings } = await importWtc(files, 'rel');
    expect(warnings).toEqual([]);
    expect(clips[0].annotations.clip.fps).toBe(5);
    expect(clips[0].annotations.frames.map((f) => f.timestampSec)).toEqual([0, 0.2]);
  });

  it('a 5 fps clip exports under JPEGImages_5fps and comes back at 5 fps, also without its metadata file', async () => {
    const clip = sampleClip();
    clip.clip.fps = 5;
    const files = toVirtualFiles(exportWtc(clip, { frameImages: frameImages(clip) }));
    expect(files.filter((f) => f.path.endsWith('.jpg')).every((f) => f.path.startsWith('chopping_sweet_potato/JPEGImages_5fps/v1/'))).toBe(true);
    const bare = files.filter((f) => !f.path.includes('/meta/'));
    expect((await importWtc(bare, 'x')).clips[0].annotations.clip.fps).toBe(5);
  });

  it('warns when the metadata and the frame folder disagree on the rate, and keeps the metadata\'s', async () => {
    const clip = sampleClip();
    const files = toVirtualFiles(exportWtc(clip, { frameImages: frameImages(clip) })).map((f) => ({ ...f, path: f.path.replace('JPEGImages_2fps', 'JPEGImages_1fps') }));
    const { clips, warnings } = await importWtc(files, 'x');
    expect(clips[0].annotations.clip.fps).toBe(2);
    expect(warnings).toEqual(['chopping_sweet_potato/meta/v1.json: fps 2 does not match the frame folder JPEGImages_1fps; the metadata was used']);
  });

  it('reads verb/noun from the folder, defaults from the taxonomy, maps 3 to 0 and 4/5 to 0 with a warning', async () => {
    const files = [
      vf('rel/grating_carrot/JPEGImages_1fps/vid/frame1.jpg', fakeJpeg(4, 2)),
      vf('rel/grating_carrot/JPEGImages_1fps/vid/frame2.jpg', fakeJpeg(4, 2)),
      vf('rel/grating_carrot/JPEGImages_1fps/vid/frame10.jpg', fakeJpeg(4, 2)),
      vf('rel/grating_carrot/gt/masks/vid/frame1.png', png(['0123', '4500'])),
      vf('rel/grating_carrot/gt/masks/vid/frame10.png', png(['5555', '5555'])),
    ];
    const { clips, warnings } = await importWtc(files, 'rel');
    const a = clips[0].annotations;
    expect(a.clip).toEqual({
      name: 'vid',
      width: 4,
      height: 2,
      fps: 1,
      osc: { verb: 'grating', noun: 'carrot', actionable: expect.any(String), transformed: expect.any(String) },
      subset: 'seen',
    });
    expect(a.frames).toEqual([
      { name: 'frame1', timestampSec: 0 },
      { name: 'frame2', timestampSec: 1 },
      { name: 'frame10', timestampSec: 2, ignored: { reason: 'other', note: 'mask is entirely "ignore" (5)' } },
    ]);
    expect(maskBytes(a)).toEqual({ 0: [0, 1, 2, 0, 0, 0, 0, 0] });
    expect(warnings).toEqual(['grating_carrot/gt/masks/vid: 2 pixels labelled ambiguous (4) or ignore (5) were read as background']);
  });

  it('names a mask of the wrong size and an unknown palette index', async () => {
    const base = [vf('r/chopping_onion/JPEGImages_1fps/v/f1.jpg', fakeJpeg(4, 2)), vf('r/chopping_onion/JPEGImages_1fps/v/f2.jpg', fakeJpeg(4, 2))];
    await expect(importWtc([...base, vf('r/chopping_onion/gt/masks/v/f1.png', png(['01', '00', '00'])), vf('r/chopping_onion/gt/masks/v/f2.png', png(['0000', '0000']))], 'r')).rejects.toThrow(
      'r/chopping_onion/gt/masks/v/f1.png: size 2x3 does not match the frame size 4x2',
    );
    await expect(importWtc([...base, vf('r/chopping_onion/gt/masks/v/f1.png', png(['0700', '0000']))], 'r')).rejects.toThrow(
      'r/chopping_onion/gt/masks/v/f1.png: unknown label 7 at (x=1, y=0)',
    );
  });
});

describe('WhereToChange metadata file', () => {
  const clip = sampleClip();
  const json = wtcMetaJson(clip, 'gt');

  it('parses what it writes', () => {
    const meta = parseWtcMeta(json, 'm.json', 'v1');
    expect(meta.frames).toEqual(clip.frames);
    expect(meta).toMatchObject({ verb: 'chopping', noun: 'sweet potato', subset: 'seen', fps: 2, width: 24, height: 16, source: 'gt' });
  });

  it('warns about unknown fields and keeps going', () => {
    const doc = JSON.parse(json);
    doc.comment = 'hi';
    doc.frames[0].blur = 0.3;
    const warnings: string[] = [];
    parseWtcMeta(JSON.stringify(doc), 'm.json', 'v1', warnings);
    expect(warnings).toEqual(['m.json: has unknown field "comment" (ignored)', 'm.json: frames[0] has unknown field "blur" (ignored)']);
  });

  it.each([
    [(d: Record<string, unknown>) => delete d.verb, 'm.json: verb is missing'],
    [(d: Record<string, unknown>) => delete d.frames, 'm.json: frames is missing'],
    [(d: Record<string, unknown>) => (d.fps = 0), 'm.json: fps must be greater than 0'],
    [(d: Record<string, unknown>) => (d.fps = '1'), 'm.json: fps must be a finite number, got string "1"'],
    [(d: Record<string, unknown>) => (d.version = 2), 'm.json: version is 2; this app reads version 1'],
    [(d: Record<string, unknown>) => (d.video = 'v2'), 'm.json: video is "v2" but the file describes the video folder "v1"'],
    [(d: Record<string, unknown>) => delete d.height, 'm.json: height is missing (give both width and height, or neither)'],
    [(d: Record<string, unknown>) => (d.source = 'mine'), 'm.json: source is "mine"; expected "gt", "proposal", "pred:<name>" or "ann:<name>"'],
    [(d: { frames: Record<string, unknown>[] }) => delete d.frames[2].timestamp_sec, 'm.json: frames[2].timestamp_sec is missing'],
    [(d: { frames: Record<string, unknown>[] }) => (d.frames[2].phase = 'middle'), 'm.json: frames[2].phase must be one of "initial", "transitioning", "end", got string "middle"'],
    [(d: { frames: Record<string, unknown>[] }) => (d.frames[1].ignored = { note: 'x' }), 'm.json: frames[1].ignored.reason is missing'],
    [(d: { frames: Record<string, unknown>[] }) => (d.frames[3].name = 'frame0000'), 'm.json: frames[3].name "frame0000" is also the name of frames[0]'],
    [(d: { frames: Record<string, unknown>[] }) => (d.frames[3].name = '../x'), 'm.json: frames[3].name "../x" contains a character not allowed'],
  ] as [(d: never) => unknown, string][])('%#: %s', (edit, message) => {
    const doc = JSON.parse(json);
    edit(doc as never);
    expect(() => parseWtcMeta(JSON.stringify(doc), 'm.json', 'v1')).toThrow(message);
  });

  it('names the metadata file when it lists a frame that has no image', async () => {
    const files = toVirtualFiles(exportWtc(clip, { frameImages: frameImages(clip) })).filter((f) => !f.path.endsWith('frame0002.jpg'));
    await expect(importWtc(files, 'x')).rejects.toThrow('chopping_sweet_potato/meta/v1.json: frames[2].name "frame0002" has no image in chopping_sweet_potato/JPEGImages_2fps/v1/');
  });

  it('adds unlisted frames with a warning, and warns about a folder that contradicts the metadata', async () => {
    const files = toVirtualFiles(exportWtc(clip, { frameImages: frameImages(clip) }));
    files.push(vf('chopping_sweet_potato/JPEGImages_2fps/v1/frame0020.jpg', fakeJpeg(24, 16)));
    const moved = files.map((f) => ({ ...f, path: f.path.replace('chopping_sweet_potato', 'slicing_sweet_potato') }));
    const { clips, warnings } = await importWtc(moved, 'x');
    expect(clips[0].annotations.frames.at(-1)).toEqual({ name: 'frame0020', timestampSec: 2.5 });
    expect(clips[0].annotations.clip.osc?.verb).toBe('chopping');
    expect(warnings).toEqual([
      'slicing_sweet_potato/meta/v1.json: verb "chopping" and noun "sweet potato" do not match the folder name "slicing_sweet_potato"; the metadata was used',
      'slicing_sweet_potato/meta/v1.json: does not list 1 frame(s) of slicing_sweet_potato/JPEGImages_2fps/v1/ (e.g. frame0020); they were added with timestamps k / fps',
    ]);
  });
});
