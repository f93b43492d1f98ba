/**
 * The clips' source videos, kept as files in the Origin Private File System (`videos/<sha256>`), so
 * the editor can play a clip at its native rate and code can decode the frames between the sampled
 * ones (io/video/sourceFrames.ts). Not in IndexedDB: every IndexedDB write is also journaled to OPFS
 * (docs/durability.md), so a video stored there would be kept twice. Clip rows only reference the
 * file (`clip.source.video`); one file serves every clip made from the same video.
 *
 * A file is written under a temporary name and renamed when whole, so a crash never leaves half a
 * video under a real name. Deleting clips for good removes the files no clip references any more
 * (removeUnreferencedVideos).
 */
import type { SpocDb } from './db';
import type { Clip, SourceVideoRef } from './types';

export interface VideoFiles {
  /** The kept file, or null when it is not there (OPFS cleared, another browser). */
  get(sha256: string): Promise<File | null>;
  /** Keeps `data` under its hash, whole or not at all. Keeping an already kept hash does nothing. */
  keep(sha256: string, data: Blob): Promise<void>;
  remove(sha256: string): Promise<void>;
  /** Hashes of the whole files kept, with when each was written (ms). */
  list(): Promise<{ sha256: string; writtenAt: number }[]>;
}

const DIR = 'videos';
const TMP = '.tmp';
const HEX64 = /^[0-9a-f]{64}$/;

export function isSha256Hex(value: unknown): value is string {
  return typeof value === 'string' && HEX64.test(value);
}

let opened: Promise<VideoFiles | null> | null = null;

/**
 * The OPFS video folder, or null where the browser has none (plain http outside localhost, old
 * browsers): then clips keep no video and the editor offers to link the file for this session.
 */
export function openVideoFiles(): Promise<VideoFiles | null> {
  opened ??= openOpfsVideos();
  return opened;
}

async function openOpfsVideos(): Promise<VideoFiles | null> {
  if (typeof navigator === 'undefined' || !navigator.storage?.getDirectory) return null;
  let dir: FileSystemDirectoryHandle;
  try {
    dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(DIR, { create: true });
  } catch {
    return null;
  }
  const notFound = (err: unknown) => err instanceof DOMException && (err.name === 'NotFoundError' || err.name === 'TypeMismatchError');
  const get = async (sha: string): Promise<File | null> => {
    if (!isSha256Hex(sha)) return null;
    try {
      return await (await dir.getFileHandle(sha)).getFile();
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  };
  return {
    get,
    keep: async (sha, data) => {
      if (!isSha256Hex(sha)) throw new Error(`"${sha}" is not a SHA-256`);
      const existing = await get(sha);
      if (existing && existing.size === data.size) return;
      // A unique temporary name: two tabs importing the same video never write into one file.
      const tmpName = `${sha}.${Math.random().toString(36).slice(2)}${TMP}`;
      const tmp = await dir.getFileHandle(tmpName, { create: true });
      const w = await tmp.createWritable();
      try {
        // Streamed, so a large video is never held in memory twice.
        await data.stream().pipeTo(w);
      } catch (err) {
        await w.abort().catch(() => undefined);
        await dir.removeEntry(tmpName).catch(() => undefined);
        throw err;
      }
      const movable = tmp as FileSystemFileHandle & { move?(name: string): Promise<void> };
      if (movable.move) {
        await dir.removeEntry(sha).catch(() => undefined);
        await movable.move(sha);
      } else {
        // No rename (older engines): createWritable's own swap file keeps this write whole too.
        const w2 = await (await dir.getFileHandle(sha, { create: true })).createWritable();
        await data.stream().pipeTo(w2);
        await dir.removeEntry(tmpName).catch(() => undefined);
      }
    },
    remove: async (sha) => {
      await dir.removeEntry(sha).catch((err: unknown) => {
        if (!notFound(err)) throw err;
      });
    },
    list: async () => {
      const out: { sha256: string; writtenAt: number }[] = [];
      // keys() is in every browser that has OPFS; TypeScript's DOM types lack the async iterator.
      for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) {
        if (!isSha256Hex(name)) continue;
        const file = await get(name).catch(() => null);
        if (file) out.push({ sha256: name, writtenAt: file.lastModified });
      }
      return out;
    },
  };
}

/** In-memory video files for unit tests. */
export class MemoryVideoFiles implements VideoFiles {
  readonly files = new Map<string, { data: Blob; writtenAt: number }>();
  now = () => Date.now();
  async get(sha: string): Promise<File | null> {
    const f = this.files.get(sha);
    return f ? new File([f.data], sha, { type: f.data.type, lastModified: f.writtenAt }) : null;
  }
  async keep(sha: string, data: Blob): Promise<void> {
    if (!this.files.has(sha)) this.files.set(sha, { data, writtenAt: this.now() });
  }
  async remove(sha: string): Promise<void> {
    this.files.delete(sha);
  }
  async list(): Promise<{ sha256: string; writtenAt: number }[]> {
    return [...this.files.entries()].map(([sha256, f]) => ({ sha256, writtenAt: f.writtenAt }));
  }
}

/** The source video a clip references, if any. */
export function videoRefOf(clip: Pick<Clip, 'source'>): SourceVideoRef | undefined {
  return clip.source.video;
}

/** Every video hash some clip references, trashed and incomplete clips included (they may come back). */
export async function referencedVideos(db: SpocDb): Promise<Set<string>> {
  const out = new Set<string>();
  await db.clips.each((c) => {
    const sha = c.source?.video?.sha256;
    if (sha) out.add(sha);
  });
  return out;
}

/**
 * A file younger than this is spared by the sweep although no clip references it yet: an import in
 * another tab writes the video before its clip rows.
 */
export const UNREFERENCED_GRACE_MS = 60 * 60_000;

/**
 * Removes the kept videos no clip references: those of clips deleted for good, and leftovers of an
 * import that failed or crashed after its video was written. Returns the hashes removed.
 */
export async function removeUnreferencedVideos(db: SpocDb, files: VideoFiles | null, now = Date.now()): Promise<string[]> {
  if (!files) return [];
  const used = await referencedVideos(db);
  const removed: string[] = [];
  for (const f of await files.list()) {
    if (used.has(f.sha256) || now - f.writtenAt < UNREFERENCED_GRACE_MS) continue;
    await files.remove(f.sha256);
    removed.push(f.sha256);
  }
  return removed;
}

/**
 * Removes the given videos where no clip references them any more (after deleting clips for good:
 * their files go at once, without waiting for the grace period of removeUnreferencedVideos).
 */
export async function removeVideosIfUnused(db: SpocDb, files: VideoFiles | null, hashes: Iterable<string>): Promise<string[]> {
  if (!files) return [];
  const used = await referencedVideos(db);
  const removed: string[] = [];
  for (const sha of new Set(hashes)) {
    if (used.has(sha)) continue;
    await files.remove(sha);
    removed.push(sha);
  }
  return removed;
}
