/// <reference lib="webworker" />
/**
 * Renders demo clips off the UI thread: JPEG frames plus the generator's exact masks as COCO RLE,
 * or a real encoded video of the clip (for trying the video importer). Speaks the app's one
 * worker RPC (src/rpc/); a cancel stops rendering at the next frame.
 */
import { createDemoClip, sampleTimes } from '../../demo/generator';
import { encodeDemoVideo } from '../../demo/encodeVideo';
import { encodeLayer } from '../../masks/layers';
import { createRpcServer, type RpcContext } from '../../rpc/server';
import { serveOnPort } from '../../rpc/transport';
import type { DemoApi, DemoClipFrames, DemoFrame, DemoJob, DemoProgress, DemoVideoJob } from './api';

async function frames(req: DemoJob, ctx: RpcContext<DemoProgress>): Promise<DemoClipFrames> {
  const clip = createDemoClip({ seed: req.seed, kind: req.kind, width: req.width, height: req.height, durationSec: req.durationSec });
  const times = sampleTimes(req.durationSec, req.fps);
  const canvas = new OffscreenCanvas(clip.width, clip.height);
  const g2d = canvas.getContext('2d')!;
  const out: DemoFrame[] = [];
  for (let k = 0; k < times.length; k++) {
    ctx.checkpoint();
    const t = times[k];
    const img = clip.renderAt(t, { frameIndex: k });
    g2d.putImageData(new ImageData(new Uint8ClampedArray(img.data), img.width, img.height), 0, 0);
    const image = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
    const { act, trf } = encodeLayer(clip.groundTruthAt(t));
    out.push({ timestampSec: t, image, phase: clip.phaseAt(t), act, trf });
    ctx.progress({ done: k + 1, total: times.length });
  }
  const m = clip.meta;
  return { meta: { verb: m.verb, noun: m.noun, actionable: m.actionable, transformed: m.transformed, name: m.name }, width: clip.width, height: clip.height, frames: out };
}

async function video(req: DemoVideoJob, ctx: RpcContext<DemoProgress>): Promise<Blob> {
  const clip = createDemoClip({ seed: req.seed, kind: req.kind, width: req.width, height: req.height, durationSec: req.durationSec });
  return encodeDemoVideo(clip, {
    fps: req.fps,
    codec: req.codec,
    onProgress: (done, total) => {
      ctx.checkpoint();
      ctx.progress({ done, total });
    },
  });
}

serveOnPort(createRpcServer<DemoApi>({ frames, video }));
