/// <reference lib="webworker" />
/**
 * Renders demo clips off the UI thread: JPEG frames plus the generator's exact masks as COCO RLE,
 * or a real encoded video of the clip (for trying the video importer).
 */
import { createDemoClip, sampleTimes } from '../../demo/generator';
import { encodeDemoVideo } from '../../demo/encodeVideo';
import { encodeLayer } from '../../masks/layers';
import type { DemoFrame, DemoRequest, DemoResponse } from './protocol';

declare const self: DedicatedWorkerGlobalScope;
const post = (r: DemoResponse) => self.postMessage(r);

async function frames(req: Extract<DemoRequest, { type: 'frames' }>): Promise<void> {
  const clip = createDemoClip({ seed: req.seed, kind: req.kind, width: req.width, height: req.height, durationSec: req.durationSec });
  const times = sampleTimes(req.durationSec, req.fps);
  const canvas = new OffscreenCanvas(clip.width, clip.height);
  const ctx = canvas.getContext('2d')!;
  const out: DemoFrame[] = [];
  for (let k = 0; k < times.length; k++) {
    const t = times[k];
    const img = clip.renderAt(t, { frameIndex: k });
    ctx.putImageData(new ImageData(new Uint8ClampedArray(img.data), img.width, img.height), 0, 0);
    const image = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
    const { act, trf } = encodeLayer(clip.groundTruthAt(t));
    out.push({ timestampSec: t, image, phase: clip.phaseAt(t), act, trf });
    post({ type: 'progress', id: req.id, done: k + 1, total: times.length });
  }
  const m = clip.meta;
  post({
    type: 'frames',
    id: req.id,
    clip: { meta: { verb: m.verb, noun: m.noun, actionable: m.actionable, transformed: m.transformed, name: m.name }, width: clip.width, height: clip.height, frames: out },
  });
}

async function video(req: Extract<DemoRequest, { type: 'video' }>): Promise<void> {
  const clip = createDemoClip({ seed: req.seed, kind: req.kind, width: req.width, height: req.height, durationSec: req.durationSec });
  const blob = await encodeDemoVideo(clip, {
    fps: req.fps,
    codec: req.codec,
    onProgress: (done, total) => post({ type: 'progress', id: req.id, done, total }),
  });
  post({ type: 'video', id: req.id, video: blob });
}

self.onmessage = (e: MessageEvent<DemoRequest>) => {
  const req = e.data;
  (req.type === 'frames' ? frames(req) : video(req)).catch((err: unknown) =>
    post({ type: 'error', id: req.id, message: err instanceof Error ? err.message : String(err) }),
  );
};
