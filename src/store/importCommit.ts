import { clipTables, deleteClipRows } from './clips';
import { IMPORT_CHUNK_LIMITS, fitsOneChunk, planChunks, type ChunkLimits, type FrameChunk } from './importChunks';
import type { SpocDb } from './db';
import { StoreError, isQuotaError, notFound, reasonOf } from './errors';
import { leaveNextUnnumbered } from './journal/capture';
import {
  type Clip,
  type Frame,
  type FrameIgnored,
  type FrameImage,
  type FramePhase,
  type Layer,
  type LayerInstances,
  type LayerSource,
  type Project,
  type Provenance,
  type Rle,
} from './types';
import { buildLayer } from './validate';
import { FRAME_WORDS, RecordCheck, checkClip, checkFrame } from './records';
import { newId } from './ids';

export interface DraftFrame {
  timestampSec: number;
  image: Blob;
  mime: string;
  phase?: FramePhase;
  /** The frame's file stem ("frame0007") when it came from a file; unique per clip ignoring case. */
  name?: string;
  /** Ignored with a guideline reason (WhereToChange metadata, all-"ignore" release masks). */
  ignored?: FrameIgnored;
  reviewed?: boolean;
}

export interface DraftLayer {
  frameIndex: number;
  source: LayerSource;
  act: Rle;
  trf: Rle;
  provenance: Provenance;
  instances?: LayerInstances;
}

/** Everything an importer produced for one clip, held in memory until it is committed at once. */
export interface ClipImportDraft {
  projectId: string;
  clip: Omit<Clip, 'id' | 'createdAt' | 'updatedAt'>;
  frames: DraftFrame[];
  layers?: DraftLayer[];
  thumbnail?: Blob;
}

/**
 * Writes a whole clip — clip row, frames, images, layers, thumbnail — all or nothing: any failure (a
 * validation error, a duplicate key, QuotaExceededError, an aborted transaction) leaves the store
 * exactly as before, with no half-imported clip to clean up by hand. Errors come out as StoreError
 * with a message for the person importing.
 */
export async function commitClipImport(db: SpocDb, draft: ClipImportDraft): Promise<Clip> {
  const [clip] = await commitClipImports(db, [draft]);
  return clip;
}

export interface CommitOptions {
  /** A project row to create with the clips (e.g. the demo project): drafts may name it. */
  newProject?: Project;
  /** Transaction bounds (importChunks.ts); tests shrink them to exercise the chunked path. */
  limits?: ChunkLimits;
  /**
   * Frames written so far, after each committed chunk. Awaited before the next chunk starts, so
   * what it reads or does sees the store between two commits (tests act as another tab there).
   */
  onProgress?: (framesSaved: number, framesTotal: number) => void | Promise<void>;
}

/** Clip ids whose chunked import runs in this tab now: their marker means "being saved", not "interrupted". */
const runningHere = new Set<string>();

/** Whether this tab is writing the clip's import at this moment (the dashboard says "saving", not "incomplete"). */
export function isImportRunningHere(clipId: string): boolean {
  return runningHere.has(clipId);
}

/**
 * Several clips (a WhereToChange folder holds one per video): all land or none.
 *
 * A batch that fits one bounded chunk is written in ONE transaction. A larger one is written in
 * bounded transactions (importChunks.ts says why): first the clip rows with an `importing` marker,
 * then frames, images and layers chunk by chunk, then the thumbnails, the marker cleared and the
 * projects touched. Lists skip marked clips, so nobody sees a half-written clip; if any step fails
 * everything written for these clips is deleted again and the same error as for one transaction
 * is thrown. Only a crash or a closed tab can leave a marked clip behind, which the dashboard shows
 * as an incomplete import to remove. Quota failures often surface only when a transaction commits,
 * so errors are mapped around whole transactions, not around each write.
 */
export async function commitClipImports(db: SpocDb, drafts: readonly ClipImportDraft[], options: CommitOptions = {}): Promise<Clip[]> {
  const now = Date.now();
  const label = drafts.length === 1 ? drafts[0].clip?.name?.trim() || '(unnamed)' : `${drafts.length} clips`;
  const frameCount = drafts.reduce((n, d) => n + (Array.isArray(d.frames) ? d.frames.length : 0), 0);

  let rows: ImportRows[];
  try {
    if (drafts.length === 0) throw invalid('there is nothing to import');
    rows = drafts.map((d) => buildImportRows(d, newId(), now));
  } catch (err) {
    throw failure(err, label, frameCount, 0);
  }

  const limits = options.limits ?? IMPORT_CHUNK_LIMITS;
  const sizes = rows.map((r) => r.images.map((i) => i.blob.size));
  try {
    if (fitsOneChunk(sizes, limits)) await writeInOneTransaction(db, drafts, rows, options.newProject, now);
    else await writeInChunks(db, drafts, rows, planChunks(sizes, limits), options, now);
  } catch (err) {
    if (err instanceof CleanupFailed) throw cleanupFailure(err, label);
    throw failure(err, label, frameCount, drafts.reduce((n, d) => n + draftBytes(d), 0));
  }
  await options.onProgress?.(frameCount, frameCount);
  return rows.map((r) => r.clip);
}

