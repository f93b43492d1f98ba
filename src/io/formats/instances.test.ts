/**
 * Instance tags through every format that has objects (COCO annotations, VISOR entities) and through
 * WhereToChange's metadata file, round trip by round trip; DAVIS cannot carry them (its PNG index is
 * the state) and says nothing. The masks a plain reader sees (the union per state) never change.
 */
import { describe, expect, it } from 'vitest';
import { decodeRle, parseCocoRle } from '../../masks/rle';
import { exportCoco } from './cocoExport';
import { importCoco } from './cocoImport';
import { exportDavis, importDavis } from './davis';
import { splitInstances } from './instanceRegions';
import { annotationsFromStore, storeRowsFromAnnotations } from './storeRows';
import { exportVisor, importVisor } from './visor';
import { exportWtc, importWtc } from './wtc';
import { maskBytes, mapFromRows, text, toVirtualFiles } from './testdata/fixtures';
import type { ClipAnnotations } from './model';

// Two actionable objects (left and right), one transformed (middle bottom), as painted.
const ROWS = ['11000011', '11000011', '00022000', '00022000'];
const map = () => mapFromRows(ROWS);
const TAGS = [
  { id: 1, x: 0, y: 0 }, // left actionable object
  { id: 2, x: 3, y: 3 }, // the transformed one
  { id: 7, x: 4, y: 0 }, // stale: on background, names nothing
];

function tagged(): ClipAnnotations {
  return {
    clip: { name: 'v', width: 8, height: 4, fps: 1, osc: { verb: 'peeling', noun: 'apple', actionable: 'a', transformed: 't' } },
    frames: [{ name: 'f0', timestampSec: 0 }, { name: 'f1', timestampSec: 1 }],
    sources: new Map([['gt', new Map([[0, map()], [1, map()]])]]),
    instances: new Map([['gt', new Map([[0, TAGS]])]]),
  };
}

const usable = [TAGS[0], TAGS[1]];

describe('instance regions', () => {
  it('cuts tagged regions out of the frame; a stale tag, or a second tag on a taken region, names nothing', () => {
    const { parts, rest } = splitInstances(map(), [...TAGS, { id: 9, x: 1, y: 1 }]);
    expect(parts.map((p) => [p.tag.id, p.label, p.mask.reduce((a, b) => a + b, 0)])).toEqual([[1, 1, 4], [2, 2, 4]]);
    expect(Array.from(rest.data).join('')).toBe('00000011000000110000000000000000');
  });
});

describe('COCO', () => {
  it('writes one annotation per instance with instance_id and spoc_seed, the rest of each state as one more', () => {
    const ds = exportCoco([tagged()]);
    const frame0 = ds.annotations.filter((a) => a.image_id === 1);
    expect(frame0.map((a) => [a.category_id, a.instance_id ?? null, a.spoc_seed ?? null, a.area])).toEqual([
      [1, 1, [0, 0], 4],
      [2, 2, [3, 3], 4],
      [1, null, null, 4],
    ]);
    // The union per category is the painted state: a plain reader sees the same masks.
    const union = new Uint8Array(32);
    for (const a of frame0.filter((x) => x.category_id === 1)) decodeRle(parseCocoRle(a.segmentation)).forEach((v, i) => (union[i] |= v));
    expect(Array.from(union).join('')).toBe(ROWS.join('').replace(/2/g, '0'));
    // Frame 1 has no tags: one annotation per state, as always.
    expect(ds.annotations.filter((a) => a.image_id === 2).map((a) => [a.category_id, a.instance_id ?? null])).toEqual([[1, null], [2, null]]);
  });

  it('round trips the usable tags and the masks, and exports the result to the same bytes', () => {
    const first = JSON.stringify(exportCoco([tagged()]));
    const back = importCoco(first, 'a.json');
    expect(back.warnings).toEqual([]);
    const a = back.clips[0].annotations;
    expect(maskBytes(a)).toEqual(maskBytes(tagged()));
    expect(a.instances?.get('gt')).toEqual(new Map([[0, usable]]));
    expect(JSON.stringify(exportCoco([a]))).toBe(first);
  });

  it('seeds a foreign instance without spoc_seed at its first pixel, and warns about a repeated number', () => {
    const ds = exportCoco([tagged()]);
    const right = { ...ds.annotations[2], id: 99, instance_id: 4 };
    delete (right as { spoc_seed?: unknown }).spoc_seed;
    const again = { ...ds.annotations[0], id: 100 };
    const doc = { ...ds, annotations: [...ds.annotations.filter((a) => a.id !== 3), right, again] };
    const back = importCoco(JSON.stringify(doc), 'b.json');
    expect(back.clips[0].annotations.instances?.get('gt')?.get(0)).toEqual([...usable, { id: 4, x: 6, y: 0 }]);
    expect(back.warnings).toEqual(['b.json: annotations[5] repeats instance_id 1 on its frame; the first object with it was kept as the instance']);
  });

  it('refuses a seed outside the image and a seed without a number, naming the annotation', () => {
    const ds = exportCoco([tagged()]);
    const bad = (edit: (a: Record<string, unknown>) => void) => {
      const doc = JSON.parse(JSON.stringify(ds)) as { annotations: Record<string, unknown>[] };
      edit(doc.annotations[0]);
      return () => importCoco(JSON.stringify(doc), 'c.json');
    };
    expect(bad((a) => (a.spoc_seed = [8, 0]))).toThrow('c.json: annotations[0].spoc_seed[0]');
    expect(bad((a) => delete a.instance_id)).toThrow('c.json: annotations[0].spoc_seed is given without instance_id');
  });
});

