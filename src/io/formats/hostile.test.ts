/**
 * Malformed and hostile input for every format parser. Each case must fail (or warn) with a message
 * that names the file and the problem, quickly, without allocating what the input merely declares.
 */
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readZip } from '../files/zipArchive';
import { encodeIndexedPng } from '../indexedPng';
import { importCoco } from './cocoImport';
import { importDavis } from './davis';
import { parseJsonText } from './json';
import { exportWtc, importWtc } from './wtc';
import { importVisor } from './visor';
import { fakeJpeg, frameImages, mapFromRows, sampleClip, toVirtualFiles, vf } from './testdata/fixtures';

/** Runs `fn`, expects an error containing `message`, and that it came quickly. */
async function rejects(fn: () => unknown, message: string): Promise<void> {
  const t0 = performance.now();
  let error: unknown = null;
  try {
    await fn();
  } catch (err) {
    error = err;
  }
  expect(error, `expected an error containing: ${message}`).toBeInstanceOf(Error);
  expect((error as Error).message).toContain(message);
  expect(performance.now() - t0).toBeLessThan(3000);
}

const nested = (depth: number, leaf = '0') => '['.repeat(depth) + leaf + ']'.repeat(depth);

describe('hostile COCO JSON', () => {
  const img = { id: 1, file_name: 'v/f0.jpg', width: 640, height: 360 };
  const cats = [
    { id: 1, name: 'actionable' },
    { id: 2, name: 'transformed' },
  ];
  const ann = (segmentation: unknown, extra: object = {}) => ({ id: 1, image_id: 1, category_id: 1, segmentation, ...extra });
  const doc = (over: object) => JSON.stringify({ images: [img], categories: cats, annotations: [], ...over });
  const coco = (text: string | Uint8Array) => () => importCoco(text, 'annotations.json');

  const cases: [string, () => unknown, string][] = [
    ['truncated JSON', coco(doc({}).slice(0, 40)), 'annotations.json: is not valid JSON ('],
    ['empty file', coco(''), 'annotations.json: is empty; expected a JSON document'],
    ['not UTF-8', coco(Uint8Array.of(0x7b, 0xff, 0xfe, 0x7d)), 'annotations.json: is not UTF-8 text'],
    ['top level is an array', coco('[]'), 'annotations.json: must be an object, got an array of length 0'],
    ['missing images', coco(JSON.stringify({ categories: cats, annotations: [] })), 'annotations.json: images is missing'],
    ['images is a string', coco(doc({ images: 'all' })), 'annotations.json: images must be an array, got string "all"'],
    ['width as a string', coco(doc({ images: [{ ...img, width: '640' }] })), 'annotations.json: images[0].width must be an integer, got string "640"'],
    ['negative width', coco(doc({ images: [{ ...img, width: -640 }] })), 'annotations.json: images[0].width is -640; it must be between 1 and 8192'],
    ['huge declared size', coco(doc({ images: [{ ...img, width: 1e9, height: 1e9 }] })), 'annotations.json: images[0].width is 1000000000; it must be between 1 and 8192'],
    ['fractional height', coco(doc({ images: [{ ...img, height: 360.5 }] })), 'annotations.json: images[0].height must be an integer, got number 360.5'],
    ['duplicate image ids', coco(doc({ images: [img, { ...img, file_name: 'v/f1.jpg' }] })), 'annotations.json: images[1].id 1 is used by two images'],
    ['duplicate frame names', coco(doc({ images: [img, { ...img, id: 2, file_name: 'v/f0.png' }] })), 'annotations.json: images[1] has the frame name "f0" of images[0] in video "v" (duplicate frame names)'],
    ['frame name with a path', coco(doc({ images: [{ ...img, frame: '../../etc' }] })), 'annotations.json: images[0].frame gives the frame name "../../etc", which contains a character not allowed'],
    ['duplicate category ids', coco(doc({ categories: [...cats, { id: 2, name: 'x' }] })), 'annotations.json: categories[2].id 2 is used by two categories'],
    ['unknown image id', coco(doc({ annotations: [{ ...ann({ size: [360, 640], counts: 'fb6' }), image_id: 7 }] })), 'annotations.json: annotations[0].image_id 7 is not the id of an image'],
    ['unknown category', coco(doc({ annotations: [{ ...ann({ size: [360, 640], counts: 'fb6' }), category_id: 5 }] })), 'annotations.json: annotations[0].category_id 5 is not the id of a category'],
    [
      'duplicate annotation ids',
      coco(doc({ annotations: [ann({ size: [360, 640], counts: [230400] }), ann({ size: [360, 640], counts: [230400] })] })),
      'annotations.json: annotations[1].id 1 is used by two annotations',
    ],
    ['missing segmentation', coco(doc({ annotations: [{ id: 1, image_id: 1, category_id: 1 }] })), 'annotations.json: annotations[0].segmentation is missing'],
    ['counts do not sum to h*w', coco(doc({ annotations: [ann({ size: [360, 640], counts: [1000, 200] })] })), 'annotations.json: annotations[0].segmentation.counts sums to 1200, expected 640*360=230400'],
    ['counts string does not sum', coco(doc({ annotations: [ann({ size: [360, 640], counts: '06' })] })), 'annotations.json: annotations[0].segmentation.counts sums to 6, expected 640*360=230400'],
    ['counts overshoot', coco(doc({ annotations: [ann({ size: [360, 640], counts: [230400, 5] })] })), 'annotations.json: annotations[0].segmentation.counts sums to 230405, expected 640*360=230400'],
    ['negative count', coco(doc({ annotations: [ann({ size: [360, 640], counts: [230401, -1] })] })), 'annotations.json: annotations[0].segmentation.counts[1] must be a non-negative integer, got number -1'],
    ['bad counts character', coco(doc({ annotations: [ann({ size: [360, 640], counts: 'ab{c' })] })), `annotations.json: annotations[0].segmentation.counts is invalid: RLE counts string has an invalid character "{" at position 2`],
    ['counts cut mid-number', coco(doc({ annotations: [ann({ size: [360, 640], counts: 'fb' })] })), 'annotations.json: annotations[0].segmentation.counts is invalid: RLE counts string ends in the middle of a number (truncated?)'],
    ['counts is an object', coco(doc({ annotations: [ann({ size: [360, 640], counts: {} })] })), 'annotations.json: annotations[0].segmentation.counts must be a string (compressed RLE) or an array of numbers, got an object'],
    [
      'absurdly many runs',
      coco(doc({ images: [{ ...img, width: 2, height: 1 }], annotations: [ann({ size: [1, 2], counts: new Array(100).fill(0) })] })),
      'annotations.json: annotations[0].segmentation.counts has 100 runs, far more than a 2x1 mask needs',
    ],
    ['segmentation size differs', coco(doc({ annotations: [ann({ size: [100, 200], counts: [20000] })] })), 'annotations.json: annotations[0].segmentation.size is [100, 200] but image 1 (images[0]) is 640x360, so it must be [360, 640]'],
    ['segmentation size huge', coco(doc({ annotations: [ann({ size: [1e9, 1e9], counts: 'PeQ3' })] })), 'annotations.json: annotations[0].segmentation.size is [1000000000, 1000000000] but image 1'],
    ['segmentation size negative', coco(doc({ annotations: [ann({ size: [-360, 640], counts: [1] })] })), 'annotations.json: annotations[0].segmentation.size is [-360, 640]'],
    ['polygon with NaN (as JSON can carry it)', coco(doc({ annotations: [ann([[1, 1, 'NaN', 4, 1, 4]])] })), 'annotations.json: annotations[0].segmentation[0][2] must be a finite number, got string "NaN"'],
    ['polygon with null', coco(doc({ annotations: [ann([[1, 1, null, 4, 1, 4]])] })), 'annotations.json: annotations[0].segmentation[0][2] must be a finite number, got null'],
    ['polygon with Infinity (1e400)', coco(doc({}).replace('"annotations":[]', '"annotations":[{"id":1,"image_id":1,"category_id":1,"segmentation":[[1,1,1e400,4,1,4]]}]')), 'annotations.json: annotations[0].segmentation[0][2] must be a finite number, got number Infinity'],
    ['polygon odd coordinates', coco(doc({ annotations: [ann([[1, 1, 4]])] })), 'annotations.json: annotations[0].segmentation[0] has an odd number of coordinates (3)'],
    ['polygon far outside', coco(doc({ annotations: [ann([[1, 1, 1e7, 1, 1, 4]])] })), 'annotations.json: annotations[0].segmentation[0] is invalid: polygon coordinate 2 (10000000) is not a number within ±1000000'],
    ['polygon too long to rasterise', coco(doc({ annotations: [ann([[0, 0, 999999, 0, 0, 999999]])] })), 'annotations.json: annotations[0].segmentation[0] is invalid: polygon is too long to rasterise'],
    ['deeply nested junk as segmentation', coco(doc({}).replace('"annotations":[]', `"annotations":[{"id":1,"image_id":1,"category_id":1,"segmentation":${nested(100000)}}]`)), 'annotations.json: annotations[0].segmentation[0] has an odd number of coordinates (1)'],
    [
      'deeply nested junk as a coordinate',
      coco(doc({}).replace('"annotations":[]', `"annotations":[{"id":1,"image_id":1,"category_id":1,"segmentation":[[0,${nested(100000)}]]}]`)),
      'annotations.json: annotations[0].segmentation[0][1] must be a finite number, got an array of length 1',
    ],
    ['bbox of three numbers', coco(doc({ annotations: [ann({ size: [360, 640], counts: [230400] }, { bbox: [1, 2, 3] })] })), 'annotations.json: annotations[0].bbox must be [x, y, width, height], got an array of length 3'],
    ['iscrowd 2', coco(doc({ annotations: [ann({ size: [360, 640], counts: [230400] }, { iscrowd: 2 })] })), 'annotations.json: annotations[0].iscrowd must be 0 or 1, got number 2'],
    ['video_id that is not a video', coco(doc({ images: [{ ...img, video_id: 3 }] })), 'annotations.json: images[0].video_id 3 is not the id of an entry in videos'],
    ['video fps 0', coco(doc({ videos: [{ id: 1, name: 'v', fps: 0 }] })), 'annotations.json: videos[0].fps must be greater than 0'],
    ['newer spoc version', coco(doc({ spoc: { version: 9 } })), 'annotations.json: spoc.version is 9; this app reads version 1'],
    ['frame_index repeated', coco(doc({ images: [{ ...img, frame_index: 0 }, { ...img, id: 2, file_name: 'v/f1.jpg', frame_index: 0 }] })), 'annotations.json: images[1] has frame_index 0, as images[0] of the same video'],
  ];

  it.each(cases)('%s', async (_name, fn, message) => rejects(fn, message));

  it('deeply nested junk in an unknown field is a warning, not a crash', () => {
    const text = doc({}).replace('"images":[{', `"images":[{"junk":${nested(100000)},`);
    const { warnings } = importCoco(text, 'annotations.json');
    expect(warnings).toEqual(['annotations.json: images entries have unknown fields "junk" (ignored)']);
  });

  it('"__proto__" and "constructor" keys are data, never prototypes', () => {
    const text = '{"__proto__":{"polluted":1},"constructor":1,"images":[],"categories":[{"id":1,"name":"actionable"}],"annotations":[]}';
    const { warnings, clips } = importCoco(text, 'annotations.json');
    expect(clips).toEqual([]);
    expect(warnings).toEqual(['annotations.json: has unknown fields "__proto__", "constructor" (ignored)']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a required field inherited from Object.prototype does not count as present', async () => {
    await rejects(coco('{"images":[],"categories":[],"annotations":[],"toString":1}'.replace('"categories":[],', '')), 'annotations.json: categories is missing');
  });

  it('refuses JSON text over the size limit before parsing it', () => {
    expect(() => parseJsonText('{"a":"' + 'x'.repeat(2000) + '"}', 'big.json', 1000)).toThrow('big.json: is 0.0 MB; JSON files up to 0 MB are accepted');
  });
});

describe('hostile VISOR JSON', () => {
  const entry = (annotations: unknown[], image: object = { name: 'f1.jpg', video: 'v' }) => ({ image, annotations });
  const visor = (v: unknown) => () => importVisor(typeof v === 'string' ? v : JSON.stringify(v), 'v.json', { size: { width: 10, height: 10 } });
  const obj = (segments: unknown) => ({ name: 'actionable', segments });

  const cases: [string, () => unknown, string][] = [
    ['truncated', visor('{"video_annotations":[{"image":'), 'v.json: is not valid JSON ('],
    ['missing video_annotations', visor({ info: {} }), 'v.json: video_annotations is missing'],
    ['entry without image', visor({ video_annotations: [{ annotations: [] }] }), 'v.json: video_annotations[0].image is missing'],
    ['image name a number', visor({ video_annotations: [entry([], { name: 7 })] }), 'v.json: video_annotations[0].image.name must be a string, got number 7'],
    ['duplicate frame names', visor({ video_annotations: [entry([]), entry([], { name: 'F1.png', video: 'v' })] }), 'v.json: video_annotations[1].image.name "F1.png" names the same frame as video_annotations[0].image'],
    ['segments not an array', visor({ video_annotations: [entry([obj('x')])] }), 'v.json: video_annotations[0].annotations[0].segments must be an array, got string "x"'],
    ['point with three numbers', visor({ video_annotations: [entry([obj([[[1, 2, 3]]])])] }), 'v.json: video_annotations[0].annotations[0].segments[0][0] must be a point [x, y], got an array of length 3'],
    ['NaN coordinate', visor({ video_annotations: [entry([obj([[[1, 'NaN'], [2, 2], [3, 1]]])])] }), 'v.json: video_annotations[0].annotations[0].segments[0][0][1] must be a finite number, got string "NaN"'],
    ['Infinity coordinate', visor('{"video_annotations":[{"image":{"name":"a.jpg"},"annotations":[{"name":"x","segments":[[[1e999,1],[2,2],[3,1]]]}]}]}'), 'v.json: video_annotations[0].annotations[0].segments[0][0][0] must be a finite number, got number Infinity'],
    ['coordinate far outside', visor({ video_annotations: [entry([obj([[[1, 1], [5e6, 2], [3, 1]]])])] }), 'v.json: video_annotations[0].annotations[0].segments[0] is invalid: polygon coordinate 2 (5000000) is not a number within ±1000000'],
    ['object without name', visor({ video_annotations: [entry([{ segments: [] }])] }), 'v.json: video_annotations[0].annotations[0].name is missing'],
    ['deeply nested junk as a segment', visor(`{"video_annotations":[{"image":{"name":"a.jpg"},"annotations":[{"name":"x","segments":[${nested(100000)}]}]}]}`), 'v.json: video_annotations[0].annotations[0].segments[0][0] must be a point [x, y], got an array of length 1'],
    ['video name with a slash', visor({ video_annotations: [entry([], { name: 'a.jpg', video: 'a/b' })] }), 'v.json: video_annotations[0].image.video gives the video name "a/b", which contains a character not allowed'],
    ['negative size in info', () => importVisor(JSON.stringify({ info: { width: -1, height: 5 }, video_annotations: [] }), 'v.json'), 'v.json: info.width is -1; it must be between 1 and 8192'],
    ['huge size in info.details', () => importVisor(JSON.stringify({ info: { details: '99999x99999' }, video_annotations: [] }), 'v.json'), 'v.json: info.details width is 99999; it must be between 1 and 8192'],
  ];

  it.each(cases)('%s', async (_name, fn, message) => rejects(fn, message));
});

describe('hostile folders (WhereToChange, DAVIS)', () => {
  const clip = sampleClip();
  const wtcFiles = () => toVirtualFiles(exportWtc(clip, { frameImages: frameImages(clip) }));
  const replace = (files: ReturnType<typeof wtcFiles>, suffix: string, data: Uint8Array | string) =>
    files.map((f) => (f.path.endsWith(suffix) ? vf(f.path, data) : f));

  it('a truncated metadata file', async () => {
    await rejects(() => importWtc(replace(wtcFiles(), 'meta/v1.json', '{"version": 1, "fra'), 'x'), 'chopping_sweet_potato/meta/v1.json: is not valid JSON (');
  });

  it('metadata that is valid JSON of the wrong shape', async () => {
    await rejects(() => importWtc(replace(wtcFiles(), 'meta/v1.json', '[1, 2, 3]'), 'x'), 'chopping_sweet_potato/meta/v1.json: must be an object, got an array of length 3');
  });

  it('a truncated mask PNG', async () => {
    const png = exportWtc(clip)[0].data as Uint8Array;
    await rejects(() => importWtc(replace(wtcFiles(), 'masks/v1/frame0000.png', png.slice(0, 60)), 'x'), 'chopping_sweet_potato/gt/masks/v1/frame0000.png:');
  });

  it('a PNG whose header declares a huge size', async () => {
    const png = encodeIndexedPng(mapFromRows(['01']));
    const huge = png.slice();
    new DataView(huge.buffer).setUint32(16, 100000); // IHDR width; the CRC no longer matches either
    await rejects(() => importWtc(replace(wtcFiles(), 'masks/v1/frame0000.png', huge), 'x'), 'chopping_sweet_potato/gt/masks/v1/frame0000.png:');
  });

  it('a frame whose header declares a huge size (no metadata to give the size)', async () => {
    const files = [vf('c_x/JPEGImages_1fps/v/a.jpg', fakeJpeg(60000, 60000))];
    await rejects(() => importWtc(files, 'x'), 'c_x/JPEGImages_1fps/v/a.jpg: declares a size of 60000x60000; the limit is 1..8192 px per side');
  });

  it('duplicate frame names', async () => {
    const files = [...wtcFiles(), vf('chopping_sweet_potato/JPEGImages_2fps/v1/frame0000.png', fakeJpeg(24, 16))];
    await rejects(() => importWtc(files, 'x'), 'has two frames with the same name and different extensions');
  });

  it('two metadata files for one video', async () => {
    const files = wtcFiles();
    const meta = files.find((f) => f.path.endsWith('.json'))!;
    await rejects(() => importWtc([...files, { ...meta, path: `root/${meta.path}` }], 'x'), 'root/chopping_sweet_potato/meta/v1.json: duplicates the metadata file chopping_sweet_potato/meta/v1.json');
  });

  it('a truncated zip of an export', async () => {
    const files = exportWtc(clip, { frameImages: frameImages(clip) });
    const zip = zipSync(Object.fromEntries(files.map((f) => [f.path, f.data as Uint8Array])));
    await rejects(async () => importWtc(await readZip(new Blob([zip.slice(0, zip.length - 30)]), 'export.zip'), 'export.zip'), 'export.zip: is not a readable zip archive');
  });

  it('a DAVIS mask with an unknown palette index, and one that is not a PNG at all', async () => {
    const frame = vf('JPEGImages/v/0.jpg', fakeJpeg(2, 1));
    await rejects(() => importDavis([frame, vf('Annotations/v/0.png', encodeIndexedPng(mapFromRows(['04'])))], 'x'), 'Annotations/v/0.png: unknown label 4 at (x=1, y=0); allowed 0,1,2,255');
    await rejects(() => importDavis([frame, vf('Annotations/v/0.png', 'GIF89a not a png')], 'x'), 'Annotations/v/0.png:');
  });
});
