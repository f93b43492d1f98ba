/// <reference lib="webworker" />
/**
 * Decodes video in a worker, so a long import never blocks painting or the UI: the sampled frames
 * of an import as JPEG blobs (`decode`), or the native frames of a kept source video on demand
 * (`open`, `between`). It speaks the app's one worker RPC (src/rpc/, docs/workers.md); a cancel
 * stops the decoding at the next frame, and terminating the worker stops it at once.
 */
import { ALL_FORMATS, BlobSource, CanvasSink, EncodedPacketSink, Input, type InputVideoTrack } from 'mediabunny';
import { MAX_SIDE } from '../../masks/labelMap';
import { MAX_SAMPLED_FRAMES, isRepeatedFrame, nativeFrameRate, nominalTimestamp, ownTimestamp, planSampling, sampledFrameCount, samplingTimestamps } from './sampling';
import { createRpcServer, type RpcContext, type RpcHandlers } from '../../rpc/server';
import { serveOnPort } from '../../rpc/transport';
import { FRAME_CREDITS, type BetweenProgress, type DecodeProgress, type OpenedSource, type VideoDecodeApi } from './api';
import { clipTime, nativeTimesBetween, thinEvenly } from './betweenFrames';

/** Thrown inside the worker for a problem the user can act on; its message reaches the page as is. */
class Problem extends Error {}

/** Packets looked at to measure the frame rate: a few seconds of video, read as metadata only. */
const RATE_PROBE_PACKETS = 240;

async function decode({ file, fps, quality }: VideoDecodeApi['decode']['params'], ctx: RpcContext<DecodeProgress>): Promise<{ frameCount: number }> {
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
    ctx.progress({ type: 'meta', meta: { width, height, durationSec, startSec, codec, frameCount, nativeFps, sampleFps: plan.fps, remark: plan.remark } });

    const sink = new CanvasSink(track, { poolSize: 2 });
    let index = 0;
    const take = async (canvas: OffscreenCanvas, timestampSec: number, sourceTimestampSec: number) => {
      ctx.checkpoint();
      const image = await canvas.convertToBlob({ type: 'image/jpeg', quality });
      ctx.progress({ type: 'frame', index, timestampSec, sourceTimestampSec, image });
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
    return { frameCount: index };
  } finally {
    input.dispose();
  }
}

// ---- a kept source video, read on demand (sourceFrames.ts) -----------------------------------

interface OpenSource {
  input: Input;
  track: InputVideoTrack;
  packets: EncodedPacketSink;
  startSec: number;
}

let source: OpenSource | null = null;
/** Frames each running `between` stream may still send before the page asks for more. */
const credits = new Map<number, { left: number; wake: (() => void) | null }>();

async function openSource({ file }: { file: Blob }): Promise<OpenedSource> {
  source?.input.dispose();
  source = null;
  const input = new Input({ formats: ALL_FORMATS, source: new BlobSource(file) });
  const track = await input.getPrimaryVideoTrack();
  if (!track) throw new Problem('contains no video track');
  if (!(await track.canDecode())) throw new Problem(`its ${track.codec ?? 'unknown'} video cannot be decoded by this browser`);
  const startSec = await track.getFirstTimestamp();
  const durationSec = (await track.computeDuration()) - startSec;
  const nativeFps = nativeFrameRate((await track.computePacketStats(RATE_PROBE_PACKETS)).averagePacketRate);
  source = { input, track, packets: new EncodedPacketSink(track), startSec };
  return { startSec, durationSec, nativeFps, width: track.displayWidth, height: track.displayHeight };
}

/**
 * Presentation times of the packets around [lo, hi] (video time): from the key packet at or before
 * lo to the key packet after the one at or before hi, which covers every frame shown in the span
 * of a closed-GOP stream, B-frames included.
 */
async function packetTimesAround(s: OpenSource, lo: number, hi: number): Promise<number[]> {
  const first = (await s.packets.getKeyPacket(lo, { metadataOnly: true })) ?? (await s.packets.getFirstPacket({ metadataOnly: true }));
  if (!first) return [];
  const lastKey = await s.packets.getKeyPacket(hi, { metadataOnly: true });
  const end = lastKey ? await s.packets.getNextKeyPacket(lastKey, { metadataOnly: true }) : null;
  const times: number[] = [];
  for await (const p of s.packets.packets(first, end ?? undefined, { metadataOnly: true })) times.push(p.timestamp);
  return times;
}

async function between(req: VideoDecodeApi['between']['params'], ctx: RpcContext<BetweenProgress>): Promise<null> {
  const s = source;
  if (!s) throw new Problem('no video is open');
  const credit = { left: FRAME_CREDITS, wake: null as (() => void) | null };
  credits.set(req.stream, credit);
  // A cancel wakes a stream waiting for credit, which then sees the signal and stops.
  const onCancel = () => credit.wake?.();
  ctx.signal.addEventListener('abort', onCancel);
  try {
    const lo = s.startSec + req.fromSec;
    const hi = s.startSec + req.toSec;
    const times = thinEvenly(nativeTimesBetween(await packetTimesAround(s, lo, hi), s.startSec, req.fromSec, req.toSec), req.max ?? undefined);
    ctx.progress({ type: 'times', times: times.map((t) => clipTime(t, s.startSec)) });
    if (times.length > 0) {
      // Scaled to the clip's size: the frames line up pixel for pixel with the sampled ones.
      const sink = new CanvasSink(s.track, { width: req.width, height: req.height, fit: 'fill', poolSize: FRAME_CREDITS + 1 });
      let k = 0;
      for await (const wrapped of sink.canvasesAtTimestamps(times)) {
        if (ctx.signal.aborted) return null;
        if (!wrapped) throw new Problem(`the frame at ${times[k].toFixed(3)} s could not be decoded`);
        const canvas = wrapped.canvas as OffscreenCanvas;
        const g2d = canvas.getContext('2d', { willReadFrequently: true }) as OffscreenCanvasRenderingContext2D;
        const { data } = g2d.getImageData(0, 0, req.width, req.height);
        while (credit.left <= 0) {
          await new Promise<void>((wake) => (credit.wake = wake));
          if (ctx.signal.aborted) return null;
        }
        credit.left--;
        ctx.progress({ type: 'frame', timeSec: clipTime(wrapped.timestamp, s.startSec), width: req.width, height: req.height, data: data.buffer }, [data.buffer]);
        k++;
      }
    }
    return null;
  } finally {
    credits.delete(req.stream);
    ctx.signal.removeEventListener('abort', onCancel);
  }
}

function problemOf(err: unknown): string {
  return err instanceof Problem
    ? err.message
    : `could not be decoded (${err instanceof Error ? err.message : String(err)}); the file may be corrupt or truncated`;
}

/** Errors reach the page as a sentence about the file (problemOf), whatever threw them. */
function explained<P, R, G>(work: (params: P, ctx: RpcContext<G>) => Promise<R>) {
  return async (params: P, ctx: RpcContext<G>): Promise<R> => {
    try {
      return await work(params, ctx);
    } catch (err) {
      throw new Error(problemOf(err), { cause: err });
    }
  };
}

const handlers: RpcHandlers<VideoDecodeApi> = {
  decode: explained(decode),
  open: explained(openSource),
  between: explained(between),
  more: ({ stream }) => {
    const c = credits.get(stream);
    if (c) {
      c.left++;
      c.wake?.();
      c.wake = null;
    }
    return null;
  },
};

// No queue: `more` must reach a `between` that is waiting for it.
serveOnPort(createRpcServer(handlers));
