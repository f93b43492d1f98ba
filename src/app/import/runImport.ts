/**
 * One entry point per kind of input the user can give. Each reads and checks everything first —
 * including that it will fit in the storage left — then commits all resulting clips at once
 * (store/importCommit.ts): an import either lands whole or leaves the store exactly as it was, and
 * its error names the offending file.
 *
 * Names are checked before anything is decoded: the verb and object typed in the form must be able
 * to name a folder (clipDrafts.ts oscChoiceProblem), and clip names are made unique in the project
 * ("demo", "demo-2") with a remark, so no import can leave a project that exports refuse.
 */
import type { SpocDb } from '../../store/db';
import { commitClipImports, draftBytes, type ClipImportDraft } from '../../store/importCommit';
import { importRoomProblem, readQuota } from '../../store/quota';
import type { Clip, SourceVideoRef } from '../../store/types';
import { openVideoFiles, removeVideosIfUnused } from '../../store/videoFiles';
import { hashFile, sourceVideoRef } from '../../io/video/keptVideo';
import { fromFileList, type VirtualFile } from '../../io/files/virtualFile';
import { readZip } from '../../io/files/zipArchive';
import { buildImageSequence, isImagePath } from '../../io/images/imageSequence';
import { decodeCheck, makeThumbnail } from '../../io/images/browserImages';
import { imageSequenceDraft, nameDraftsApart, oscChoiceProblem, videoDraft, type DraftContext, type OscChoice } from '../../io/clipDrafts';
import { takenClipNames } from '../../store/clips';
import { sampleVideo } from '../../io/video/sampleVideo';
import { looksLikeWtc } from '../../io/formats/wtcLayout';
import { wtcDrafts } from '../../io/formats/wtcDrafts';
import { ImportError, throwIfAborted } from '../../io/importError';

export interface ImportProgress {
  stage: string;
  done: number;
  total: number;
}

export interface ImportOptions {
  ctx: DraftContext;
  osc: OscChoice;
  sampleFps: number;
  signal?: AbortSignal;
  onProgress?: (p: ImportProgress) => void;
}

export interface ImportResult {
  clips: Clip[];
  /** Things the user should know although the import succeeded. */
  remarks: string[];
}

/**
 * One or several videos, each sampled in turn, then committed together: all of them land, or none
 * (a video that fails to decode names itself and nothing is saved).
 */
export async function importVideoFiles(db: SpocDb, files: readonly File[], o: ImportOptions): Promise<ImportResult> {
  if (files.length === 0) throw new ImportError('the selection', 'holds no video file');
  const what = files.length === 1 ? files[0].name : `${files.length} videos`;
  refuseBadOsc(what, o.osc);
  // The source videos are kept (store/videoFiles.ts): their bytes count before anything is decoded.
  const videos = await openVideoFiles();
  if (videos) await refuseIfNoRoom(what, files.reduce((n, f) => n + f.size, 0));
  const drafts: ClipImportDraft[] = [];
  const rateRemarks: string[] = [];
  const toKeep = new Map<string, File>();
  for (const [k, file] of files.entries()) {
    const of = files.length > 1 ? ` (${k + 1} of ${files.length})` : '';
    const video = await sampleVideo(file, {
      fps: o.sampleFps,
      signal: o.signal,
      onProgress: (done, total) => o.onProgress?.({ stage: `Decoding ${file.name}${of}`, done, total }),
    });
    let kept: SourceVideoRef | undefined;
    if (videos) {
      o.onProgress?.({ stage: `Fingerprinting ${file.name}${of}`, done: 0, total: 1 });
      kept = sourceVideoRef(file, await hashFile(file), video.meta);
      if (!(await videos.get(kept.sha256))) toKeep.set(kept.sha256, file);
    }
    // The clip records the rate actually sampled (the video's own when the one asked for was higher).
    drafts.push(videoDraft(o.ctx, o.osc, file, video, video.fps, kept));
    if (video.remark) rateRemarks.push(video.remark);
  }
  const keptBytes = [...toKeep.values()].reduce((n, f) => n + f.size, 0);
  const result = await commitDrafts(db, drafts, o, keptBytes, async () => {
    // Written before the clip rows: a clip never references a video that was not kept whole.
    for (const [sha, file] of toKeep) {
      o.onProgress?.({ stage: `Keeping ${file.name}`, done: 0, total: 1 });
      await videos!.keep(sha, file).catch((err: unknown) => {
        throw new ImportError(file.name, `could not be kept for playback (${err instanceof Error ? err.message : String(err)})`);
      });
    }
  }).catch(async (err: unknown) => {
    // Nothing was saved: the videos kept for it go too (unless an earlier clip uses the same one).
    await removeVideosIfUnused(db, videos, toKeep.keys()).catch(() => undefined);
    throw err;
  });
  const notKept = videos ? [] : ['The source video was not kept: this browser offers no Origin Private File System here (an insecure http address?). Watch mode will ask for the file.'];
  return { ...result, remarks: [...rateRemarks, ...notKept, ...result.remarks] };
}

