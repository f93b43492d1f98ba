import { describe, expect, it } from 'vitest';
import { decodeIndexedPng } from '../indexedPng';
import { exportDavis, importDavis } from './davis';
import { toVirtualFiles } from './testdata/fixtures';
import { objectPixels, objectsClip } from './testdata/objectsFixtures';

const ids = () => {
  let n = 0;
  return () => `33333333-0000-4000-8000-${String(++n).padStart(12, '0')}`;
};

describe('DAVIS palettes for objects projects', () => {
  it('writes PNG index = object number and reads 24 objects back bit for bit under their numbers', async () => {
    const a = objectsClip(24);
    const files = exportDavis(a);
    expect(files.map((f) => f.path)).toEqual([0, 1, 3].map((k) => `Annotations/P01_01/${a.frames[k].name}.png`));
    const map = decodeIndexedPng(files[0].data as Uint8Array, { fileName: 'x' });
    expect(new Set(map.data)).toEqual(new Set([0, ...Array.from({ length: 24 }, (_, i) => i + 1)]));
    const back = await importDavis(toVirtualFiles(files), 'davis', { objects: true, newId: ids() });
    const b = back.clips[0].annotations;
    expect(b.objects!.map((o) => [o.number, o.name])).toEqual(Array.from({ length: 24 }, (_, i) => [i + 1, `object ${i + 1}`]));
    // Frames come from the masks (no JPEGImages): the unannotated frame has none.
    const expected = objectPixels(a);
    const px = objectPixels(b);
    expect(px[0]).toEqual(expected[0]);
    expect(px[2]).toEqual(expected[3]);
    // The occluded object has no pixels, so DAVIS has nothing of it on frame 1.
    const { 6: _occluded, ...rest } = expected[1];
    expect(px[1]).toEqual(rest);
  });

  it('refuses an object above 254 and leaves SPOC clips on states', () => {
    const a = objectsClip(8);
    a.objects![3] = { ...a.objects![3], number: 300 };
    expect(() => exportDavis(a)).toThrow('clip "P01_01", frame 0: object 300 has pixels, but DAVIS palettes hold objects 1..254');
    const spoc = { ...objectsClip(8), labels: { kind: 'spoc' as const, classes: objectsClip(8).labels!.classes } };
    const map = decodeIndexedPng(exportDavis(spoc)[0].data as Uint8Array, { fileName: 'x' });
    expect(new Set(map.data)).toEqual(new Set([0, 1]));
  });
});
