/**
 * Keeping a clip's source video (store/videoFiles.ts) and checking a file the user links to a clip
 * whose video is missing. Pure apart from hashing (Web Crypto), so the checks are unit-tested.
 */
import { sha256Hex } from '../bundle/hash';
import type { Clip, SourceVideoRef } from '../../store/types';
import type { VideoMeta } from './api';
import { formatFps } from './sampling';

/** SHA-256 of a whole file as lower-case hex (the name the video is kept under). */
export async function hashFile(file: Blob): Promise<string> {
  return sha256Hex(new Uint8Array(await file.arrayBuffer()));
}

export function sourceVideoRef(file: File, sha256: string, meta: Pick<VideoMeta, 'nativeFps' | 'durationSec' | 'startSec'>): SourceVideoRef {
  return { sha256, size: file.size, type: file.type, fileName: file.name, nativeFps: meta.nativeFps, durationSec: meta.durationSec, startSec: meta.startSec };
}

/** What to say when a linked file is not the clip's recorded video (size first: it costs no hashing), or null when it is. */
export function recordedVideoMismatch(ref: SourceVideoRef, file: File, sha256: string | null): string | null {
  if (file.size !== ref.size) {
    return `${file.name} is not this clip's video: it has ${file.size.toLocaleString('en')} bytes, the clip's video "${ref.fileName}" had ${ref.size.toLocaleString('en')}.`;
  }
  if (sha256 !== null && sha256 !== ref.sha256) {
    return `${file.name} is not this clip's video: it has the same size as "${ref.fileName}" but different contents (SHA-256 ${sha256.slice(0, 12)}… instead of ${ref.sha256.slice(0, 12)}…).`;
  }
  return null;
}

/**
 * For a clip imported before videos were kept (no reference to check against): a video is accepted
 * when its duration matches the clip's within one sample interval. The clip's duration is what the
 * import recorded, else the span its frames cover.
 */
export function legacyVideoMismatch(
  clip: Pick<Clip, 'sampleFps' | 'frameCount' | 'source'>,
  file: File,
  durationSec: number,
): string | null {
  const interval = 1 / clip.sampleFps;
  const expected = clip.source.durationSec ?? clip.frameCount / clip.sampleFps;
  if (Math.abs(durationSec - expected) <= interval) return null;
  return `${file.name} is not this clip's video: it lasts ${durationSec.toFixed(2)} s, the clip ${expected.toFixed(2)} s (they must agree within one sample interval, ${formatFps(interval)} s).`;
}
