import type { SpocDb } from './db';
import { StoreError, notFound } from './errors';
import { clipLayers, frameLayers, sourceAreaKeys, sourceLayers } from './keys';
import { appendRevisionRow } from './revisions';
import { touchClip, touchTables } from './touch';
import type { Clip, Layer, LayerInput, LayerSource, Revision, RevisionInput } from './types';
import { Dexie } from 'dexie';
import { draftKeys, type GestureDraftRef } from './gestureDrafts';
import { buildLayer, checkRevision } from './validate';

export async function getLayer(
  db: SpocDb,
  clipId: string,
  source: LayerSource,
  frameIndex: number,
): Promise<Layer | undefined> {
  return db.layers.get([clipId, source, frameIndex]);
}

/** All layers of one source of a clip, ordered by frame (loads RLE; for areas use layerAreas). */
export async function listLayers(db: SpocDb, clipId: string, source: LayerSource): Promise<Layer[]> {
  return sourceLayers(db, clipId, source).toArray();
}

/** Every source's layer of one frame, e.g. for a ground truth vs prediction view. */
export async function listFrameLayers(db: SpocDb, clipId: string, frameIndex: number): Promise<Layer[]> {
  return frameLayers(db, clipId, frameIndex).toArray();
}

export interface LayerAreas {
  frameIndex: number;
  actArea: number;
  trfArea: number;
}

/** Per-frame areas of one source, read from index keys only: no layer row (and no RLE) is loaded. */
export async function layerAreas(db: SpocDb, clipId: string, source: LayerSource): Promise<LayerAreas[]> {
  const keys = (await sourceAreaKeys(db, clipId, source).keys()) as unknown as [string, string, number, number, number][];
  return keys.map(([, , frameIndex, actArea, trfArea]) => ({ frameIndex, actArea, trfArea }));
}

/** Which sources a clip has layers for (gt, proposal, pred:...), e.g. to list predictions to compare. */
export async function listLayerSources(db: SpocDb, clipId: string): Promise<LayerSource[]> {
  const keys = (await clipLayers(db, clipId).primaryKeys()) as [string, LayerSource, number][];
  return [...new Set(keys.map((k) => k[1]))];
}

/**
 * Writes one layer without history: for imports and assists (proposal, pred:*) whose history is their
 * provenance. Painting on gt goes through saveLayerEdit so that every change has a revision.
 */
export async function putLayer(db: SpocDb, input: LayerInput): Promise<Layer> {
  return db.transaction('rw', [db.layers, ...touchTables(db)], async () => {
    const clip = await db.clips.get(input.clipId);
    if (!clip) throw notFound('Clip');
    const now = Date.now();
    const layer = buildLayer(input, clip, now);
    await db.layers.put(layer);
    await touchClip(db, clip.id, now, false);
    return layer;
  });
}

/** Removes one source's layers from a clip (e.g. drop an imported prediction set). */
export async function deleteLayers(db: SpocDb, clipId: string, source: LayerSource): Promise<number> {
  return db.transaction('rw', [db.layers, ...touchTables(db)], async () => {
    const n = await sourceLayers(db, clipId, source).delete();
    if (n > 0) await touchClip(db, clipId, Date.now(), false);
    return n;
  });
}

export interface LayerEdit {
  layer: LayerInput;
  revision: RevisionInput;
}

/**
 * One committed edit: the new layer and the revision describing it, in one transaction, so the
 * history can never disagree with the layer (a crash leaves both or neither).
 */
export async function saveLayerEdit(db: SpocDb, edit: LayerEdit): Promise<{ layer: Layer; revision: Revision }> {
  const { layer: input, revision } = edit;
  if (
    revision.clipId !== input.clipId ||
    revision.frameIndex !== input.frameIndex ||
    revision.source !== input.source
  ) {
    throw new StoreError('invalid', 'The revision must describe the same clip, frame and source as the layer.');
  }
  return db.transaction('rw', [db.layers, db.revisions, ...touchTables(db)], async () => {
    const clip = await db.clips.get(input.clipId);
    if (!clip) throw notFound('Clip');
    const now = Date.now();
    const layer = buildLayer(input, clip, now);
    const row = checkRevision(revision, clip);
    await db.layers.put(layer);
    const stored = await appendRevisionRow(db, row);
    await touchClip(db, clip.id, now, input.source === 'gt');
    return { layer, revision: stored };
  });
}

