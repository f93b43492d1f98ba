import { describe, expect, it } from 'vitest';
import type { MaskVideo } from './layout';
import { parseVideoMeta } from './meta';

const video: MaskVideo = {
  key: 'chopping_apple/v1',
  osc: 'chopping_apple',
  video: 'v1',
  pattern: '<osc>/gt/masks/<video>/',
  relDir: 'chopping_apple/gt/masks/v1',
  metaRel: 'chopping_apple/meta/v1.json',
  frames: ['frame1', 'frame2', 'frame10'].map((stem) => ({ stem, key: stem, rel: `${stem}.png`, abs: `/x/${stem}.png` })),
};

describe('video metadata', () => {
  it('reads phases aligned with the GT frames and ignored frames by index or name', () => {
    const m = parseVideoMeta({ phases: ['initial', 'transition', 'end'], ignored: [0, 'Frame10.png'] }, video, 'm.json');
    expect([...m.phases]).toEqual([['frame1', 'initial'], ['frame2', 'transitioning'], ['frame10', 'end']]);
    expect([...m.ignored].sort()).toEqual(['frame1', 'frame10']);
    expect(m.warnings).toEqual([]);
  });

  it('reads phases keyed by name, or aligned with a "frames" list, and warns about unknown frames', () => {
    const m = parseVideoMeta({ frames: ['frame2', 'frame7'], phases: ['end', null], ignored: { frame1: true, frame2: false } }, video, 'm.json');
    expect([...m.phases]).toEqual([['frame2', 'end']]);
    expect([...m.ignored]).toEqual(['frame1']);
    const k = parseVideoMeta({ phases: { frame10: 'end', frame99: 'initial' } }, video, 'm.json');
    expect(k.phases.get('frame10')).toBe('end');
    expect(k.warnings[0]).toContain('m.json: names 1 frame(s) with no GT mask (frame99); ignored');
  });

  it.each([
    [{ phases: ['initial'] }, '"phases" has 1 entries but the 3 GT masks of chopping_apple/v1 has 3'],
    [{ phases: ['initial', 'peeled', 'end'] }, '"phases"[1]: "peeled" is not a phase'],
    [{ phases: 'end' }, '"phases" must be an array or an object'],
    [{ ignored: [7] }, '"ignored"[0]: 7 is neither a frame name nor an index below 3'],
    [{ ignored: { frame1: 'yes' } }, '"ignored"."frame1" must be true or false'],
    [{ frames: [1, 2] }, '"frames" must be an array of frame names'],
  ])('rejects %j', (json, message) => {
    expect(() => parseVideoMeta(json as Record<string, unknown>, video, 'm.json')).toThrow(`m.json: ${message}`);
  });
});
