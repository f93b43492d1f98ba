import { describe, expect, it } from 'vitest';
import { decodeIndexedPng, encodeIndexedPng } from '../indexedPng';
import { exportDavis, importDavis, looksLikeDavis } from './davis';
import { expectSameClip, fakeJpeg, frameImages, mapFromRows, maskBytes, sampleClip, toVirtualFiles, vf } from './testdata/fixtures';

describe('DAVIS export', () => {
  it('writes JPEGImages and Annotations per video; ignored frames as all-void masks by default', () => {
    const clip = sampleClip();
    const files = exportDavis(clip, { frameImages: frameImages(clip) });
    expect(files.map((f) => f.path)).toEqual([
      'JPEGImages/v1/frame0000.jpg',
      'JPEGImages/v1/frame0001.jpg',
      'JPEGImages/v1/frame0002.jpg',
      'JPEGImages/v1/frame0003.jpg',
      'JPEGImages/v1/frame0010.jpg',
      'Annotations/v1/frame0000.png',
      'Annotations/v1/frame0001.png',
      'Annotations/v1/frame0003.png',
      'Annotations/v1/frame0010.png',
    ]);
    const ignored = decodeIndexedPng(files[6].data as Uint8Array, { fileName: 'x.png' });
    expect(ignored.data.every((v) => v === 255)).toBe(true);
  });

  it('writes painted masks on ignored frames when asked', () => {
    const clip = sampleClip();
    const files = exportDavis(clip, { ignored: 'painted' });
    const map = decodeIndexedPng(files[1].data as Uint8Array, { fileName: 'x.png' });
    expect(Array.from(map.data)).toEqual(maskBytes(clip)[1]);
  });
});

describe('DAVIS round trip', () => {
  it('painted: identical label maps, frame and clip names, size (fps given back by the caller)', async () => {
    const clip = sampleClip();
    const files = toVirtualFiles(exportDavis(clip, { ignored: 'painted', frameImages: frameImages(clip) }), 'DAVIS');
    expect(looksLikeDavis(files)).toBe(true);
    const { clips, warnings } = await importDavis(files, 'DAVIS', { fps: 2 });
    expect(warnings).toEqual([]);
    const a = clips[0].annotations;
    expect(a.clip).toEqual({ name: 'v1', width: 24, height: 16, fps: 2 });
    expect(a.frames.map((f) => f.name)).toEqual(clip.frames.map((f) => f.name));
    expect(a.frames.map((f) => f.timestampSec)).toEqual([0, 0.5, 1, 1.5, 2]);
    expect(maskBytes(a)).toEqual(maskBytes(clip));
    expect(clips[0].frameFiles?.map((f) => f?.path)).toEqual(clip.frames.map((f) => `DAVIS/JPEGImages/v1/${f.name}.jpg`));
  });

  it('void: ignored frames come back ignored (reason "other"), without their mask', async () => {
    const clip = sampleClip();
    const { clips } = await importDavis(toVirtualFiles(exportDavis(clip, { frameImages: frameImages(clip) })), 'x');
    const a = clips[0].annotations;
    expect(a.frames.map((f) => f.ignored?.reason)).toEqual([undefined, 'other', undefined, undefined, 'other']);
    const expected = maskBytes(clip);
    delete expected[1];
    delete expected[4];
    expect(maskBytes(a)).toEqual(expected);
  });

  it('lossless where DAVIS can carry it: a clip without metadata beyond names round-trips exactly', async () => {
    const clip = sampleClip();
    clip.clip.fps = 1;
    delete clip.clip.osc;
    delete clip.clip.subset;
    clip.frames = clip.frames.map((f, k) => ({ name: f.name, timestampSec: k }));
    const { clips } = await importDavis(toVirtualFiles(exportDavis(clip, { frameImages: frameImages(clip) })), 'x');
    expectSameClip(clips[0].annotations, clip);
  });
});

describe('DAVIS import', () => {
  /** Rows of digits, "v" for void (255). */
  const png = (rows: string[]) => {
    const m = mapFromRows(rows.map((r) => r.replace(/v/g, '0')));
    [...rows.join('')].forEach((c, i) => {
      if (c === 'v') m.data[i] = 255;
    });
    return encodeIndexedPng(m);
  };

  it('reads DAVIS 2017 resolution folders and masks-only trees; void pixels become background with a warning', async () => {
    const files = [
      vf('D/JPEGImages/480p/bear/00000.jpg', fakeJpeg(3, 2)),
      vf('D/JPEGImages/480p/bear/00001.jpg', fakeJpeg(3, 2)),
      vf('D/Annotations/480p/bear/00000.png', png(['12v', '000'])),
      vf('D/Annotations/480p/bear/00001.png', png(['vvv', 'vvv'])),
      vf('D/Annotations/480p/cat/00007.png', png(['1', '2'])),
      vf('D/ImageSets/2017/val.txt', 'bear'),
    ];
    const { clips, warnings } = await importDavis(files, 'D');
    expect(clips.map((c) => c.annotations.clip.name)).toEqual(['bear', 'cat']);
    expect(maskBytes(clips[0].annotations)).toEqual({ 0: [1, 2, 0, 0, 0, 0] });
    expect(clips[0].annotations.frames[1].ignored).toEqual({ reason: 'other', note: 'mask is entirely void (255)' });
    expect(clips[1].annotations.frames).toEqual([{ name: '00007', timestampSec: 0 }]);
    expect(clips[1].frameFiles).toBeUndefined();
    expect(warnings).toEqual(['D/Annotations/480p/bear: 1 void (255) pixels were read as background']);
  });

  it('names the file for unknown labels, wrong sizes, orphan masks, duplicate frame names and mixed resolutions', async () => {
    const frame = vf('JPEGImages/a/0.jpg', fakeJpeg(2, 1));
    await expect(importDavis([frame, vf('Annotations/a/0.png', png(['13']))], 'x')).rejects.toThrow('Annotations/a/0.png: unknown label 3 at (x=1, y=0); allowed 0,1,2,255');
    await expect(importDavis([frame, vf('Annotations/a/0.png', png(['1', '0']))], 'x')).rejects.toThrow('Annotations/a/0.png: size 1x2 does not match the frame size 2x1');
    await expect(importDavis([frame, vf('Annotations/a/1.png', png(['10']))], 'x')).rejects.toThrow('Annotations/a/1.png: has no matching frame 1.* in JPEGImages/a/');
    await expect(importDavis([frame, vf('JPEGImages/a/0.png', png(['10']))], 'x')).rejects.toThrow('has the same frame name as');
    await expect(importDavis([frame, vf('JPEGImages/480p/a/1.jpg', fakeJpeg(2, 1))], 'x')).rejects.toThrow('JPEGImages/480p/a/1.jpg: is a second folder for video "a" (also JPEGImages/a/)');
    await expect(importDavis([vf('x/y.png', png(['1']))], 'x')).rejects.toThrow('x: has no Annotations/<video>/ or JPEGImages/<video>/ folders');
  });
});
