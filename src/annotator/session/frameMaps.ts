/**
 * The label maps of the frames this tab knows, other than the one shown: the last few frames shown
 * or edited (this tab holds the clip's edit lock, so they are the truth) and the reads from the
 * store under way. One read per frame at a time: whoever asks while the look-ahead reads a frame
 * gets the very map it will keep, so an edit of that frame cannot be lost under a second copy.
 * Dropping everything (a reload after another tab's change) also disowns the reads under way.
 */
import type { LabelMap } from '../../masks/labelMap';

/** A 1080p map is 2 MB. */
const KEPT_MAPS = 8;

export class FrameMaps {
  private readonly kept = new Map<number, LabelMap>();
  private readonly reads = new Map<number, Promise<LabelMap>>();
  private generation = 0;

  /** @param read reads frame k's map from the store (after pending writes have landed). */
  constructor(private readonly read: (index: number) => Promise<LabelMap>) {}

  has(index: number): boolean {
    return this.kept.has(index);
  }

  /** Frame k's map: kept, being read, or read now. */
  get(index: number): Promise<LabelMap> {
    const kept = this.kept.get(index);
    if (kept) return Promise.resolve(kept);
    const reading = this.reads.get(index);
    if (reading) return reading;
    const read = this.read(index).finally(() => {
      if (this.reads.get(index) === read) this.reads.delete(index);
    });
    this.reads.set(index, read);
    return read;
  }

  /** Keeps frame k's map, the most recent of the few kept. */
  keep(index: number, map: LabelMap): void {
    this.kept.delete(index);
    this.kept.set(index, map);
    while (this.kept.size > KEPT_MAPS) this.kept.delete(this.kept.keys().next().value!);
  }

  /**
   * Reads frame k ahead of need and keeps it, unless it is kept already or `unwanted()` says no by
   * the time the read lands (the frame is shown by then, or everything was dropped meanwhile).
   */
  readAhead(index: number, unwanted: () => boolean): void {
    if (this.kept.has(index)) return;
    const generation = this.generation;
    this.get(index)
      .then((map) => {
        if (generation === this.generation && !unwanted() && !this.kept.has(index)) this.keep(index, map);
      })
      .catch(() => undefined); // the frame's own switch reads it again and reports the error
  }

  /** Forgets every map, and the reads under way. */
  clear(): void {
    this.kept.clear();
    this.reads.clear();
    this.generation++;
  }
}
