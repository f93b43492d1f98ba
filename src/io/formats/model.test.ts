import { describe, expect, it } from 'vitest';
import { encodeLayer } from '../../masks/layers';
import { checkClipAnnotations, defaultFrameName, frameLabelMap, frameLayer, imageExtension, pathSegmentProblem } from './model';
import { mapFromRows, sampleClip } from './testdata/fixtures';

describe('model', () => {
  it('accepts the sample clip', () => {
    expect(() => checkClipAnnotations(sampleClip())).not.toThrow();
  });

  it.each([
    [(c: ReturnType<typeof sampleClip>) => (c.clip.width = 0), 'clip "v1": size 0x16 is not positive integers'],
    [(c: ReturnType<typeof sampleClip>) => (c.clip.fps = NaN), 'clip "v1": fps NaN must be a positive number'],
    [(c: ReturnType<typeof sampleClip>) => (c.clip.name = '..'), 'clip "..": the clip name is "." or ".."'],
    [(c: ReturnType<typeof sampleClip>) => (c.frames[1].timestampSec = Infinity), 'clip "v1", frame 1: timestamp Infinity is not a finite number'],
    [(c: ReturnType<typeof sampleClip>) => (c.frames[1].phase = 'late' as never), 'clip "v1", frame 1: unknown phase "late"'],
    [(c: ReturnType<typeof sampleClip>) => (c.frames[1].ignored = { reason: 'bored' as never }), 'clip "v1", frame 1: unknown ignore reason "bored"'],
    [(c: ReturnType<typeof sampleClip>) => c.sources.get('gt')!.set(9, mapFromRows(['0'])), 'clip "v1": source gt has masks for frame 9, but the clip has 5 frames'],
    [(c: ReturnType<typeof sampleClip>) => c.sources.set('mine' as never, new Map()), 'clip "v1": unknown source "mine"'],
  ] as [(c: ReturnType<typeof sampleClip>) => unknown, string][])('%#: %s', (edit, message) => {
    const clip = sampleClip();
    edit(clip);
    expect(() => checkClipAnnotations(clip)).toThrow(message);
  });

  it('names path-unsafe names', () => {
    expect(pathSegmentProblem('frame0001')).toBeNull();
    expect(pathSegmentProblem('P01_01_frame_0000000140')).toBeNull();
    for (const bad of ['', 'a/b', 'a\\b', 'c:', 'x\u0000', ' x', 'x.', 'a'.repeat(201)]) expect(pathSegmentProblem(bad)).not.toBeNull();
  });

  it('converts masks both ways and checks their size', () => {
    const map = mapFromRows(['012', '210']);
    const layer = encodeLayer(map);
    expect(frameLabelMap(layer, map)).toEqual(map);
    expect(frameLayer(map, map)).toEqual(layer);
    expect(() => frameLayer(layer, { width: 2, height: 3 })).toThrow('layer masks are 3x2 and 3x2; the clip is 2x3');
    expect(() => frameLabelMap(map, { width: 2, height: 3 })).toThrow('label map is 3x2; the clip is 2x3');
    expect(() => frameLayer(mapFromRows(['4']), { width: 1, height: 1 })).toThrow('a layer stores only 0, 1 and 2');
  });

  it('names frames and image extensions', () => {
    expect(defaultFrameName(7)).toBe('frame0007');
    expect(defaultFrameName(12345)).toBe('frame12345');
    expect(imageExtension('image/png')).toBe('png');
    expect(imageExtension(undefined)).toBe('jpg');
  });
});
