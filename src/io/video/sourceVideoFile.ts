/**
 * Finding a clip's source video: the file kept in OPFS (store/videoFiles.ts), or one the user linked
 * in this tab where OPFS is unavailable (an insecure http context) or could not keep it. Linking
 * checks the file against the clip (keptVideo.ts) and keeps it, and records the reference on a clip
 * imported before videos were kept.
 */
import type { SpocDb } from '../../store/db';
import type { Clip, SourceVideoRef } from '../../store/types';
import { openVideoFiles, type VideoFiles } from '../../store/videoFiles';
import { hashFile, legacyVideoMismatch, recordedVideoMismatch, sourceVideoRef } from './keptVideo';
import { probeVideo } from './probeVideo';

/** Files linked in this tab, by hash, for when they could not be kept in OPFS. */
const linkedHere = new Map<string, File>();

/** The clip's source video, or null when it is missing (or the clip has none). */
export async function sourceVideoFile(clip: Pick<Clip, 'source'>, files: VideoFiles | null = null): Promise<File | null> {
  const ref = clip.source.video;
  if (!ref) return null;
  const kept = await (files ?? (await openVideoFiles()))?.get(ref.sha256).catch(() => null);
  if (kept && kept.size === ref.size) return kept;
  return linkedHere.get(ref.sha256) ?? null;
}

export interface LinkOutcome {
  ref: SourceVideoRef;
  /** Whether the file is kept in OPFS (else only for this tab). */
  kept: boolean;
  /** What to tell the user beyond "linked". */
  remark: string | null;
}

/** Thrown when the picked file is not the clip's video; the message names the file and the problem. */
export class LinkRefused extends Error {}

/**
 * Checks `file` against the clip and keeps it. With a recorded reference, size and SHA-256 must
 * match; without one (a clip imported before videos were kept), the duration must match the clip's
 * within one sample interval, and the clip row then records the new reference.
 */
export async function linkSourceVideo(db: SpocDb, clip: Clip, file: File): Promise<LinkOutcome> {
  let ref = clip.source.video;
  let remark: string | null = null;
  if (ref) {
    const early = recordedVideoMismatch(ref, file, null);
    if (early) throw new LinkRefused(early);
    const problem = recordedVideoMismatch(ref, file, await hashFile(file));
    if (problem) throw new LinkRefused(problem);
  } else {
    const meta = await probeVideo(file).catch((err: unknown) => {
      throw new LinkRefused(`${file.name} cannot be read as a video (${err instanceof Error ? err.message : String(err)}).`);
    });
    const problem = legacyVideoMismatch(clip, file, meta.durationSec);
    if (problem) throw new LinkRefused(problem);
    ref = sourceVideoRef(file, await hashFile(file), meta);
    remark = `This clip was imported before source videos were kept, so ${file.name} was checked by its duration only (${meta.durationSec.toFixed(2)} s, within one sample interval of the clip's).`;
  }
  const files = await openVideoFiles();
  let kept = false;
  if (files) {
    try {
      await files.keep(ref.sha256, file);
      kept = true;
    } catch {
      kept = false;
    }
  }
  if (!kept) {
    linkedHere.set(ref.sha256, file);
    remark = [remark, 'The video could not be kept in this browser (no Origin Private File System here, or it is full): it plays in this tab only.'].filter(Boolean).join(' ');
  }
  if (!clip.source.video) {
    const current = await db.clips.get(clip.id);
    if (current) await db.clips.put({ ...current, source: { ...current.source, video: ref } });
  }
  return { ref, kept, remark };
}
