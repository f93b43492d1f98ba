import { describe, expect, it } from 'vitest';
import { clipTime, nativeTimesBetween, thinEvenly } from './betweenFrames';

/** Frame times of a `fps` video of `n` frames starting at `start`, as a muxer with a 1/90000 time base writes them. */
function frameTimes(n: number, fps: number, start = 0): number[] {
  return Array.from({ length: n }, (_, i) => start + Math.round((i / fps) * 90000) / 90000);
}

describe('nativeTimesBetween', () => {
  it('gives the 9 frames of a 10 fps video between two 1 fps samples, not the samples themselves', () => {
    const t = frameTimes(50, 10);
    const between = nativeTimesBetween(t, 0, 1, 2);
    expect(between.map((s) => Math.round(s * 10))).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19]);
  });

  it('counts from the video start when its first frame is not at 0', () => {
    const t = frameTimes(50, 10, 0.0667);
    expect(nativeTimesBetween(t, 0.0667, 0, 1).map((s) => Math.round((s - 0.0667) * 10))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('excludes the frame shown at the later sample when the sample falls between two native frames', () => {
    // 30000/1001 fps sampled at 1 fps: t=1 s shows the frame at 0.967 s (frame 29), so 1..28 are between 0 and 1.
    const t = frameTimes(90, 30000 / 1001);
    const between = nativeTimesBetween(t, 0, 0, 1);
    expect(between).toHaveLength(28);
    expect(between[0]).toBeCloseTo(1001 / 30000, 4);
    expect(between[27]).toBeCloseTo((28 * 1001) / 30000, 4);
  });

  it('accepts packets in decode order (B-frames) and repeated times', () => {
    const t = frameTimes(20, 10);
    const decodeOrder = [t[0], t[3], t[1], t[2], t[6], t[4], t[5], t[5], ...t.slice(7)];
    expect(nativeTimesBetween(decodeOrder, 0, 0, 0.5)).toEqual([t[1], t[2], t[3], t[4]]);
  });

  it('is empty for adjacent native frames and for a backwards range', () => {
    const t = frameTimes(20, 10);
    expect(nativeTimesBetween(t, 0, 0.3, 0.4)).toEqual([]);
    expect(nativeTimesBetween(t, 0, 1, 0.5)).toEqual([]);
  });
});

describe('thinEvenly', () => {
  const nine = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  it('keeps everything without a max or with a max at least the count', () => {
    expect(thinEvenly(nine)).toEqual(nine);
    expect(thinEvenly(nine, 9)).toEqual(nine);
    expect(thinEvenly(nine, 20)).toEqual(nine);
  });
  it('spreads the kept items over the whole gap, in order', () => {
    expect(thinEvenly(nine, 3)).toEqual([2, 5, 8]);
    expect(thinEvenly(nine, 1)).toEqual([5]);
    expect(thinEvenly(Array.from({ length: 29 }, (_, i) => i), 5)).toEqual([2, 8, 14, 20, 26]);
  });
  it('keeps nothing for a max of 0', () => {
    expect(thinEvenly(nine, 0)).toEqual([]);
  });
});

describe('clipTime', () => {
  it('measures from the first frame, to the microsecond', () => {
    expect(clipTime(1.0667, 0.0667)).toBe(1);
  });
});