describe('VISOR', () => {
  it('writes each instance as its own entity and reads the tags back, masks unchanged', () => {
    const doc = exportVisor(tagged());
    expect(doc.video_annotations[0].annotations.map((o) => [o.id, o.name, o.instance_id ?? null])).toEqual([
      ['v/f0/actionable#1', 'actionable', 1],
      ['v/f0/transformed#2', 'transformed', 2],
      ['v/f0/actionable', 'actionable', null],
    ]);
    const back = importVisor(JSON.stringify(doc), 'v.json');
    expect(back.warnings).toEqual([]);
    expect(maskBytes(back.clips[0].annotations)).toEqual(maskBytes(tagged()));
    expect(back.clips[0].annotations.instances?.get('gt')).toEqual(new Map([[0, usable]]));
  });
});

describe('WhereToChange', () => {
  it('keeps the usable tags in the metadata file (frames[].instances) and reads them back', async () => {
    const files = exportWtc(tagged());
    const meta = JSON.parse(text(files.find((f) => f.path.endsWith('meta/v.json'))!));
    expect(meta.frames[0].instances).toEqual(usable);
    expect(meta.frames[1].instances).toBeUndefined();
    const back = await importWtc(toVirtualFiles([...files, { path: 'peeling_apple/JPEGImages_1fps/v/f0.jpg', data: new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0, 17, 8, 0, 4, 0, 8, 3]) }, { path: 'peeling_apple/JPEGImages_1fps/v/f1.jpg', data: new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0, 17, 8, 0, 4, 0, 8, 3]) }]), 'x');
    expect(back.warnings).toEqual([]);
    expect(back.clips[0].annotations.instances?.get('gt')).toEqual(new Map([[0, usable]]));
  });
});

describe('WhereToChange, a stale tag in the metadata', () => {
  it('is dropped with a warning naming the file and the frame', async () => {
    const files = exportWtc(tagged()).map((f) => {
      if (!f.path.endsWith('meta/v.json')) return f;
      const meta = JSON.parse(text(f));
      meta.frames[1].instances = [{ id: 5, x: 4, y: 0 }];
      return { ...f, data: new TextEncoder().encode(JSON.stringify(meta)) };
    });
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0, 17, 8, 0, 4, 0, 8, 3]);
    const back = await importWtc(toVirtualFiles([...files, { path: 'peeling_apple/JPEGImages_1fps/v/f0.jpg', data: jpeg }, { path: 'peeling_apple/JPEGImages_1fps/v/f1.jpg', data: jpeg }]), 'x');
    expect(back.warnings).toEqual(["peeling_apple/meta/v.json: frames[1].instances: 1 tag(s) not on a painted pixel of f1's mask were dropped"]);
    expect(back.clips[0].annotations.instances?.get('gt')).toEqual(new Map([[0, usable]]));
  });
});

describe('DAVIS', () => {
  it('cannot carry tags: the masks go through, the tags do not', async () => {
    const files = exportDavis(tagged());
    const back = await importDavis(toVirtualFiles(files), 'd');
    expect(maskBytes(back.clips[0].annotations)).toEqual(maskBytes(tagged()));
    expect(back.clips[0].annotations.instances).toBeUndefined();
  });
});

describe('store rows', () => {
  it('carry the tags of each layer both ways', () => {
    const rows = storeRowsFromAnnotations(tagged(), 0);
    expect(rows.layers.map((l) => l.instances ?? null)).toEqual([{ tags: TAGS }, null]);
    const frames = rows.frames.map((f) => ({ ...f, clipId: 'c' }));
    const again = annotationsFromStore({ clip: { name: rows.clip.name, width: rows.clip.width, height: rows.clip.height, sampleFps: rows.clip.sampleFps, osc: tagged().clip.osc!, subset: 'seen' }, frames, layers: rows.layers });
    expect(again.instances).toEqual(tagged().instances);
  });
});
