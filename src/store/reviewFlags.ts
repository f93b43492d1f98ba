import type { SpocDb } from './db';
import { notFound } from './errors';
import { RecordCheck, checkFlagDismissal } from './records';
import { clipFlagDismissals, sourceFlagDismissals } from './keys';
import type { FlagDismissal, LayerSource } from './types';

/*
 * Dismissals of automatic review flags (schema v3, table `reviewFlags`). The flags themselves are
 * recomputed from the masks whenever needed (src/review/flags); only the reviewer's decision to
 * dismiss one, with a reason, is stored, keyed by the flag's stable id.
 */

/**
 * Records (or re-records, replacing the reason) that a flag was dismissed. Validates against the
 * clip so a dismissal can never point outside it. Returns the stored row.
 */
export async function putFlagDismissal(db: SpocDb, input: FlagDismissal): Promise<FlagDismissal> {
  return db.transaction('rw', [db.clips, db.reviewFlags], async () => {
    const clip = await db.clips.get(input.clipId);
    if (!clip) throw notFound('Clip');
    const given = { ...input, reason: trimmed(input.reason), by: trimmed(input.by) };
    const row = checkFlagDismissal(new RecordCheck('The flag dismissal'), given, '', clip, 'input');
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

function trimmed(text: unknown): unknown {
  return typeof text === 'string' ? text.trim() : text;
}
