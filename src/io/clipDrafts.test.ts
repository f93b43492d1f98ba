import { describe, expect, it } from 'vitest';
import { namedFrames } from './clipDrafts';

const frame = (k: number) => ({ timestampSec: k, image: new Blob([]), mime: 'image/jpeg' });

describe('namedFrames', () => {
  it('names frames after their file stems', () => {
    const out = namedFrames([frame(0), frame(1)], [{ path: 'v1/frame0001.jpg' }, { path: 'v1/frame0002.jpg' }]);
    expect(out.map((f) => f.name)).toEqual(['frame0001', 'frame0002']);
  });

  it('names none when any stem cannot be a name (they would fall back to positions and could collide)', () => {
    const out = namedFrames([frame(0), frame(1)], [{ path: 'v1/frame0001.jpg' }, { path: 'v1/ b.jpg' }]);
    expect(out.map((f) => f.name)).toEqual([undefined, undefined]);
    const dup = namedFrames([frame(0), frame(1)], [{ path: 'a/X.jpg' }, { path: 'a/x.png' }]);
    expect(dup.map((f) => f.name)).toEqual([undefined, undefined]);
  });
});
