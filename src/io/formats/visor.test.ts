import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRle } from '../../masks/rle';
import { maskOfSizeArb } from '../../masks/testdata/naive';
import type { ClipAnnotations, LayerMasks } from './model';
import { expectSameClip, mapFromRows, maskBytes, sampleClip, text } from './testdata/fixtures';
import { exportVisor, exportVisorFile, importVisor } from './visor';

function oneFrame(rows: string[]): ClipAnnotations {
  const m = mapFromRows(rows);
  return {
    clip: { name: 'P01_01', width: m.width, height: m.height, fps: 1 },
    frames: [{ name: 'P01_01_frame_0000000001', timestampSec: 0 }],
    sources: new Map([['gt', new Map([[0, m]])]]),
  };
}

describe('VISOR export', () => {
  it('writes VISOR sparse structure: one entry per frame, one named object per state, pixel-corner polygons', () => {
    const doc = exportVisor(oneFrame(['0110', '0122', '0000']));
    expect(doc).toEqual({
      info: { description: 'SPOC Studio export', width: 4, height: 3 },
      video_annotations: [
        {
          image: { name: 'P01_01_frame_0000000001.jpg', video: 'P01_01', image_path: 'P01_01/P01_01_frame_0000000001.jpg' },
          annotations: [
            {
              id: 'P01_01/P01_01_frame_0000000001/actionable',
              name: 'actionable',
              class_id: 1,
              exhaustive: 1,
              segments: [
                [
                  [1, 0],
                  [3, 0],
                  [3, 1],
                  [2, 1],
                  [2, 2],
                  [1, 2],
                ],
              ],
            },
            {
              id: 'P01_01/P01_01_frame_0000000001/transformed',
              name: 'transformed',
              class_id: 2,
              exhaustive: 1,
              segments: [
                [
                  [2, 1],
                  [4, 1],
                  [4, 2],
                  [2, 2],
                ],
              ],
            },
          ],
        },
      ],
    });
  });

  it('writes holes as separate (anticlockwise) segments and names states as asked', () => {
    const doc = exportVisor(oneFrame(['111', '101', '111']), { names: { actionable: 'onion' } });
    const obj = doc.video_annotations[0].annotations[0];
    expect(obj.name).toBe('onion');
    expect(obj.segments).toEqual([
      [
        [0, 0],
        [3, 0],
        [3, 3],
        [0, 3],
      ],
      [
        [1, 1],
        [1, 2],
        [2, 2],
        [2, 1],
      ],
    ]);
    const back = importVisor(JSON.stringify(doc), 'P01_01.json', { names: { actionable: ['Onion'], transformed: [] } });
    expect(maskBytes(back.clips[0].annotations)).toEqual({ 0: [1, 1, 1, 1, 0, 1, 1, 1, 1] });
  });
});

describe('VISOR round trip', () => {
  it('export -> import: identical label maps, frame names, video name and size', () => {
    const clip = sampleClip();
    const { clips, warnings } = importVisor(text(exportVisorFile(clip)), 'v1.json', { fps: 2 });
    expect(warnings).toEqual([]);
    const a = clips[0].annotations;
    expect(a.clip).toEqual({ name: 'v1', width: 24, height: 16, fps: 2 });
    expect(a.frames.map((f) => f.name)).toEqual(clip.frames.map((f) => f.name));
    expect(maskBytes(a)).toEqual(maskBytes(clip));
  });

  it('is lossless where VISOR can carry it', () => {
    const clip = sampleClip();
    clip.clip.fps = 1;
    delete clip.clip.osc;
    delete clip.clip.subset;
    clip.frames = clip.frames.map((f, k) => ({ name: f.name, timestampSec: k }));
    expectSameClip(importVisor(text(exportVisorFile(clip)), 'v1.json').clips[0].annotations, clip);
  });

  it('reproduces any label map exactly (property: random maps of 0, 1, 2)', () => {
    const arb = fc
      .record({ h: fc.integer({ min: 1, max: 20 }), w: fc.integer({ min: 1, max: 20 }) })
      .chain(({ h, w }) => maskOfSizeArb(h, w, [0, 1, 2]).map((data) => ({ width: w, height: h, data })));
    fc.assert(
      fc.property(arb, (m) => {
        const clip: ClipAnnotations = {
          clip: { name: 'v', width: m.width, height: m.height, fps: 1 },
          frames: [{ name: 'f', timestampSec: 0 }],
          sources: new Map([['gt', new Map([[0, m]])]]),
        };
        const back = importVisor(JSON.stringify(exportVisor(clip)), 'v.json', { overlap: 'error' }).clips[0].annotations;
        expect(maskBytes(back)[0]).toEqual(Array.from(m.data));
      }),
      { numRuns: 300 },
    );
  });
});

describe('VISOR import of foreign files', () => {
  const visorFile = {
    video_annotations: [
      {
        image: { name: 'P01_01_frame_0000000140.jpg', video: 'P01_01', image_path: 'P01_01/Part_001/P01_01_frame_0000000140.jpg', subsequence: 'P01_01_Part_001' },
        annotations: [
          { id: 'a1', name: 'left hand', class_id: 300, exhaustive: 1, in_contact_object: 'a2', segments: [[[0, 0], [10, 0], [10, 10]]] },
          { id: 'a2', name: 'onion', class_id: 12, exhaustive: 1, segments: [[[0, 0], [20, 0], [20, 10], [0, 10]]] },
          { id: 'a3', name: 'onion slices', class_id: 99, exhaustive: 1, segments: [[[20, 0], [40, 0], [40, 20], [20, 20]], []] },
        ],
      },
    ],
  };

  it('maps object names to states, skips the rest with a warning, scales 1920x1080-style coordinates', () => {
    const result = importVisor(JSON.stringify(visorFile), 'P01_01.json', {
      names: { actionable: ['onion'], transformed: ['onion slices'] },
      size: { width: 4, height: 2 },
      coordinateSize: { width: 40, height: 20 },
    });
    const a = result.clips[0].annotations;
    expect(a.clip).toEqual({ name: 'P01_01', width: 4, height: 2, fps: 1 });
    expect(a.frames).toEqual([{ name: 'P01_01_frame_0000000140', timestampSec: 0 }]);
    expect(maskBytes(a)).toEqual({ 0: [1, 1, 2, 2, 0, 0, 2, 2] });
    expect(result.warnings).toEqual(['P01_01.json: objects not mapped to a state were skipped: "left hand" (1)']);
  });

  it('takes the size from info.details ("WxH", as VISOR dense files) or asks for it', () => {
    const withDetails = { info: { details: 'Resolution: 40x20, fps 50' }, ...visorFile };
    const a = importVisor(JSON.stringify(withDetails), 'P01_01.json', { names: { actionable: ['onion'], transformed: [] } }).clips[0].annotations;
    expect(a.clip.width).toBe(40);
    const layer = a.sources.get('gt')!.get(0) as LayerMasks;
    expect(decodeRle(layer.act).reduce((s, v) => s + v, 0)).toBe(200);
    expect(() => importVisor(JSON.stringify(visorFile), 'P01_01.json')).toThrow(
      'P01_01.json: does not give the frame size (info.width/height or "WxH" in info.details); pass the size option',
    );
  });

  it('refuses a name mapped to both states', () => {
    expect(() => importVisor(JSON.stringify(visorFile), 'x.json', { size: { width: 4, height: 2 }, names: { actionable: ['a'], transformed: ['A'] } })).toThrow(
      'the object name "A" is mapped to both states',
    );
  });
});
