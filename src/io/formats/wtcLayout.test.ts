import { describe, expect, it } from 'vitest';
import { fpsOfFramesDir, groupWtcVideos, looksLikeWtc, wtcFramesDir } from './wtcLayout';
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
    expect(() => groupWtcVideos([vf('a/b.jpg')], 'a')).toThrow('a: has no JPEGImages_<rate>fps folders (such as JPEGImages_1fps)');
  });

  it('reads frame folders of any rate and keeps the rate per video', () => {
    const files = ['x_y/JPEGImages_5fps/v/f1.jpg', 'x_y/JPEGImages_29.97fps/w/f1.jpg', 'x_y/JPEGImages_0.5fps/u/f1.jpg'].map(vf);
    expect(looksLikeWtc(files)).toBe(true);
    expect(groupWtcVideos(files, 'x').map((v) => [v.video, v.fps, v.framesDir])).toEqual([
      ['u', 0.5, 'JPEGImages_0.5fps'],
      ['v', 5, 'JPEGImages_5fps'],
      ['w', 29.97, 'JPEGImages_29.97fps'],
    ]);
  });

  it('refuses one video in two rate folders, naming both', () => {
    const files = ['x_y/JPEGImages_1fps/v/f1.jpg', 'x_y/JPEGImages_5fps/v/f1.jpg'].map(vf);
    expect(() => groupWtcVideos(files, 'x')).toThrow('x_y/JPEGImages_5fps/v/f1.jpg: is a frame of video "v", which also has frames in x_y/JPEGImages_1fps/');
  });

  it('names the frame folder by the rate and reads the name back', () => {
    expect([1, 5, 30000 / 1001, 0.5, 0.001].map(wtcFramesDir)).toEqual([
      'JPEGImages_1fps',
      'JPEGImages_5fps',
      'JPEGImages_29.97fps',
      'JPEGImages_0.5fps',
      'JPEGImages_0.001fps',
    ]);
    expect(['JPEGImages_1fps', 'JPEGImages_12.5fps', 'JPEGImages_0fps', 'JPEGImages_fps', 'JPEGImages', 'JPEGImages_1fps_old'].map(fpsOfFramesDir)).toEqual([1, 12.5, null, null, null, null]);
    expect(() => wtcFramesDir(0)).toThrow('a frame rate of 0 cannot name');
  });
});
