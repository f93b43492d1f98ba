/**
 * How a large import is cut into bounded write transactions (pure; store/importCommit.ts runs them).
 *
 * Why bounded: a browser killed in the first milliseconds of one 600-frame, 40 MB IndexedDB
 * transaction was seen to leave Chromium's LevelDB files damaged, and the whole database was
 * dropped at a later restart (Chromium 156, an origin without persistent storage).
 * Chromium writes a transaction's rows as one LevelDB batch at commit; small batches keep each
 * commit short, so a crash lands between commits far more often than inside one, and what it
 * interrupts is a few megabytes, not the whole import. The clip row carries a marker until the last
 * transaction clears it, so an interrupted import shows as an incomplete, removable clip.
 *
 * The numbers: 32 frames is about one second of 30 fps video and ~8 MB of 720p JPEGs; 8 MB is a
 * fifth of the write that was seen to damage the files. Each extra commit costs a few milliseconds,
 * so a 600-frame import pays ~20 commits for it — nothing next to decoding.
 */

export interface ChunkLimits {
  /** At most this many frames (rows in frames and frameImages, plus their layers) per transaction. */
  maxFrames: number;
  /** At most this many image bytes per transaction; a single larger frame still gets a chunk of its own. */
  maxBytes: number;
}

export const IMPORT_CHUNK_LIMITS: ChunkLimits = { maxFrames: 32, maxBytes: 8 * 1024 * 1024 };

/** Frames [from, to) of the clip at `clip` (index into the batch). */
export interface FrameChunk {
  clip: number;
  from: number;
  to: number;
}

/**
 * Consecutive frame ranges per clip, each within the limits. A chunk never spans two clips, so a
 * chunk's transaction touches one clip row (checked to still exist) and its frames.
 */
export function planChunks(frameBytesPerClip: readonly (readonly number[])[], limits: ChunkLimits): FrameChunk[] {
  const maxFrames = Math.max(1, Math.floor(limits.maxFrames));
  const chunks: FrameChunk[] = [];
  frameBytesPerClip.forEach((sizes, clip) => {
    let from = 0;
    let bytes = 0;
    for (let i = 0; i < sizes.length; i++) {
      const full = i - from >= maxFrames || (i > from && bytes + sizes[i] > limits.maxBytes);
      if (full) {
        chunks.push({ clip, from, to: i });
        from = i;
        bytes = 0;
      }
      bytes += sizes[i];
    }
    if (sizes.length > from) chunks.push({ clip, from, to: sizes.length });
  });
  return chunks;
}

/** Whether the whole batch fits one bounded transaction, in which case it is written in one as before. */
export function fitsOneChunk(frameBytesPerClip: readonly (readonly number[])[], limits: ChunkLimits): boolean {
  let frames = 0;
  let bytes = 0;
  for (const sizes of frameBytesPerClip) {
    frames += sizes.length;
    for (const b of sizes) bytes += b;
  }
  return frames <= limits.maxFrames && bytes <= limits.maxBytes;
}
