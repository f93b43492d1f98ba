/** Reads a video's timing without decoding frames (for linking a clip's source video). */
import { ALL_FORMATS, BlobSource, Input } from 'mediabunny';
import { nativeFrameRate } from './sampling';

export interface VideoTiming {
  startSec: number;
  durationSec: number;
  nativeFps: number | null;
}

const RATE_PROBE_PACKETS = 240;

export async function probeVideo(file: Blob): Promise<VideoTiming> {
  const input = new Input({ formats: ALL_FORMATS, source: new BlobSource(file) });
  try {
    if (!(await input.canRead().catch(() => false))) throw new Error('unrecognised or corrupt container');
    const track = await input.getPrimaryVideoTrack();
    if (!track) throw new Error('no video track');
    const startSec = await track.getFirstTimestamp();
    const durationSec = (await track.computeDuration()) - startSec;
    const nativeFps = nativeFrameRate((await track.computePacketStats(RATE_PROBE_PACKETS)).averagePacketRate);
    return { startSec, durationSec, nativeFps };
  } finally {
    input.dispose();
  }
}
