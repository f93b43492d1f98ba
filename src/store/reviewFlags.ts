import type { SpocDb } from './db';
import { StoreError, notFound } from './errors';
import { clipFlagDismissals, sourceFlagDismissals } from './keys';
import type { FlagDismissal, LayerSource } from './types';
import { isLayerSource } from './validate';

/*
 * Dismissals of automatic review flags (schema v3, table `reviewFlags`). The flags themselves are
 * recomputed from the masks whenever needed (src/review/flags); only the reviewer's decision to
 * dismiss one, with a reason, is stored, keyed by the flag's stable id.
 */

const MAX_REASON = 2000;

/**
 * Records (or re-records, replacing the reason) that a flag was dismissed. Validates against the
 * clip so a dismissal can never point outside it. Returns the stored row.
 */
export async function putFlagDismissal(db: SpocDb, input: FlagDismissal): Promise<FlagDismissal> {
  const row = checkDismissal(input);
  return db.transaction('rw', [db.clips, db.reviewFlags], async () => {
    const clip = await db.clips.get(row.clipId);
    if (!clip) throw notFound('Clip');
    if (row.frameIndex >= clip.frameCount) {
      throw new StoreError('invalid', `Flag at frame index ${row.frameIndex} is outside the clip (${clip.frameCount} frames).`);
    }
    if (row.box) {
      const { x, y, w, h } = row.box;
      if (x + w > clip.width || y + h > clip.height) {
        throw new StoreError('invalid', `Flag box ${w}x${h} at (${x}, ${y}) is not inside the ${clip.width}x${clip.height} frame.`);
      }
    }
    await db.reviewFlags.put(row);
    return row;
  });
}

/** A clip's dismissals, of one source or (without `source`) of all. */
export async function listFlagDismissals(db: SpocDb, clipId: string, source?: LayerSource): Promise<FlagDismissal[]> {
  return (source === undefined ? clipFlagDismissals(db, clipId) : sourceFlagDismissals(db, clipId, source)).toArray();
}

/** Un-dismisses a flag (it shows again). Returns whether there was a dismissal to remove. */
export async function deleteFlagDismissal(db: SpocDb, clipId: string, source: LayerSource, flagId: string): Promise<boolean> {
  return db.transaction('rw', db.reviewFlags, async () => {
    const key: [string, LayerSource, string] = [clipId, source, flagId];
    if (!(await db.reviewFlags.get(key))) return false;
    await db.reviewFlags.delete(key);
    return true;
  });
}

function checkDismissal(d: FlagDismissal): FlagDismissal {
  if (!d.clipId) throw new StoreError('invalid', 'A flag dismissal needs its clip.');
  if (!isLayerSource(d.source)) throw new StoreError('invalid', `Unknown layer source "${d.source}".`);
  if (typeof d.flagId !== 'string' || !d.flagId.trim()) throw new StoreError('invalid', 'A flag dismissal needs the flag id.');
  if (typeof d.kind !== 'string' || !d.kind.trim()) throw new StoreError('invalid', 'A flag dismissal needs the flag kind.');
  if (!Number.isInteger(d.frameIndex) || d.frameIndex < 0) {
    throw new StoreError('invalid', `Flag frame index ${d.frameIndex} is not a frame.`);
  }
  const reason = typeof d.reason === 'string' ? d.reason.trim() : '';
  if (!reason) throw new StoreError('invalid', 'Say why the flag is dismissed (the reason is empty).');
  if (reason.length > MAX_REASON) throw new StoreError('invalid', `The reason is ${reason.length} characters long (at most ${MAX_REASON}).`);
  if (typeof d.by !== 'string' || !d.by.trim()) throw new StoreError('invalid', 'A flag dismissal needs who dismissed it.');
  if (!Number.isFinite(d.at)) throw new StoreError('invalid', 'A flag dismissal needs a time.');
  const row: FlagDismissal = {
    clipId: d.clipId,
    source: d.source,
    flagId: d.flagId,
    kind: d.kind,
    frameIndex: d.frameIndex,
    reason,
    by: d.by.trim(),
    at: d.at,
  };
  if (d.box) {
    const { x, y, w, h } = d.box;
    if (![x, y, w, h].every(Number.isInteger) || x < 0 || y < 0 || w <= 0 || h <= 0) {
      throw new StoreError('invalid', `Flag box ${w}x${h} at (${x}, ${y}) is not a box of whole pixels.`);
    }
    row.box = { x, y, w, h };
  }
  return row;
}
