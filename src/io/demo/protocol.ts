import type { DemoKind } from '../../demo/generator';
import type { CocoRle } from '../../masks/rle';

/** Requests to the demo worker: render a clip's frames (with exact truth), or encode it as a video. */
export type DemoRequest =
  | { type: 'frames'; id: number; seed: number; kind: DemoKind; width: number; height: number; durationSec: number; fps: number }
  | { type: 'video'; id: number; seed: number; kind: DemoKind; width: number; height: number; durationSec: number; fps: number; codec: 'vp9' | 'vp8' | 'avc' };

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

export type DemoResponse =
  | { type: 'progress'; id: number; done: number; total: number }
  | { type: 'frames'; id: number; clip: DemoClipFrames }
  | { type: 'video'; id: number; video: Blob }
  | { type: 'error'; id: number; message: string };
