/**
 * The flags of a stored clip for the editor: like loadClipFlags, but the layers are decoded a few
 * frames at a time with a yield to the event loop in between, so a long clip never freezes the UI,
 * and the work can be abandoned (the clip changed, the panel closed) through an AbortSignal. Each
 * slice's maps are let go once its flags are found (FlagAccumulator), so a long 4K clip needs the
 * memory of one slice, not of the whole clip.
 */
import type { SpocDb } from '../store/db';
import { getClip } from '../store/clips';
import { StoreError } from '../store/errors';
import { listFrames } from '../store/frames';
import { listLayers } from '../store/layers';
import { listFlagDismissals } from '../store/reviewFlags';
import type { LayerSource } from '../store/types';
import { applyDismissals, FlagAccumulator, flagFramesFromLayers, type Flag, type FlagOptions, type SplitFlags } from './flags';

export interface ClipFlags extends SplitFlags {
  /** Every flag, open or not, in display order. */
  all: Flag[];
}

export interface ChunkedFlagOptions extends FlagOptions {
  /** Frames decoded per slice (default 4). */
  chunk?: number;
  signal?: AbortSignal;
  onProgress?: (decoded: number, total: number) => void;
  /** How to yield between slices (default a macrotask); tests pass a counter. */
  yieldNow?: () => Promise<void>;
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function loadClipFlagsInChunks(
  db: SpocDb,
  clipId: string,
  source: LayerSource = 'gt',
  options: ChunkedFlagOptions = {},
): Promise<ClipFlags> {
  const { chunk = 4, signal, onProgress, yieldNow = macrotask, ...flagOptions } = options;
  const clip = await getClip(db, clipId);
  if (!clip) throw new StoreError('not_found', 'Clip was not found; it may have been deleted in another tab.');
  const [frames, layers, dismissals] = await Promise.all([listFrames(db, clipId), listLayers(db, clipId, source), listFlagDismissals(db, clipId, source)]);
  const flags = new FlagAccumulator(flagOptions);
  let decoded = 0;
  for (let i = 0; i < frames.length; i += Math.max(1, chunk)) {
    signal?.throwIfAborted();
    const slice = frames.slice(i, i + Math.max(1, chunk));
    const first = slice[0].index;
    const last = slice[slice.length - 1].index;
    flags.add(flagFramesFromLayers(slice, layers.filter((l) => l.frameIndex >= first && l.frameIndex <= last), clip));
    decoded += slice.length;
    onProgress?.(decoded, frames.length);
    await yieldNow();
  }
  signal?.throwIfAborted();
  const all = flags.finish();
  return { all, ...applyDismissals(all, dismissals) };
}
