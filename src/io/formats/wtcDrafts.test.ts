import { describe, expect, it } from 'vitest';
import { decodeLayer, parseLayer } from '../../masks/layers';
import { exportWtc } from './wtc';
import { fakeJpeg, frameImages, maskBytes, sampleClip, toVirtualFiles, vf } from './testdata/fixtures';
import { encodeIndexedPng } from '../indexedPng';
import { wtcDrafts } from './wtcDrafts';

const ctx = { projectId: 'p1', author: 'ann' };

describe('the app WhereToChange import (through the format codec)', () => {
  it('carries what the metadata says: OSC, subset, fps, frame names, phases, ignores, reviewed, gt masks', async () => {
    const clip = sampleClip();
    clip.sources.delete('pred:model-a');
    const files = toVirtualFiles(exportWtc(clip, { frameImages: frameImages(clip) }), 'release');
    const { drafts, remarks } = await wtcDrafts(ctx, files, 'release');
    expect(remarks).toEqual([]);
    expect(drafts).toHaveLength(1);
    const d = drafts[0];
    expect(d.clip).toMatchObject({ name: 'v1', width: clip.clip.width, height: clip.clip.height, sampleFps: 2, frameCount: 5, subset: 'seen', status: 'in_progress' });
    expect(d.clip.osc).toEqual(clip.clip.osc);
    expect(d.clip.source).toEqual({ kind: 'wtc', fileName: 'chopping_sweet potato/v1' });
    expect(d.frames.map((f) => [f.name, f.timestampSec, f.phase ?? null, f.ignored?.reason ?? null, f.reviewed ?? false])).toEqual([
      ['frame0000', 0, 'initial', null, false],
      ['frame0001', 0.5, 'transitioning', 'too_blurry', false],
      ['frame0002', 1, null, null, true],
      ['frame0003', 1.5, 'end', null, false],
      ['frame0010', 5, 'end', 'not_visible', false],
    ]);
    const expected = maskBytes(clip);
    expect(d.layers?.map((l) => l.frameIndex)).toEqual([0, 1, 3, 4]);
    for (const l of d.layers ?? []) {
      expect(l.source).toBe('gt');
      expect(l.provenance).toMatchObject({ kind: 'imported', by: 'ann' });
      const map = decodeLayer(parseLayer({ act: l.act, trf: l.trf }));
      expect(Array.from(map.data)).toEqual(expected[l.frameIndex]);
    }
  });

  it('reads a mask that is all "ignore" (5) as an ignored frame, as the CLI does', async () => {
    const [w, h] = [4, 3];
    const all5 = { width: w, height: h, data: new Uint8Array(w * h).fill(5) };
    const files = [
      vf('r/peeling_banana/JPEGImages_1fps/vid/f1.jpg', fakeJpeg(w, h, 1)),
      vf('r/peeling_banana/JPEGImages_1fps/vid/f2.jpg', fakeJpeg(w, h, 2)),
      vf('r/peeling_banana/gt/masks/vid/f2.png', encodeIndexedPng(all5)),
    ];
    const { drafts } = await wtcDrafts(ctx, files, 'r');
    expect(drafts[0].frames[1].ignored).toMatchObject({ reason: 'other' });
    expect(drafts[0].layers).toEqual([]);
    expect(drafts[0].clip.osc.verb).toBe('peeling');
  });

  it('refuses frame images whose size differs from the masks, naming the image', async () => {
    const files = [
      vf('r/peeling_banana/JPEGImages_1fps/vid/f1.jpg', fakeJpeg(8, 6, 1)),
      vf('r/peeling_banana/gt/masks/vid/f1.png', encodeIndexedPng({ width: 4, height: 3, data: new Uint8Array(12) })),
    ];
    await expect(wtcDrafts(ctx, files, 'r')).rejects.toThrow(/f1\.(jpg|png)/);
  });

  it('refuses an export whose metadata names a prediction source', async () => {
    const clip = sampleClip();
    const files = toVirtualFiles(exportWtc(clip, { frameImages: frameImages(clip), source: 'pred:model-a' }), 'release');
    await expect(wtcDrafts(ctx, files, 'release')).rejects.toThrow('names a prediction source');
  });
});
