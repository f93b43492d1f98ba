import { describe, expect, it } from 'vitest';
import { hashFile, legacyVideoMismatch, recordedVideoMismatch, sourceVideoRef } from './keptVideo';

const bytes = (s: string) => new File([s], 'clip.mp4', { type: 'video/mp4' });

describe('linking a source video', () => {
  it('hashes the whole file (SHA-256 of "abc")', async () => {
    expect(await hashFile(bytes('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('accepts the recorded file and names a file of another size or content', async () => {
    const good = bytes('abcdef');
    const ref = sourceVideoRef(good, await hashFile(good), { nativeFps: 10, durationSec: 5, startSec: 0 });
    expect(recordedVideoMismatch(ref, good, await hashFile(good))).toBeNull();
    const longer = new File(['abcdefg'], 'other.mp4');
    expect(recordedVideoMismatch(ref, longer, null)).toMatch(/^other\.mp4 is not this clip's video: it has 7 bytes, the clip's video "clip\.mp4" had 6/);
    const same = new File(['abcdeF'], 'same-size.mp4');
    expect(recordedVideoMismatch(ref, same, await hashFile(same))).toMatch(/^same-size\.mp4 .*same size .*different contents/);
  });

  it('checks a clip imported before videos were kept by its duration, within one sample interval', () => {
    const clip = { sampleFps: 1, frameCount: 5, source: { kind: 'video' as const, fileName: 'v.mp4', durationSec: 5 } };
    const f = bytes('x');
    expect(legacyVideoMismatch(clip, f, 5.9)).toBeNull();
    expect(legacyVideoMismatch(clip, f, 4.1)).toBeNull();
    expect(legacyVideoMismatch(clip, f, 6.2)).toMatch(/lasts 6\.20 s, the clip 5\.00 s/);
    // No recorded duration: the span of the frames.
    expect(legacyVideoMismatch({ ...clip, sampleFps: 2, source: { kind: 'video', fileName: 'v.mp4' } }, f, 2.5)).toBeNull();
  });
});
