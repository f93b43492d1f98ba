import { describe, expect, it } from 'vitest';
import { groupWtcVideos, looksLikeWtc } from './wtcLayout';
import type { VirtualFile } from '../files/virtualFile';

const vf = (path: string): VirtualFile => ({ path, blob: new Blob([path]) });

describe('WhereToChange layout', () => {
  it('groups frames and masks per video, in natural order, ignoring a root folder and junk', () => {
    const files = [
      'root/chopping_avocado/JPEGImages_1fps/v1/frame10.jpg',
      'root/chopping_avocado/JPEGImages_1fps/v1/frame2.jpg',
      'root/chopping_avocado/gt/masks/v1/frame2.png',
      'root/chopping_avocado/JPEGImages_1fps/v2/frame1.jpg',
      'root/grating_carrot/JPEGImages_1fps/a/frame1.jpg',
      'root/__MACOSX/chopping_avocado/JPEGImages_1fps/v1/._frame2.jpg',
      'root/README.txt',
    ].map(vf);
    expect(looksLikeWtc(files)).toBe(true);
    const videos = groupWtcVideos(files, 'root');
    expect(videos.map((v) => `${v.osc}/${v.video}:${v.frames.length}:${v.masks.size}`)).toEqual([
      'chopping_avocado/v1:2:1',
      'chopping_avocado/v2:1:0',
      'grating_carrot/a:1:0',
    ]);
    expect(videos[0].frames.map((f) => f.path.split('/').pop())).toEqual(['frame2.jpg', 'frame10.jpg']);
  });

  it('names a mask with no matching frame', () => {
    const files = ['x/JPEGImages_1fps/v/frame1.jpg', 'x/gt/masks/v/frame9.png'].map(vf);
    expect(() => groupWtcVideos(files, 'x')).toThrow('x/gt/masks/v/frame9.png: has no matching frame frame9.* in x/JPEGImages_1fps/v/');
  });

  it('names masks of a video without frames', () => {
    const files = ['x/JPEGImages_1fps/v/frame1.jpg', 'x/gt/masks/w/frame1.png'].map(vf);
    expect(() => groupWtcVideos(files, 'x')).toThrow('x/gt/masks/w/frame1.png: is a mask of video "w"');
  });

  it('refuses a folder without the layout', () => {
    expect(looksLikeWtc([vf('a/b.jpg')])).toBe(false);
    expect(() => groupWtcVideos([vf('a/b.jpg')], 'a')).toThrow('a: has no JPEGImages_1fps folders');
  });
});