async function writeInOneTransaction(db: SpocDb, drafts: readonly ClipImportDraft[], rows: ImportRows[], newProject: Project | undefined, now: number) {
  await db.transaction('rw', [db.projects, ...clipTables(db)], async () => {
    if (newProject) await db.projects.add(newProject);
    for (const [i, r] of rows.entries()) {
      const draft = drafts[i];
      if (!(await db.projects.get(draft.projectId))) throw notFound('Its project');
      await db.clips.add(r.clip);
      await db.frames.bulkAdd(r.frames);
      await db.frameImages.bulkAdd(r.images);
      if (r.layers.length > 0) await db.layers.bulkAdd(r.layers);
      if (draft.thumbnail) await db.thumbnails.add({ clipId: r.clip.id, blob: draft.thumbnail });
      await db.projects.update(draft.projectId, { updatedAt: now });
    }
  });
}

async function writeInChunks(
  db: SpocDb,
  drafts: readonly ClipImportDraft[],
  rows: ImportRows[],
  chunks: readonly FrameChunk[],
  options: CommitOptions,
  now: number,
) {
  const ids = rows.map((r) => r.clip.id);
  const total = rows.reduce((n, r) => n + r.frames.length, 0);
  // Until the first transaction commits nothing is ours to delete: a failing clips.add (a duplicate
  // id) must not lead the cleanup to delete the clip that already had that id.
  let started = false;
  for (const id of ids) runningHere.add(id);
  try {
    await db.transaction('rw', [db.projects, db.clips], async () => {
      if (options.newProject) await db.projects.add(options.newProject);
      for (const [i, r] of rows.entries()) {
        if (!(await db.projects.get(drafts[i].projectId))) throw notFound('Its project');
        await db.clips.add({ ...r.clip, importing: { startedAt: now, framesExpected: r.frames.length } });
      }
    });
    started = true;
    let saved = 0;
    for (const c of chunks) {
      const r = rows[c.clip];
      await db.transaction('rw', [db.clips, db.frames, db.frameImages, db.layers], async () => {
        await expectMarked(db, r.clip.id);
        await db.frames.bulkAdd(r.frames.slice(c.from, c.to));
        await db.frameImages.bulkAdd(r.images.slice(c.from, c.to));
        const layers = r.layers.filter((l) => l.frameIndex >= c.from && l.frameIndex < c.to);
        if (layers.length > 0) await db.layers.bulkAdd(layers);
      });
      saved += c.to - c.from;
      await options.onProgress?.(saved, total);
    }
    await db.transaction('rw', [db.projects, db.clips, db.thumbnails], async () => {
      for (const [i, r] of rows.entries()) {
        await expectMarked(db, r.clip.id);
        const thumbnail = drafts[i].thumbnail;
        if (thumbnail) await db.thumbnails.add({ clipId: r.clip.id, blob: thumbnail });
        await db.clips.put(r.clip); // the row as built, without the marker
        await db.projects.update(drafts[i].projectId, { updatedAt: now });
      }
    });
  } catch (err) {
    if (started) await removeStarted(db, ids, options.newProject, err);
    throw err;
  } finally {
    for (const id of ids) runningHere.delete(id);
  }
}

/** Between chunks other tabs may delete the clip or its project; writing on would leave orphan rows. */
async function expectMarked(db: SpocDb, clipId: string): Promise<void> {
  const row = await db.clips.get(clipId);
  if (!row?.importing) throw new StoreError('failed', 'the clip was removed while it was being saved');
}

/** Thrown when deleting a failed import's rows failed too: the store is then NOT as before. */
class CleanupFailed extends Error {
  constructor(
    readonly original: unknown,
    readonly cleanup: unknown,
  ) {
    super('cleanup failed');
  }
}

/** Deletes every row written for the clips (and the project the import created), in one transaction. */
async function removeStarted(db: SpocDb, clipIds: readonly string[], newProject: Project | undefined, original: unknown): Promise<void> {
  const tables = [db.projects, ...clipTables(db)];
  const remove = () =>
    db.transaction('rw', tables, async () => {
      for (const id of clipIds) await deleteClipRows(db, id);
      if (newProject) await db.projects.delete(newProject.id);
    });
  try {
    await remove();
  } catch (cleanup) {
    if (!isQuotaError(cleanup)) throw new CleanupFailed(original, cleanup);
    // A disk over quota refuses even the journal's tiny change-number write, and with it the
    // deletes: let this one transaction through unnumbered (docs/durability.md).
    leaveNextUnnumbered(tables.map((t) => t.name));
    try {
      await remove();
    } catch (again) {
      throw new CleanupFailed(original, again);
    }
  }
}

