/// <reference lib="webworker" />
/**
 * Decodes one video file in a worker and posts the sampled frames as JPEG blobs, so a long import
 * never blocks painting or the UI. Cancel by terminating the worker.
 */
import { ALL_FORMATS, BlobSource, CanvasSink, Input } from 'mediabunny';
import { MAX_SIDE } from '../../masks/labelMap';
import { MAX_SAMPLED_FRAMES, isRepeatedFrame, nativeFrameRate, nominalTimestamp, ownTimestamp, planSampling, sampledFrameCount, samplingTimestamps } from './sampling';
import type { DecodeEvent, DecodeRequest } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

function post(event: DecodeEvent): void {
  self.postMessage(event);
}

/** Thrown inside the worker for a problem the user can act on; becomes a DecodeEvent error. */
class Problem extends Error {}

/** Packets looked at to measure the frame rate: a few seconds of video, read as metadata only. */
const RATE_PROBE_PACKETS = 240;

async function decode({ file, fps, quality }: DecodeRequest): Promise<void> {
  const input = new Input({ formats: ALL_FORMATS, source: new BlobSource(file) });
  try {
    let readable = false;
    try {
      readable = await input.canRead();
    } catch {
      readable = false;
    }
    if (!readable) throw new Problem('not a video this app can read (unrecognised or corrupt container)');

    const track = await input.getPrimaryVideoTrack();
    if (!track) throw new Problem('contains no video track');
    const codec = track.codec ?? 'unknown';
    if (!(await track.canDecode())) {
      throw new Problem(`its ${codec} video cannot be decoded by this browser (try VP9, AV1 or H.264)`);
    }
    const width = track.displayWidth;
    const height = track.displayHeight;
    if (!(width > 0 && height > 0) || width > MAX_SIDE || height > MAX_SIDE) {
      throw new Problem(`declared frame size ${width}x${height} is beyond the limit of ${MAX_SIDE} px per side`);
    }
    const startSec = await track.getFirstTimestamp();
    const endSec = await track.computeDuration();
    const durationSec = endSec - startSec;
    const nativeFps = nativeFrameRate((await track.computePacketStats(RATE_PROBE_PACKETS)).averagePacketRate);
    const plan = planSampling(fps, nativeFps, file.name);
    const frameCount = sampledFrameCount(durationSec, plan.fps);
    if (frameCount === 0) throw new Problem('has no frames (duration 0)');
    if (frameCount > MAX_SAMPLED_FRAMES) {
      throw new Problem(
        `would give ${frameCount} frames at ${plan.fps} fps; the limit per clip is ${MAX_SAMPLED_FRAMES} (choose a lower rate or split the video)`,
      );
    }
    post({ type: 'meta', meta: { width, height, durationSec, startSec, codec, frameCount, nativeFps, sampleFps: plan.fps, remark: plan.remark } });

    const sink = new CanvasSink(track, { poolSize: 2 });
    let index = 0;
    const take = async (canvas: OffscreenCanvas, timestampSec: number, sourceTimestampSec: number) => {
      const image = await canvas.convertToBlob({ type: 'image/jpeg', quality });
      post({ type: 'frame', index, timestampSec, sourceTimestampSec, image });
      index++;
    };
    if (plan.everyFrame) {
      // At the video's own rate: each decoded frame once, stamped with its own time.
      for await (const wrapped of sink.canvases(startSec)) {
        if (index >= MAX_SAMPLED_FRAMES) throw new Problem(`has more than ${MAX_SAMPLED_FRAMES} frames, the limit per clip (choose a lower rate or split the video)`);
        await take(wrapped.canvas as OffscreenCanvas, ownTimestamp(wrapped.timestamp, startSec), wrapped.timestamp);
      }
      if (index === 0) throw new Problem('no frame could be decoded; the file may be corrupt');
    } else {
      const times = samplingTimestamps(startSec, durationSec, plan.fps);
      let previous: number | null = null;
      let k = 0;
      for await (const wrapped of sink.canvasesAtTimestamps(times)) {
        if (!wrapped) throw new Problem(`frame ${k} at ${times[k].toFixed(3)} s could not be decoded`);
        // Close to the native rate, a coarse time base can land two samples on one frame: take it once.
        if (!isRepeatedFrame(previous, wrapped.timestamp)) await take(wrapped.canvas as OffscreenCanvas, nominalTimestamp(k, plan.fps), wrapped.timestamp);
        previous = wrapped.timestamp;
        k++;
      }
      if (k !== frameCount) throw new Problem(`decoded ${k} of ${frameCount} frames; the file may be truncated`);
    }
    post({ type: 'done', frameCount: index });
  } finally {
    input.dispose();
  }
}

self.onmessage = (e: MessageEvent<DecodeRequest>) => {
  decode(e.data).catch((err: unknown) => {
    const problem =
      err instanceof Problem
        ? err.message
        : `could not be decoded (${err instanceof Error ? err.message : String(err)}); the file may be corrupt or truncated`;
    post({ type: 'error', problem });
  });
};
