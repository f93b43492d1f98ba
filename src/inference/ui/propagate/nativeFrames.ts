/**
 * The native frames between two sampled frames, decoded from the clip's kept source video
 * (docs/source-video.md), for the weight-free tracker: it then follows an object in small steps
 * instead of one jump across a second of motion (docs/inference.md, "Propagation"). Opened on the
 * first propagation, closed with the panel; without a video at hand propagation works from the
 * sampled frames alone.
 */
import type { RgbaImage } from '../../../masks/labelMap';
import type { SpocDb } from '../../../store/db';
import type { Clip } from '../../../store/types';
import { openSourceFrames, type SourceFrames } from '../../../io/video/sourceFrames';
import type { PropagationSource } from '../../propagate/propagateFrame';

/** Enough steps for the tracker to stay in small motions at 30 fps, bounded for 60 fps video. */
const MAX_STEPS_PER_GAP = 30;

export class NativeFrames {
  private opened: Promise<SourceFrames | null> | null = null;

  constructor(
    private readonly db: SpocDb,
    private readonly clip: Clip,
  ) {}

  /** A `framesBetween` for the propagation source, or undefined when the clip has no video at hand. */
  async forPropagation(): Promise<PropagationSource['framesBetween']> {
    this.opened ??= openSourceFrames(this.clip).catch((err: unknown) => {
      console.warn('The source video could not be opened; propagating from the sampled frames alone.', err);
      return null;
    });
    const frames = await this.opened;
    return frames ? (from, to) => this.between(frames, from, to) : undefined;
  }

  close(): void {
    void this.opened?.then((frames) => frames?.close());
    this.opened = null;
  }

  private async *between(frames: SourceFrames, from: number, to: number): AsyncIterable<RgbaImage> {
    const [a, b] = await Promise.all([this.db.frames.get([this.clip.id, from]), this.db.frames.get([this.clip.id, to])]);
    if (!a || !b) return;
    for await (const frame of frames.framesBetween(a.timestampSec, b.timestampSec, { max: MAX_STEPS_PER_GAP })) yield frame.image;
  }
}