interface ImportRows {
  clip: Clip;
  frames: Frame[];
  images: FrameImage[];
  layers: Layer[];
}

/**
 * Validates the draft and builds every row up front: nothing asynchronous may run inside the
 * transaction. Each row passes its validator (records/); what only the whole draft can tell (frame
 * count, times increasing, names unique, one layer per source and frame) is checked here.
 */
export function buildImportRows(draft: ClipImportDraft, clipId: string, now: number): ImportRows {
  const c = draft.clip;
  if (!c) throw invalid('the draft has no clip');
  if (!draft.projectId) throw invalid('the draft names no project');
  if (c.projectId !== draft.projectId) throw invalid('the clip belongs to a different project than the draft');
  if (!Array.isArray(draft.frames) || draft.frames.length === 0) throw invalid('it has no frames');
  if (c.frameCount !== draft.frames.length) {
    throw invalid(`it declares ${c.frameCount} frames but ${draft.frames.length} were decoded`);
  }
  const name = typeof c.name === 'string' ? c.name.trim() : c.name;
  const clip = checkClip(new RecordCheck('the clip'), { ...c, name, id: clipId, createdAt: now, updatedAt: now }, '', 'input');

  const frames: Frame[] = [];
  const images: FrameImage[] = [];
  let lastTime = -Infinity;
  const names = new Map<string, number>();
  draft.frames.forEach((f, index) => {
    if (!(f.image instanceof Blob)) throw invalid(`frame ${index} has no image`);
    if (!f.mime) throw invalid(`frame ${index} has no image type`);
    if (!Number.isFinite(f.timestampSec) || f.timestampSec < 0 || f.timestampSec <= lastTime) {
      throw invalid(`frame ${index} has time ${f.timestampSec}s; times must be non-negative and increasing`);
    }
    lastTime = f.timestampSec;
    const row: Frame = { clipId, index, timestampSec: f.timestampSec };
    if (f.phase !== undefined) row.phase = f.phase;
    if (f.ignored !== undefined) row.ignored = f.ignored;
    if (f.reviewed === true) row.reviewed = true;
    if (f.name !== undefined) row.name = f.name;
    const frame = checkFrame(new RecordCheck(`frame ${index}`, FRAME_WORDS), row, '', clipId, 'input');
    if (frame.name !== undefined) {
      const other = names.get(frame.name.toLowerCase());
      if (other !== undefined) throw invalid(`frames ${other} and ${index} are both named "${frame.name}" (names must differ, ignoring case)`);
      names.set(frame.name.toLowerCase(), index);
    }
    frames.push(frame);
    images.push({ clipId, index, blob: f.image, mime: f.mime, width: clip.width, height: clip.height });
  });

  const seen = new Set<string>();
  const layers = (draft.layers ?? []).map((l) => {
    const key = `${l.source}\u0000${l.frameIndex}`;
    if (seen.has(key)) throw invalid(`two ${l.source} layers for frame index ${l.frameIndex}`);
    seen.add(key);
    return buildLayer({ ...l, clipId }, clip, now);
  });
  return { clip, frames, images, layers };
}

/** Bytes the import will store, for the quota message (RLE strings are small next to images). */
export function draftBytes(draft: ClipImportDraft): number {
  let bytes = draft.thumbnail?.size ?? 0;
  for (const f of draft.frames ?? []) bytes += f.image?.size ?? 0;
  for (const l of draft.layers ?? []) bytes += (l.act?.counts.length ?? 0) + (l.trf?.counts.length ?? 0);
  return bytes;
}

function invalid(reason: string): StoreError {
  return new StoreError('invalid', reason);
}

function failure(err: unknown, name: string, frames: number, bytes: number): StoreError {
  if (isQuotaError(err)) {
    const mb = (bytes / (1024 * 1024)).toFixed(1);
    return new StoreError(
      'quota',
      `Storage is full: could not save ${what(name)} (${frames} frames, ${mb} MB). Free space or delete clips; nothing was saved.`,
      { cause: err },
    );
  }
  const code = err instanceof StoreError ? err.code : 'failed';
  return new StoreError(code, `Could not save ${what(name)}: ${trimDot(reasonOf(err))}. Nothing was saved.`, {
    cause: err,
  });
}

function cleanupFailure(err: CleanupFailed, name: string): StoreError {
  const why = isQuotaError(err.original) ? 'storage is full' : trimDot(reasonOf(err.original));
  return new StoreError(
    'failed',
    `Could not save ${what(name)}: ${why}, and the part already saved could not be removed (${trimDot(reasonOf(err.cleanup))}). ` +
      'It shows as an incomplete import on the project page; remove it there.',
    { cause: err.original },
  );
}

/** `name` is a clip name, or "N clips" for a batch. */
function what(name: string): string {
  return /^\d+ clips$/.test(name) ? name : `clip "${name}"`;
}

function trimDot(s: string): string {
  return s.replace(/[.\s]+$/, '');
}