/** One frame's pending editor writes: its latest layer and every revision since the last save. */
export interface FrameEdits {
  layer: LayerInput;
  revisions: RevisionInput[];
  /** Draft rows of the gestures these revisions finish: deleted in the same transaction (store/gestureDrafts.ts). */
  drafts?: GestureDraftRef[];
}

/**
 * The editor's batch: several frames' layers and their revisions in ONE transaction, so a retried
 * batch can never store a revision twice, and the history never disagrees with the layers.
 * Revisions are appended in the order given (their seq order is the undo order).
 *
 * With `clip` (the editor knows the clip it edits) the transaction only writes: every write is
 * issued in the same tick, nothing is read first, and the transaction is committed explicitly, so
 * it can commit even if the page goes away right after pointer-up (a read round trip before the
 * writes was enough to lose strokes on reload or tab close: docs/durability.md). The clip's
 * `updatedAt` bump (and todo → in progress) then follows in a transaction of its own.
 */
export async function saveFrameEdits(db: SpocDb, batch: readonly FrameEdits[], known?: { clip: Clip }): Promise<void> {
  if (known) return saveKnownClipEdits(db, batch, known.clip);
  for (const { layer, revisions } of batch) {
    for (const r of revisions) {
      if (r.clipId !== layer.clipId || r.frameIndex !== layer.frameIndex || r.source !== layer.source) {
        throw new StoreError('invalid', 'Every revision must describe the same clip, frame and source as its layer.');
      }
    }
  }
  const drafts = draftKeys(batch.flatMap((e) => e.drafts ?? []));
  await db.transaction('rw', [db.layers, db.revisions, db.gestureDrafts, ...touchTables(db)], async () => {
    if (drafts.length > 0) await db.gestureDrafts.bulkDelete(drafts);
    const now = Date.now();
    const touched = new Map<string, boolean>();
    for (const { layer: input, revisions } of batch) {
      const clip = await db.clips.get(input.clipId);
      if (!clip) throw notFound('Clip');
      await db.layers.put(buildLayer(input, clip, now));
      for (const r of revisions) await appendRevisionRow(db, checkRevision(r, clip));
      touched.set(clip.id, (touched.get(clip.id) ?? false) || input.source === 'gt');
    }
    for (const [clipId, gt] of touched) await touchClip(db, clipId, now, gt);
  });
}

async function saveKnownClipEdits(db: SpocDb, batch: readonly FrameEdits[], clip: Clip): Promise<void> {
  const now = Date.now();
  // Everything is checked and built before the transaction: nothing may throw halfway through it.
  const layers: Layer[] = [];
  const revisions: RevisionInput[] = [];
  let gt = false;
  for (const { layer, revisions: revs } of batch) {
    if (layer.clipId !== clip.id) throw new StoreError('invalid', 'Every layer of the batch must belong to the clip being edited.');
    layers.push(buildLayer(layer, clip, now));
    for (const r of revs) {
      if (r.clipId !== layer.clipId || r.frameIndex !== layer.frameIndex || r.source !== layer.source) {
        throw new StoreError('invalid', 'Every revision must describe the same clip, frame and source as its layer.');
      }
      revisions.push(checkRevision(r, clip));
    }
    gt ||= layer.source === 'gt';
  }
  const drafts = draftKeys(batch.flatMap((e) => e.drafts ?? []));
  await db.transaction('rw', drafts.length > 0 ? [db.layers, db.revisions, db.gestureDrafts] : [db.layers, db.revisions], () => {
    const writes: Promise<unknown>[] = [db.layers.bulkPut(layers)];
    for (const r of revisions) writes.push(appendRevisionRow(db, r));
    // The gestures' draft rows go with their commit: both land, or neither.
    if (drafts.length > 0) writes.push(db.gestureDrafts.bulkDelete(drafts));
    // Nothing more will be asked of this transaction: let it commit now, not after a round trip.
    (Dexie.currentTransaction?.idbtrans as (IDBTransaction & { commit?: () => void }) | undefined)?.commit?.();
    return Promise.all(writes);
  });
  // The clip's "last changed" (and todo -> in progress): useful, not worth delaying the commit for.
  await db.transaction('rw', touchTables(db), () => touchClip(db, clip.id, now, gt)).catch((err: unknown) => {
    console.warn('Could not update the clip after saving an edit', err);
  });
}
