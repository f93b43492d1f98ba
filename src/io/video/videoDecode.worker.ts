/// <reference lib="webworker" />
/**
 * Decodes one video file in a worker and posts the sampled frames as JPEG blobs, so a long import
 * never blocks painting or the UI. Cancel by terminating the worker.
 */
import { ALL_FORMATS, BlobSource, CanvasSink, Input } from 'mediabunny';
import { MAX_SIDE } from '../../masks/labelMap';
import { MAX_SAMPLED_FRAMES, nominalTimestamp, sampledFrameCount, samplingTimestamps } from './sampling';
import type { DecodeEvent, DecodeRequest } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

function post(event: DecodeEvent): void {
  self.postMessage(event);
}

/** Thrown inside the worker for a problem the user can act on; becomes a DecodeEvent error. */
class Problem extends Error {}

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
    const frameCount = sampledFrameCount(durationSec, fps);
    if (frameCount === 0) throw new Problem('has no frames (duration 0)');
    if (frameCount > MAX_SAMPLED_FRAMES) {
      throw new Problem(
        `would give ${frameCount} frames at ${fps} fps; the limit per clip is ${MAX_SAMPLED_FRAMES} (choose a lower rate or split the video)`,
      );
    }
    post({ type: 'meta', meta: { width, height, durationSec, startSec, codec, frameCount } });

    const sink = new CanvasSink(track, { poolSize: 2 });
    const times = samplingTimestamps(startSec, durationSec, fps);
    let index = 0;
    for await (const wrapped of sink.canvasesAtTimestamps(times)) {
      if (!wrapped) throw new Problem(`frame ${index} at ${times[index].toFixed(3)} s could not be decoded`);
      const canvas = wrapped.canvas as OffscreenCanvas;
      const image = await canvas.convertToBlob({ type: 'image/jpeg', quality });
      post({
        type: 'frame',
        index,
        timestampSec: nominalTimestamp(index, fps),
        sourceTimestampSec: wrapped.timestamp,
        image,
      });
      index++;
    }
    if (index !== frameCount) throw new Problem(`decoded ${index} of ${frameCount} frames; the file may be truncated`);
    post({ type: 'done' });
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
