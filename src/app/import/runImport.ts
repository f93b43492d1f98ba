/**
 * One entry point per kind of input the user can give. Each reads and checks everything first,
 * then commits all resulting clips in ONE transaction: an import either lands whole or leaves the
 * store exactly as it was, and its error names the offending file.
 */
import type { SpocDb } from '../../store/db';
import { commitClipImports, type ClipImportDraft } from '../../store/importCommit';
import type { Clip } from '../../store/types';
import { fromFileList, type VirtualFile } from '../../io/files/virtualFile';
import { readZip } from '../../io/files/zipArchive';
import { buildImageSequence, isImagePath } from '../../io/images/imageSequence';
import { decodeCheck, makeThumbnail } from '../../io/images/browserImages';
import { imageSequenceDraft, videoDraft, type DraftContext, type OscChoice } from '../../io/clipDrafts';
import { sampleVideo } from '../../io/video/sampleVideo';
import { looksLikeWtc } from '../../io/wtc/wtcLayout';
import { wtcDrafts } from '../../io/wtc/wtcDrafts';
import { throwIfAborted } from '../../io/importError';

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

export async function importVideoFile(db: SpocDb, file: File, o: ImportOptions): Promise<ImportResult> {
  const video = await sampleVideo(file, {
    fps: o.sampleFps,
    signal: o.signal,
    onProgress: (done, total) => o.onProgress?.({ stage: `Decoding ${file.name}`, done, total }),
  });
  return commitDrafts(db, [videoDraft(o.ctx, o.osc, file, video, o.sampleFps)], o);
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
  if (looksLikeWtc(files)) {
    const { drafts, remarks } = await wtcDrafts(o.ctx, files, sourceName, {
      decodeCheck,
      signal: o.signal,
      onVideoProgress: (video, done, total) => progress(`Checking ${video}`)(done, total),
    });
    const result = await commitDrafts(db, drafts, o);
    return { ...result, remarks: [...remarks, ...result.remarks] };
  }
  const seq = await buildImageSequence(files, sourceName, { decodeCheck, signal: o.signal, onProgress: progress(`Checking ${sourceName}`) });
  return commitDrafts(db, [imageSequenceDraft(o.ctx, o.osc, sourceName, kind, seq, o.sampleFps)], o);
}

/** Thumbnails, then every clip in one transaction. */
export async function commitDrafts(db: SpocDb, drafts: ClipImportDraft[], o: Pick<ImportOptions, 'signal' | 'onProgress'>): Promise<ImportResult> {
  for (const d of drafts) {
    throwIfAborted(o.signal);
    d.thumbnail ??= await makeThumbnail(d.frames[0].image).catch(() => undefined);
  }
  throwIfAborted(o.signal);
  o.onProgress?.({ stage: 'Saving', done: 0, total: drafts.length });
  const clips = await commitClipImports(db, drafts);
  o.onProgress?.({ stage: 'Saved', done: drafts.length, total: drafts.length });
  return { clips, remarks: [] };
}
