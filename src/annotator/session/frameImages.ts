/**
 * Decoded frame pictures, a few at a time: the current frame and its neighbours (prefetched in the
 * background), so switching frames is instant while memory stays bounded whatever the clip length.
 */
import type { SpocDb } from '../../store/db';
import { getFrameImage } from '../../store/frames';

export class FrameImageCache {
  private readonly entries = new Map<number, Promise<ImageBitmap | null>>();
  private readonly db: SpocDb;
  private readonly clipId: string;
  private readonly capacity: number;

  constructor(db: SpocDb, clipId: string, capacity = 7) {
    this.db = db;
    this.clipId = clipId;
    this.capacity = capacity;
  }

  get(index: number): Promise<ImageBitmap | null> {
    let entry = this.entries.get(index);
    if (entry) {
      this.entries.delete(index); // most recently used last
    } else {
      entry = getFrameImage(this.db, this.clipId, index).then((row) => (row ? createImageBitmap(row.blob) : null));
    }
    this.entries.set(index, entry);
    this.evict(index);
    return entry;
  }

  /** Decodes neighbours in the background. */
  prefetch(index: number, frameCount: number, radius = 2): void {
    for (let d = 1; d <= radius; d++) {
      for (const k of [index + d, index - d]) {
        if (k >= 0 && k < frameCount && !this.entries.has(k)) {
          const entry = getFrameImage(this.db, this.clipId, k).then((row) => (row ? createImageBitmap(row.blob) : null));
          entry.catch(() => this.entries.delete(k));
          this.entries.set(k, entry);
        }
      }
    }
    this.evict(index);
  }

  /** Number of decoded pictures held (the bound the benchmark reports). */
  get size(): number {
    return this.entries.size;
  }

  destroy(): void {
    for (const e of this.entries.values()) void e.then((b) => b?.close()).catch(() => undefined);
    this.entries.clear();
  }

  private evict(keep: number): void {
    while (this.entries.size > this.capacity) {
      // Drop the frame farthest from the one in view.
      let far = -1;
      let dist = -1;
      for (const k of this.entries.keys()) {
        if (Math.abs(k - keep) > dist) {
          dist = Math.abs(k - keep);
          far = k;
        }
      }
      const e = this.entries.get(far)!;
      this.entries.delete(far);
      void e.then((b) => b?.close()).catch(() => undefined);
    }
  }
}
