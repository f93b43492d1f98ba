/**
 * Streams a whole project into a bundle (format.ts). Clips are read one at a time, each in one
 * read transaction (so a clip is consistent even while someone keeps painting), frame images one
 * at a time; every zip chunk goes to the sink as soon as fflate produces it, and the sink is
 * awaited. Memory is one clip's rows plus one image, whatever the size of the project.
 *
 * Images (JPEG/PNG/WebP) are stored (ZipPassThrough), JSON is deflated (ZipDeflate). SHA-256s are
 * computed as entries are written and land in manifest.json, the last entry.
 */
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import pkg from '../../../package.json';
import type { SpocDb } from '../../store/db';
import { clipRowTables, readClipRows } from '../../store/clipRows';
import { isListedClip } from '../../store/clips';
import { getUserName } from '../../store/meta';
import { SCHEMA_VERSION } from '../../store/schema';
import type { Clip, MetaEntry } from '../../store/types';
import {
  BUNDLE_FORMAT,
  BUNDLE_FORMAT_VERSION,
  COUNT_KEYS,
  MANIFEST_PATH,
  META_PATH,
  PROJECT_PATH,
  clipJsonPath,
  framePath,
  isCompressedImage,
  projectMetaPrefix,
  revisionsPath,
  thumbnailPath,
  type BundleCounts,
  type BundleManifest,
  type ManifestEntry,
} from './format';
import { sha256Hex } from './hash';
import type { ClipJson, FrameImageRef, MetaJson, ProjectJson, RevisionsJson } from './rows';
import type { BundleSink } from './sinks';
import { BundleCancelled, type BundleProgress } from './progress';

export interface ExportBundleOptions {
  onProgress?: (p: BundleProgress) => void;
  signal?: AbortSignal;
  /** Export time (manifest `createdAt`, zip entry dates); default now. */
  now?: number;
  /** Recorded as `exportedBy`; default the user name set in this browser. */
  exportedBy?: string;
}

export interface BundleExportSummary {
  projectId: string;
  projectName: string;
  /** Bytes written to the sink. */
  bytes: number;
  entries: number;
  counts: BundleCounts;
}

/** Zip without zip64 (fflate's streaming writer): offsets are 32-bit. Keep a margin for the directory. */
const MAX_ARCHIVE_BYTES = 2 ** 32 - 64 * 2 ** 20;

/** The file name offered for a project's bundle: "<project>.spoc.zip", with unsafe characters replaced. */
export function bundleFileName(projectName: string): string {
  // eslint-disable-next-line no-control-regex
  const safe = projectName.replace(/[/\\:*?"<>|\u0000-\u001f\u007f]+/g, '_').replace(/\s+/g, ' ').trim().slice(0, 120) || 'project';
  return `${safe}.spoc.zip`;
}

export async function exportBundle(db: SpocDb, projectId: string, sink: BundleSink, options: ExportBundleOptions = {}): Promise<BundleExportSummary> {
  const { signal, onProgress } = options;
  const now = options.now ?? Date.now();
  const mtime = new Date(now);
  const project = await db.projects.get(projectId);
  if (!project) throw new Error('The project was not found; it may have been deleted in another tab.');
  // An incomplete import (interrupted chunked write) is not part of the project until it is
  // re-imported, nor is a clip in the trash until it is restored.
  const clips = (await db.clips.where('projectId').equals(projectId).toArray()).filter(isListedClip).sort((a, b) => a.createdAt - b.createdAt || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
  const totalFrames = clips.reduce((n, c) => n + c.frameCount, 0);
  const exportedBy = options.exportedBy ?? (await getUserName(db));
  const prefix = projectMetaPrefix(projectId);
  const meta: MetaEntry[] = await db.meta.where('key').between(prefix, `${prefix}\uffff`).toArray();

  const counts: BundleCounts = Object.fromEntries(COUNT_KEYS.map((k) => [k, 0])) as BundleCounts;
  const entries: ManifestEntry[] = [];
  let written = 0;
  let pending: Uint8Array[] = [];
  let zipError: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) zipError ??= err;
    else pending.push(chunk);
  });

  const flush = async () => {
    if (zipError) throw zipError;
    const out = pending;
    pending = [];
    for (const chunk of out) {
      await sink.write(chunk);
      written += chunk.length;
    }
  };

  let framesDone = 0;
  const progress = (stage: string) => onProgress?.({ stage, done: framesDone, total: totalFrames, bytes: written });

  const add = async (path: string, data: Uint8Array, compress: boolean) => {
    if (signal?.aborted) throw new BundleCancelled('export');
    if (written + data.length > MAX_ARCHIVE_BYTES) {
      throw new RangeError(`The project is too large for one bundle (over 4 GB, the limit of zip files without zip64). Nothing was exported.`);
    }
    const file = compress ? new ZipDeflate(path, { level: 6 }) : new ZipPassThrough(path);
    file.mtime = mtime;
    zip.add(file);
    file.push(data, true);
    entries.push({ path, bytes: data.length, sha256: await sha256Hex(data) });
    await flush();
  };
  const addJson = (path: string, value: unknown) => add(path, new TextEncoder().encode(JSON.stringify(value)), true);

  try {
    progress('Starting');
    await addJson(PROJECT_PATH, { project } satisfies ProjectJson);
    for (const clip of clips) {
      progress(`Exporting "${clip.name}"`);
      await exportClip(db, clip, add, addJson, counts, () => {
        framesDone++;
        progress(`Exporting "${clip.name}"`);
      });
      counts.clips++;
    }
    await addJson(META_PATH, { meta } satisfies MetaJson);
    counts.meta = meta.length;
    const manifest: BundleManifest = {
      format: BUNDLE_FORMAT,
      formatVersion: BUNDLE_FORMAT_VERSION,
      schemaVersion: SCHEMA_VERSION,
      app: `spoc-studio ${pkg.version}`,
      createdAt: now,
      project: { id: project.id, name: project.name },
      counts,
      entries,
    };
    if (exportedBy) manifest.exportedBy = exportedBy;
    const file = new ZipDeflate(MANIFEST_PATH, { level: 6 });
    file.mtime = mtime;
    zip.add(file);
    file.push(new TextEncoder().encode(JSON.stringify(manifest, null, 1)), true);
    zip.end();
    await flush();
    await sink.close?.();
  } catch (err) {
    zip.terminate();
    await sink.abort?.(err);
    throw err;
  }
  progress('Done');
  return { projectId, projectName: project.name, bytes: written, entries: entries.length + 1, counts };
}

