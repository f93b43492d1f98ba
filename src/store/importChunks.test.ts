import { describe, expect, it } from 'vitest';
import { IMPORT_CHUNK_LIMITS, fitsOneChunk, planChunks } from './importChunks';

const MB = 1024 * 1024;

describe('planChunks', () => {
  it('cuts a 600-frame, 40 MB video import into chunks of at most 32 frames and 8 MB', () => {
    const sizes = Array.from({ length: 600 }, () => Math.round((40 * MB) / 600));
    const chunks = planChunks([sizes], IMPORT_CHUNK_LIMITS);
    expect(chunks.length).toBe(Math.ceil(600 / 32));
    for (const c of chunks) {
      expect(c.to - c.from).toBeLessThanOrEqual(32);
      expect(sizes.slice(c.from, c.to).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(8 * MB);
    }
    // Consecutive and complete: every frame exactly once, in order.
    expect(chunks.map((c) => [c.from, c.to]).flat()).toEqual([0, ...chunks.slice(0, -1).flatMap((c) => [c.to, c.to]), 600]);
  });

  it('closes a chunk by bytes before frames when images are large', () => {
    expect(planChunks([[3, 3, 3, 3, 3]], { maxFrames: 10, maxBytes: 7 })).toEqual([
      { clip: 0, from: 0, to: 2 },
      { clip: 0, from: 2, to: 4 },
      { clip: 0, from: 4, to: 5 },
    ]);
  });

  it('gives a frame larger than the byte bound a chunk of its own', () => {
    expect(planChunks([[1, 50, 1]], { maxFrames: 10, maxBytes: 10 })).toEqual([
      { clip: 0, from: 0, to: 1 },
      { clip: 0, from: 1, to: 2 },
      { clip: 0, from: 2, to: 3 },
    ]);
  });

  it('never lets a chunk span two clips', () => {
    expect(planChunks([[1, 1, 1], [1], [1, 1]], { maxFrames: 2, maxBytes: 100 })).toEqual([
      { clip: 0, from: 0, to: 2 },
      { clip: 0, from: 2, to: 3 },
      { clip: 1, from: 0, to: 1 },
      { clip: 2, from: 0, to: 2 },
    ]);
  });
});

describe('fitsOneChunk', () => {
  it('counts frames and bytes over the whole batch', () => {
    expect(fitsOneChunk([[1, 1], [1]], { maxFrames: 3, maxBytes: 3 })).toBe(true);
    expect(fitsOneChunk([[1, 1], [1, 1]], { maxFrames: 3, maxBytes: 100 })).toBe(false);
    expect(fitsOneChunk([[2, 2]], { maxFrames: 3, maxBytes: 3 })).toBe(false);
  });
});
