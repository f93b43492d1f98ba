import { describe, expect, it } from 'vitest';
import { exportWtc, importWtc } from './wtc';
import { frameImages, maskBytes, sampleClip, toVirtualFiles } from './testdata/fixtures';
import { objectsClip } from './testdata/objectsFixtures';

describe('WhereToChange and objects', () => {
  it('keeps the PNGs as states and lists the objects in the metadata file; import reads them back', async () => {
    const a = objectsClip(20);
    const files = exportWtc(a, { frameImages: frameImages(a), osc: { verb: 'cut', noun: 'onion' } });
    const meta = files.find((f) => f.path.endsWith('meta/P01_01.json'))!;
    const doc = JSON.parse(new TextDecoder().decode(meta.data as Uint8Array)) as { objects: unknown[] };
    expect(doc.objects).toHaveLength(20);
    expect(doc.objects[0]).toEqual({ id: a.objects![0].id, number: 1, name: 'left hand', class_id: 'hand:left' });
    const back = (await importWtc(toVirtualFiles(files), 'wtc')).clips[0].annotations;
    expect(back.objects).toEqual(a.objects!.map(({ attributes: _a, ...o }) => o));
    expect(maskBytes(back)).toEqual(maskBytes(a));
  });

  it('writes no objects field for a clip without objects', () => {
    const files = exportWtc(sampleClip(), { frameImages: frameImages(sampleClip()) });
    const meta = files.find((f) => f.path.includes('/meta/'))!;
    expect(new TextDecoder().decode(meta.data as Uint8Array)).not.toContain('"objects"');
  });
});