type Add = (path: string, data: Uint8Array, compress: boolean) => Promise<void>;
type AddJson = (path: string, value: unknown) => Promise<void>;

async function exportClip(db: SpocDb, clip: Clip, add: Add, addJson: AddJson, counts: BundleCounts, frameDone: () => void): Promise<void> {
  // One read transaction: the clip's rows are a consistent snapshot. Blobs read from IndexedDB are
  // handles; their bytes are read below, one image at a time.
  const read = await db.transaction('r', clipRowTables(db), () => readClipRows(db, clip.id));
  if (!read) throw new Error(`Clip "${clip.name}" was deleted during the export. Nothing was exported.`);
  const rows = { ...read, images: read.frameImages };
  const current = rows.clip;
  const frameImages: FrameImageRef[] = rows.images.map((im) => ({
    index: im.index,
    mime: im.mime,
    width: im.width,
    height: im.height,
    path: framePath(clip.id, im.index, im.blob.type),
    bytes: im.blob.size,
    blobType: im.blob.type,
  }));
  const thumb = rows.thumbnail;
  const json: ClipJson = {
    clip: current,
    frames: rows.frames,
    frameImages,
    thumbnail: thumb ? { path: thumbnailPath(clip.id, thumb.blob.type), bytes: thumb.blob.size, blobType: thumb.blob.type } : null,
    layers: rows.layers,
    reviewFlags: rows.reviewFlags,
    // The log's order is the list's order; seq numbers are local to a store and not carried, ids are (format v4).
    clipEvents: rows.clipEvents.sort((a, b) => a.seq - b.seq).map(({ seq: _seq, ...event }) => event),
    comments: rows.comments.sort((a, b) => a.frameIndex - b.frameIndex || a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    frameVerdicts: rows.frameVerdicts.sort((a, b) => a.seq - b.seq).map(({ seq: _seq, ...verdict }) => verdict),
    // Removed objects too: their ids go on naming them in the history (format v5).
    objects: rows.objects.sort((a, b) => a.number - b.number || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  };
  await addJson(clipJsonPath(clip.id), json);
  rows.revisions.sort((a, b) => a.seq - b.seq);
  await addJson(revisionsPath(clip.id), { revisions: rows.revisions } satisfies RevisionsJson);
  if (thumb) {
    await add(json.thumbnail!.path, await blobBytes(thumb.blob), !isCompressedImage(thumb.blob.type));
    counts.thumbnails++;
  }
  // The next image is read while the current one is hashed and written (each read is a round trip).
  let next = rows.images.length > 0 ? readAhead(rows.images[0].blob) : null;
  for (const [k, im] of rows.images.entries()) {
    const data = await next!;
    next = k + 1 < rows.images.length ? readAhead(rows.images[k + 1].blob) : null;
    await add(frameImages[k].path, data, !isCompressedImage(im.blob.type));
    frameDone();
  }
  counts.frames += rows.frames.length;
  counts.frameImages += rows.images.length;
  counts.layers += rows.layers.length;
  counts.revisions += rows.revisions.length;
  counts.reviewFlags += rows.reviewFlags.length;
  counts.clipEvents += rows.clipEvents.length;
  counts.comments += rows.comments.length;
  counts.frameVerdicts += rows.frameVerdicts.length;
  counts.objects += rows.objects.length;
}

async function blobBytes(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

/** blobBytes started ahead of use: a failure surfaces where it is awaited, never as an unhandled rejection. */
function readAhead(blob: Blob): Promise<Uint8Array> {
  const p = blobBytes(blob);
  p.catch(() => undefined);
  return p;
}
