/**
 * Which frames of a clip an evaluation walks, and what each one is: the one definition the app's
 * project panel (panels/projectEval.ts) and `spoc-studio eval` (cli/evaluate.ts) both follow, so
 * their counts cannot drift apart (docs/metrics.md, "Which frames are evaluated"). Pure.
 *
 * - The clip's frames are the listed ones (the app's frame rows; the frames of an exported metadata
 *   file), in their order; a GT mask of a frame the list lacks is appended (natural order kept).
 *   Without a list (the SPOC release has no metadata) the frames are those with a GT mask.
 * - An **ignored** frame is counted as ignored and never scored, whether or not it has masks.
 * - Every other frame is **evaluated**: without a GT mask it is an all-background GT (nothing of
 *   either state there), without a prediction it is a **missing prediction**, scored as empty.
 */
import type { CountedFrame, FrameCounts, Phase } from './spoc';

export interface ListedFrame<K> {
  key: K;
  ignored: boolean;
  phase?: Phase;
}

export interface PlannedFrame<K, G, P> {
  key: K;
  ignored: boolean;
  phase?: Phase;
  /** The frame's GT mask, or undefined: an all-background GT. */
  gt: G | undefined;
  /** The frame's prediction, or undefined: a missing prediction. */
  pred: P | undefined;
}

/**
 * The frames to walk for one clip. `listed` null means "no frame list": the GT masks' keys, in the
 * map's order. `ignoredKeys` marks frames ignored by a source that lists no frames (a hand-written
 * metadata file), on top of the list's own flags.
 */
export function planClipFrames<K, G, P>(
  listed: readonly ListedFrame<K>[] | null,
  gt: ReadonlyMap<K, G>,
  pred: ReadonlyMap<K, P>,
): PlannedFrame<K, G, P>[] {
  const frames: ListedFrame<K>[] = listed ? [...listed] : [];
  const seen = new Set(frames.map((f) => f.key));
  for (const key of gt.keys()) if (!seen.has(key)) frames.push({ key, ignored: false });
  return frames.map((f) => ({ key: f.key, ignored: f.ignored, phase: f.phase, gt: gt.get(f.key), pred: pred.get(f.key) }));
}

/** What the SPOC aggregation keeps of a planned frame: its counts unless ignored, its phase, whether the prediction was missing. */
export function countedFrame(frame: Pick<PlannedFrame<unknown, unknown, unknown>, 'ignored' | 'phase' | 'pred'>, counts: FrameCounts | null): CountedFrame {
  return { counts: frame.ignored ? null : counts, phase: frame.phase, missingPred: frame.pred === undefined };
}
