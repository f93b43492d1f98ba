/**
 * Real encoded videos for specs, made with Debian's ffmpeg at test time (no binary is committed).
 * A demo clip rendered frame by frame and encoded as H.264 has exact ground truth at every frame
 * time; each frame carries its index in the barcode, so a spec can check which frame it got.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import type { DemoClip } from '../../src/demo';
import { sampleTimes } from '../../src/demo';

export function hasFfmpeg(): boolean {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Frame i is the clip at t = i / fps (barcode i), encoded libx264 yuv420p at `fps` into an MP4. */
export function encodeDemoH264(clip: DemoClip, fps: number, file: string): { frames: number } {
  const times = sampleTimes(clip.durationSec, fps);
  const raw = Buffer.concat(times.map((t, i) => Buffer.from(clip.renderAt(t, { frameIndex: i }).data.buffer)));
  const run = spawnSync(
    'ffmpeg',
    ['-y', '-loglevel', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${clip.width}x${clip.height}`, '-r', String(fps), '-i', '-',
      '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-profile:v', 'high', '-crf', '18', '-r', String(fps), '-movflags', '+faststart', file],
    { input: raw, maxBuffer: 1 << 20 },
  );
  if (run.status !== 0) throw new Error(`ffmpeg failed (${run.status}): ${run.stderr.toString()}`);
  return { frames: times.length };
}
