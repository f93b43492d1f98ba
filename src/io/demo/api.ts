import type { DemoKind } from '../../demo/generator';
import type { CocoRle } from '../../masks/rle';

/**
 * The demo worker's API over the app's one worker RPC (src/rpc/, docs/workers.md): render a
 * clip's frames (with exact truth), or encode it as a video; both report {done, total}.
 */
export interface DemoJob {
  seed: number;
  kind: DemoKind;
  width: number;
  height: number;
  durationSec: number;
  fps: number;
}

export interface DemoVideoJob extends DemoJob {
  codec: 'vp9' | 'vp8' | 'avc';
}

export interface DemoFrame {
  timestampSec: number;
  image: Blob;
  phase: 'initial' | 'transitioning' | 'end';
  act: CocoRle;
  trf: CocoRle;
}

export interface DemoClipFrames {
  meta: { verb: string; noun: string; actionable: string; transformed: string; name: string };
  width: number;
  height: number;
  frames: DemoFrame[];
}

export interface DemoProgress {
  done: number;
  total: number;
}

export type DemoApi = {
  frames: { params: DemoJob; result: DemoClipFrames; progress: DemoProgress };
  video: { params: DemoVideoJob; result: Blob; progress: DemoProgress };
};