/** Refuses, before anything is read, a verb or object from the form that could not name a folder. */
function refuseBadOsc(what: string, osc: OscChoice): void {
  const problem = oscChoiceProblem(osc);
  if (problem) throw new ImportError(what, problem);
}

/** A picked folder (webkitdirectory) or a multi-selection of images. */
export async function importFileList(db: SpocDb, files: ArrayLike<File>, sourceName: string, o: ImportOptions): Promise<ImportResult> {
  return importVirtualFiles(db, fromFileList(files), sourceName, 'images', o);
}

export async function importZipFile(db: SpocDb, file: File, o: ImportOptions): Promise<ImportResult> {
  o.onProgress?.({ stage: `Reading ${file.name}`, done: 0, total: 1 });
  const files = await readZip(file, file.name, isImagePath);
  throwIfAborted(o.signal);
  return importVirtualFiles(db, files, file.name, 'zip', o);
}

async function importVirtualFiles(
  db: SpocDb,
  files: VirtualFile[],
  sourceName: string,
  kind: 'images' | 'zip',
  o: ImportOptions,
): Promise<ImportResult> {
  const progress = (stage: string) => (done: number, total: number) => o.onProgress?.({ stage, done, total });
  // The files are stored as they are (frames and masks alike), so their sizes tell before any
  // decoding whether the import can fit at all.
  await refuseIfNoRoom(sourceName, files.filter((f) => isImagePath(f.path)).reduce((n, f) => n + f.blob.size, 0));
  throwIfAborted(o.signal);
  if (looksLikeWtc(files)) {
    const { drafts, remarks } = await wtcDrafts(o.ctx, files, sourceName, {
      decodeCheck,
      signal: o.signal,
      onVideoProgress: (video, done, total) => progress(`Checking ${video}`)(done, total),
    });
    const result = await commitDrafts(db, drafts, o);
    return { ...result, remarks: [...remarks, ...result.remarks] };
  }
  refuseBadOsc(sourceName, o.osc);
  const seq = await buildImageSequence(files, sourceName, { decodeCheck, signal: o.signal, onProgress: progress(`Checking ${sourceName}`) });
  return commitDrafts(db, [imageSequenceDraft(o.ctx, o.osc, sourceName, kind, seq, o.sampleFps)], o);
}

/** Names apart from the project's clips, thumbnails, a last room check on the exact bytes, then every clip at once. */
export async function commitDrafts(
  db: SpocDb,
  drafts: ClipImportDraft[],
  o: Pick<ImportOptions, 'signal' | 'onProgress'>,
  /** Bytes stored beside the rows (source videos kept in OPFS), for the room check. */
  extraBytes = 0,
  /** Runs after the last room check, before the rows are written (keeps the source videos). */
  beforeWrite?: () => Promise<void>,
): Promise<ImportResult> {
  const remarks = drafts.length > 0 ? nameDraftsApart(drafts, await takenClipNames(db, drafts[0].projectId)) : [];
  for (const d of drafts) {
    throwIfAborted(o.signal);
    d.thumbnail ??= await makeThumbnail(d.frames[0].image).catch(() => undefined);
  }
  throwIfAborted(o.signal);
  const name = drafts.length === 1 ? drafts[0].clip.name : `${drafts.length} clips`;
  // A video's stored size is known only once it is decoded; check again before the first write.
  await refuseIfNoRoom(name, drafts.reduce((n, d) => n + draftBytes(d), extraBytes));
  throwIfAborted(o.signal);
  await beforeWrite?.();
  throwIfAborted(o.signal);
  o.onProgress?.({ stage: 'Saving', done: 0, total: drafts.reduce((n, d) => n + d.frames.length, 0) });
  const clips = await commitClipImports(db, drafts, {
    onProgress: (done, total) => o.onProgress?.({ stage: 'Saving', done, total }),
  });
  return { clips, remarks };
}

/** Refuses, before anything is written, an import that cannot fit in the storage left. */
async function refuseIfNoRoom(name: string, bytes: number): Promise<void> {
  const q = await readQuota();
  const problem = q.known ? importRoomProblem(bytes, q.usage, q.quota) : null;
  if (problem) throw new ImportError(name, problem);
}
