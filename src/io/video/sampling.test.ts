import { describe, expect, it } from 'vitest';
import { sampledFrameCount, samplingTimestamps, validateSampleFps, TIMESTAMP_TOLERANCE_SEC } from './sampling';

describe('video sampling', () => {
  it('takes frames at k/fps for k/fps < duration', () => {
    expect(sampledFrameCount(60, 1)).toBe(60);
    expect(sampledFrameCount(60, 5)).toBe(300);
    expect(sampledFrameCount(2.5, 1)).toBe(3); // 0, 1, 2
    expect(sampledFrameCount(0.3 * 3, 10)).toBe(9); // float noise: 0.8999999 * 10
    expect(sampledFrameCount(0, 1)).toBe(0);
    expect(sampledFrameCount(Number.NaN, 1)).toBe(0);
  });

  it('offsets by the first timestamp and a sub-frame tolerance', () => {
    const ts = samplingTimestamps(0.04, 3, 1);
    expect(ts).toHaveLength(3);
    ts.forEach((t, k) => expect(t).toBeCloseTo(0.04 + k + TIMESTAMP_TOLERANCE_SEC, 12));
  });

  it('rejects absurd rates', () => {
    expect(validateSampleFps(1)).toBeNull();
    expect(validateSampleFps(0)).toMatch(/outside/);
    expect(validateSampleFps(Number.POSITIVE_INFINITY)).toMatch(/outside/);
  });
});
