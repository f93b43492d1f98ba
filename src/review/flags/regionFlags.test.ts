import { describe, expect, it } from 'vitest';
import { draw, rects } from '../../testing/review';
import { enclosedFlags, holeFlags, regionFlags, speckFlags } from './regionFlags';

describe('speck', () => {
  it('flags a component of a state smaller than speck.maxArea, with its box', () => {
    const map = draw([
      '..........',
      '.aaaa.....',
      '.aaaa...a.',
      '.aaaa.....',
      '..........',
    ]);
    const flags = speckFlags(map, 3, { speck: { maxArea: 4 } });
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ kind: 'speck', frameIndex: 3, state: 1, pixels: 1, severity: 'warning', box: { x: 8, y: 2, w: 1, h: 1 } });
    expect(flags[0].message).toMatch(/^Speck of actionable on frame 4: 1 px/);
  });

  it('does not flag components at or above the size, and joins diagonal pixels (8-connected)', () => {
    const map = draw([
      '.......',
      '.t.....',
      '..t....',
      '...t...',
      '....t..',
      '.......',
    ]);
    expect(speckFlags(map, 0, { speck: { maxArea: 4 } })).toEqual([]);
    expect(speckFlags(map, 0, { speck: { maxArea: 5 } })).toHaveLength(1);
  });

  it('summarises specks beyond maxPerFrame in one flag', () => {
    const map = draw(['a.a.a.a.a', '.........', 'aaaaaaaaa']);
    const flags = speckFlags(map, 0, { speck: { maxArea: 2 }, maxPerFrame: 2 });
    expect(flags).toHaveLength(3);
    expect(flags[2].message).toMatch(/and 3 more specks of actionable \(3 px in all\) on frame 1\.$/);
    expect(flags[2].box).toEqual({ x: 4, y: 0, w: 5, h: 1 });
    expect(new Set(flags.map((f) => f.id)).size).toBe(3);
  });
});

describe('hole', () => {
  it('flags a small background component enclosed by a state', () => {
    const map = draw([
      '.......',
      '.ttttt.',
      '.tt.tt.',
      '.ttttt.',
      '.......',
    ]);
    const flags = holeFlags(map, 1, { hole: { maxArea: 3 } });
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ kind: 'hole', state: 2, pixels: 1, box: { x: 3, y: 2, w: 1, h: 1 } });
    expect(flags[0].message).toMatch(/^Hole of 1 px in transformed on frame 2 /);
  });

  it('names both states for a hole between them', () => {
    const map = draw(['.....', '.aat.', '.a.t.', '.att.', '.....']);
    const [flag] = holeFlags(map, 0);
    expect(flag.state).toBeUndefined();
    expect(flag.message).toMatch(/between actionable and transformed/);
  });

  it('does not flag background touching the border, large holes, or gaps leaking through a diagonal', () => {
    // Open to the border on the right.
    expect(holeFlags(draw(['.....', '.aaaa', '.a...', '.aaaa', '.....']), 0)).toEqual([]);
    // A 9 px hole with maxArea 9.
    expect(holeFlags(rects(7, 7, 0, [1, 1, 1, 5, 5], [0, 2, 2, 3, 3]), 0, { hole: { maxArea: 9 } })).toEqual([]);
    // Corners touching only diagonally close a hole (8-connected object, 4-connected background).
    const diamond = draw(['.....', '..a..', '.a.a.', '..a..', '.....']);
    expect(holeFlags(diamond, 0)).toHaveLength(1);
  });
});

describe('enclosed (wrong state)', () => {
  it('flags a small region of one state entirely inside the other', () => {
    const map = rects(12, 10, 0, [2, 1, 1, 10, 8], [1, 5, 4, 2, 2]);
    const flags = enclosedFlags(map, 2, { enclosed: { maxArea: 10 } });
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ kind: 'enclosed', frameIndex: 2, state: 1, pixels: 4, box: { x: 5, y: 4, w: 2, h: 2 } });
    expect(flags[0].message).toMatch(/Actionable region of 4 px on frame \d+ lies entirely inside transformed/);
    // Reported as enclosed, not also as a speck.
    expect(regionFlags(map, 2, { enclosed: { maxArea: 10 }, speck: { maxArea: 10 } }).map((f) => f.kind)).toEqual(['enclosed']);
  });

  it('does not flag an island that touches background, the border, or is large', () => {
    // Touches background on its right.
    expect(enclosedFlags(rects(12, 10, 0, [2, 1, 1, 6, 8], [1, 6, 4, 2, 2]), 0)).toEqual([]);
    // Touches the image border.
    expect(enclosedFlags(rects(8, 8, 2, [1, 0, 3, 2, 2]), 0)).toEqual([]);
    // 16 px with maxArea 16.
    expect(enclosedFlags(rects(12, 12, 2, [1, 4, 4, 4, 4]), 0, { enclosed: { maxArea: 16 } })).toEqual([]);
    // A plain object, no islands.
    expect(enclosedFlags(rects(12, 10, 0, [1, 1, 1, 5, 5], [2, 6, 1, 5, 5]), 0)).toEqual([]);
  });
});
