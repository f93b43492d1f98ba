import type { SpocDb } from './db';
import { StoreError, isQuotaError, notFound, reasonOf } from './errors';
import { sourceLayers } from './keys';
import { touchClip, touchTables } from './touch';
import type { Layer, LayerInput, LayerSource } from './types';
import { buildLayer } from './validate';

export interface SourceLayersOptions {
  /** Replace an existing set of layers of the same source (default: refuse, nothing is written). */
  replace?: boolean;
}

export interface SourceLayersResult {
  /** Layers written. */
  written: number;
  /** Layers of the same source deleted first (0 unless `replace`). */
  replaced: number;
}

/**
 * Writes a whole set of layers of one non-gt source (an imported prediction `pred:<name>`, or
 * proposals) into a clip in ONE transaction: every layer lands, or none does and the store is as it
 * was. `gt` is refused: ground truth changes only through edits with revisions (saveLayerEdit).
 * An existing set of the same source is an error unless `replace` is set, in which case it is
 * deleted in the same transaction (frames the new set lacks then have no layer of that source).
 */
export async function writeSourceLayers(
  db: SpocDb,
  clipId: string,
  source: LayerSource,
  layers: readonly Omit<LayerInput, 'clipId' | 'source'>[],
  options: SourceLayersOptions = {},
): Promise<SourceLayersResult> {
  if (source === 'gt') {
    throw new StoreError('invalid', 'Ground truth (gt) cannot be written as a layer set; it changes only through edits with history.');
  }
  const seen = new Set<number>();
  for (const l of layers) {
    if (seen.has(l.frameIndex)) throw new StoreError('invalid', `Two ${source} layers for frame index ${l.frameIndex}.`);
    seen.add(l.frameIndex);
  }
  try {
    return await db.transaction('rw', [db.layers, ...touchTables(db)], async () => {
      const clip = await db.clips.get(clipId);
      if (!clip) throw notFound('Clip');
      const now = Date.now();
      const rows: Layer[] = layers.map((l) => buildLayer({ ...l, clipId, source }, clip, now));
      const existing = await sourceLayers(db, clipId, source).count();
      if (existing > 0 && !options.replace) {
        throw new StoreError(
          'invalid',
          `Clip "${clip.name}" already has ${source} layers (${existing} frames); choose another name or replace them.`,
        );
      }
      const replaced = existing > 0 ? await sourceLayers(db, clipId, source).delete() : 0;
      if (rows.length > 0) await db.layers.bulkAdd(rows);
      await touchClip(db, clipId, now, false);
      return { written: rows.length, replaced };
    });
  } catch (err) {
    if (isQuotaError(err)) {
      throw new StoreError('quota', `Storage is full: could not save the ${source} layers. Free space or delete clips; nothing was saved.`, {
        cause: err,
      });
    }
    if (err instanceof StoreError) throw err;
    throw new StoreError('failed', `Could not save the ${source} layers: ${reasonOf(err)}. Nothing was saved.`, { cause: err });
  }
}
