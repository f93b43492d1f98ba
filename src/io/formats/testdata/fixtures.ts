/**
 * Test helpers for the format codecs: a clip exercising every field of the model, conversions
 * between exported files and VirtualFiles, and a deep comparison of two ClipAnnotations that
 * compares masks as label maps (so LabelMap vs RLE representations compare equal). Test-only.
 */
import { expect } from 'vitest';
import { encodeLayer } from '../../../masks/layers';
import type { LabelMap } from '../../../masks/labelMap';
import type { VirtualFile } from '../../files/virtualFile';
import { frameLabelMap, type ClipAnnotations, type FrameImage, type FrameMask, type OutFile } from '../model';

/** A label map from rows of digits ("0012"). */
export function mapFromRows(rows: readonly string[]): LabelMap {
  return { width: rows[0].length, height: rows.length, data: Uint8Array.from(rows.join(''), (c) => Number(c)) };
}

/** A label map w x h with value(x, y) at each pixel. */
export function mapOf(w: number, h: number, value: (x: number, y: number) => number): LabelMap {
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = value(x, y);
  return { width: w, height: h, data };
}

export const W = 24;
export const H = 16;

/** Actionable block, transformed ring with a hole, a diagonal staircase: shapes with holes and corner contacts. */
export function shapes(seed: number): LabelMap {
  return mapOf(W, H, (x, y) => {
    if (x >= 1 && x <= 6 && y >= 2 && y <= 9) return 1;
    const dx = x - 15;
    const dy = y - 8;
    const d2 = dx * dx + dy * dy;
    if (d2 <= 25 && d2 > 4) return 2;
    if (x + y === 20 + (seed % 3) && x > 18) return 1;
    if ((x * 7 + y * 13 + seed) % 11 === 0 && y > 12) return 2;
    return 0;
  });
}

/**
 * Two clips' worth of model: every optional field used somewhere, masks given both as label maps
 * and as RLE layers, an unannotated frame, an empty annotated frame, an ignored frame, a prediction source.
 */
export function sampleClip(name = 'v1'): ClipAnnotations {
  return {
    clip: {
      name,
      width: W,
      height: H,
      fps: 2,
      osc: { verb: 'chopping', noun: 'sweet potato', actionable: 'whole sweet potato', transformed: 'chopped sweet potato pieces' },
      subset: 'seen',
    },
    frames: [
      { name: 'frame0000', timestampSec: 0, phase: 'initial' },
      { name: 'frame0001', timestampSec: 0.5, phase: 'transitioning', ignored: { reason: 'too_blurry', note: 'motion blur', by: 'ann', at: 1700000000000 } },
      { name: 'frame0002', timestampSec: 1, reviewed: true },
      { name: 'frame0003', timestampSec: 1.5, phase: 'end' },
      { name: 'frame0010', timestampSec: 5, phase: 'end', ignored: { reason: 'not_visible' } },
    ],
    sources: new Map([
      [
        'gt',
        new Map<number, FrameMask>([
          [0, shapes(0)],
          [1, encodeLayer(shapes(1))],
          [3, mapOf(W, H, () => 0)],
          [4, shapes(4)],
        ]),
      ],
      ['pred:model-a', new Map<number, FrameMask>([[0, shapes(7)]])],
    ]),
  };
}

/** A JPEG header with only SOF0 (enough for header size readers; never decoded). */
export function fakeJpeg(w: number, h: number, tag = 0): Uint8Array {
  const b = new Uint8Array(40);
  b.set([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, h >> 8, h & 255, w >> 8, w & 255, 3]);
  b[39] = tag;
  return b;
}

export function frameImages(a: ClipAnnotations): FrameImage[] {
  return a.frames.map((_, k) => ({ data: fakeJpeg(a.clip.width, a.clip.height, k), mime: 'image/jpeg' }));
}

export function toVirtualFiles(files: readonly OutFile[], root = ''): VirtualFile[] {
  return files.map((f) => ({ path: root ? `${root}/${f.path}` : f.path, blob: f.data instanceof Blob ? f.data : new Blob([f.data as Uint8Array<ArrayBuffer>]) }));
}

export function vf(path: string, data: Uint8Array | string): VirtualFile {
  return { path, blob: new Blob([data as Uint8Array<ArrayBuffer>]) };
}

export function text(file: OutFile): string {
  if (file.data instanceof Blob) throw new Error('expected bytes');
  return new TextDecoder().decode(file.data);
}

/** One source's masks as {frame index: label map bytes}, for exact comparisons. */
export function maskBytes(a: ClipAnnotations, source = 'gt'): Record<number, number[]> {
  const out: Record<number, number[]> = {};
  const masks = a.sources.get(source as 'gt');
  if (!masks) return out;
  for (const [k, m] of [...masks].sort((x, y) => x[0] - y[0])) out[k] = Array.from(frameLabelMap(m, a.clip).data);
  return out;
}

/** Same clip metadata, frames and (for the listed sources) byte-identical label maps. */
export function expectSameClip(actual: ClipAnnotations, expected: ClipAnnotations, sources: readonly string[] = ['gt']): void {
  expect(actual.clip).toEqual(expected.clip);
  expect(actual.frames).toEqual(expected.frames);
  for (const s of sources) expect(maskBytes(actual, s)).toEqual(maskBytes(expected, s));
}
