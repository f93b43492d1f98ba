import { describe, expect, it } from 'vitest';
import { isRepeatedFrame, nativeFrameRate, ownTimestamp, planSampling, sampledFrameCount, samplingTimestamps, validateSampleFps, TIMESTAMP_TOLERANCE_SEC } from './sampling';

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

  it('measures the native rate, snapping to the standard NTSC fractions', () => {
    expect(nativeFrameRate(29.9700299)).toBe(30000 / 1001);
    expect(nativeFrameRate(29.969)).toBe(30000 / 1001);
    expect(nativeFrameRate(25.0001)).toBe(25);
    expect(nativeFrameRate(10)).toBe(10);
    expect(nativeFrameRate(12.3456)).toBe(12.346);
    expect(nativeFrameRate(0)).toBeNull();
    expect(nativeFrameRate(Number.NaN)).toBeNull();
  });

  it('never samples above the native rate: 60 fps on a 29.97 fps clip takes every frame once, at 29.97, and says so', () => {
    const native = nativeFrameRate(29.97)!;
    const plan = planSampling(60, native, 'dog.mp4');
    expect(plan).toMatchObject({ fps: native, everyFrame: true });
    expect(plan.remark).toBe(
      "dog.mp4: sampled at 29.97 fps, the video's own frame rate, instead of the 60 fps asked for: a higher rate would only repeat frames. Every frame of the video was taken once.",
    );
    // 9.75 s of video: 585 samples at 60 fps (most frames twice); the video has 293 frames.
    expect(sampledFrameCount(9.75, 60)).toBe(585);
    expect(sampledFrameCount(9.75, plan.fps)).toBe(293);
  });

  it('takes every frame without a remark at the native rate, and keeps lower rates as asked', () => {
    expect(planSampling(29.97, 30000 / 1001, 'a.mp4')).toEqual({ fps: 30000 / 1001, everyFrame: true, remark: null });
    expect(planSampling(30, 30000 / 1001, 'a.mp4').remark).toMatch(/sampled at 29.97 fps/);
    expect(planSampling(5, 30000 / 1001, 'a.mp4')).toEqual({ fps: 5, everyFrame: false, remark: null });
    expect(planSampling(60, null, 'a.mp4')).toEqual({ fps: 60, everyFrame: false, remark: null });
  });

  it('takes a frame once when two samples land on it, and stamps frames taken as they are with their own time', () => {
    expect(isRepeatedFrame(null, 0)).toBe(false);
    expect(isRepeatedFrame(0.033, 0.033)).toBe(true);
    expect(isRepeatedFrame(0.033, 0.067)).toBe(false);
    expect(ownTimestamp(0.1 + 1001 / 30000, 0.1)).toBe(0.033367);
    expect(ownTimestamp(0.04, 0.04)).toBe(0);
  });
});
