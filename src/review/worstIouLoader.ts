/** Store bridge of worstIou.ts: per-frame IoUs of a stored prediction against the stored gt. */
import { countProject, type CountCache } from '../metrics/panels/projectEval';
import type { SpocDb } from '../store/db';
import type { Clip, LayerSource } from '../store/types';
import { frameIouRows, type FrameIou } from './worstIou';

/**
 * IoUs of every non-ignored frame of `clip`, `source` against gt, counted by the metrics code
 * (countFrame where both sides have pixels, countsFromAreas where one is empty; a frame without a
 * prediction layer is an empty prediction). Yields to the page between chunks.
 */
export async function loadFrameIous(db: SpocDb, clip: Clip, source: LayerSource, options: { cache?: CountCache; signal?: AbortSignal } = {}): Promise<FrameIou[]> {
  const counted = await countProject(db, [clip], source, { cache: options.cache, signal: options.signal });
  const frames = counted.clips[0]?.frames ?? [];
  return frameIouRows(frames.map((f) => f.counts));
}
