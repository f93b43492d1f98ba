/**
 * The flags of a stored clip, with the reviewer's dismissals applied, and dismissing one: the glue
 * between the pure flags (review/flags) and the store (reviewFlags table, schema v3).
 */
import type { SpocDb } from '../store/db';
import { StoreError } from '../store/errors';
import { deleteFlagDismissal, putFlagDismissal } from '../store/reviewFlags';
import type { FlagDismissal, LayerSource } from '../store/types';
import { dismissFlag, type Flag, type FlagOptions } from './flags';
import { loadClipFlagsInChunks, type ClipFlags } from './flagLoader';

export type { ClipFlags } from './flagLoader';

/**
 * Computes a clip's flags over one source (default gt) and splits off the dismissed ones. Decodes
 * a slice of frames at a time without yielding (flagLoader.ts yields, for the editor).
 */
export function loadClipFlags(db: SpocDb, clipId: string, source: LayerSource = 'gt', options: FlagOptions = {}): Promise<ClipFlags> {
  return loadClipFlagsInChunks(db, clipId, source, { ...options, chunk: 16, yieldNow: () => Promise.resolve() });
}

/** Dismisses a flag with a reason; it stays dismissed across recomputations while its region is unchanged. */
export async function saveFlagDismissal(
  db: SpocDb,
  flag: Flag,
  reason: string,
  ctx: { clipId: string; by: string; source?: LayerSource },
): Promise<FlagDismissal> {
  let row: FlagDismissal;
  try {
    row = dismissFlag(flag, reason, ctx);
  } catch (err) {
    throw new StoreError('invalid', err instanceof Error ? capitalise(err.message) + '.' : String(err));
  }
  return putFlagDismissal(db, row);
}

/** Brings a dismissed flag back. */
export async function undoFlagDismissal(db: SpocDb, clipId: string, flagId: string, source: LayerSource = 'gt'): Promise<boolean> {
  return deleteFlagDismissal(db, clipId, source, flagId);
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
