import { describe, expect, it } from 'vitest';
import { exportFormat, FORMAT_IDS, importFormat, type FormatId } from './convert';
import { exportDavis } from './davis';
import { exportWtc } from './wtc';
import { frameImages, maskBytes, sampleClip, toVirtualFiles } from './testdata/fixtures';

const FOLDER: readonly FormatId[] = ['wtc', 'davis'];

describe('convert between every pair of formats', () => {
  const clip = sampleClip();
  const start = toVirtualFiles(exportWtc(clip, { frameImages: frameImages(clip) }), 'in');
  const exportOpts = { wtc: { osc: { verb: 'chopping', noun: 'sweet potato' } }, davis: { ignored: 'painted' as const } };
  const importOpts = { visor: { size: { width: 24, height: 16 } } };
  const pairs = FORMAT_IDS.flatMap((a) => FORMAT_IDS.map((b) => [a, b] as const));

  it.each(pairs)('wtc -> %s -> %s keeps every label map (and names, images and metadata where carried)', async (via, to) => {
    const first = await importFormat('wtc', start, 'in');
    const mid = await importFormat(via, toVirtualFiles(exportFormat(via, first.clips, exportOpts)), 'mid', importOpts);
    const out = exportFormat(to, mid.clips, exportOpts);
    if (!FOLDER.includes(via) && FOLDER.includes(to)) {
      // JSON formats carry no images: the folder export has the masks (and WTC metadata) only, and
      // the WhereToChange importer, whose frames define the clip, cannot read it back without them.
      expect(out.filter((f) => f.path.endsWith('.png')).length).toBe(4);
      expect(out.some((f) => f.path.endsWith('.jpg'))).toBe(false);
      return;
    }
    const end = await importFormat(to, toVirtualFiles(out), 'end', importOpts);
    const a = end.clips[0].annotations;
    expect(a.frames.map((f) => f.name)).toEqual(clip.frames.map((f) => f.name));
    expect(maskBytes(a)).toEqual(maskBytes(clip));
    if (['wtc', 'coco'].includes(via) && ['wtc', 'coco'].includes(to)) {
      expect(a.frames).toEqual(clip.frames);
      expect(a.clip).toEqual(clip.clip);
    }
    if (FOLDER.includes(via) && FOLDER.includes(to)) {
      expect(await end.clips[0].frameFiles![3]!.blob.arrayBuffer()).toEqual(await first.clips[0].frameFiles![3]!.blob.arrayBuffer());
    }
  });

  it('refuses an input without JSON for a JSON format, and two videos of one name', async () => {
    await expect(importFormat('coco', toVirtualFiles(exportDavis(clip)), 'in')).rejects.toThrow('in: has no .json file to read as COCO');
    const files = toVirtualFiles(exportFormat('visor', (await importFormat('wtc', start, 'in')).clips));
    const twice = [...files, { ...files[0], path: `copy/${files[0].path}` }];
    await expect(importFormat('visor', twice, 'x')).rejects.toThrow('x: holds two videos named "v1"');
  });

  it('refuses two clips that would write the same file', async () => {
    const one = (await importFormat('wtc', start, 'in')).clips[0];
    expect(() => exportFormat('davis', [one, one])).toThrow('two clips would both write "JPEGImages/v1/frame0000.jpg"');
  });
});
