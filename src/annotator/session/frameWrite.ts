/**
 * What the session writes for one frame: its whole layer as it is now (masks, instance tags and
 * relations) plus the revision of the change, if the pixels or the relations changed. Pure: the
 * write-behind queue stores it.
 */
import type { FrameEdits } from '../../store/layers';
import type { LayerInput, LayerObject, LayerRelation, LayerSource, RevisionInput } from '../../store/types';
import type { LabelMap } from '../../masks/labelMap';
import type { PendingWrite } from '../persistQueue';
import { STATE_CODEC, type PixelCodec } from '../pixelCodec';
import { relationFields } from '../revisionPatch';
import { relationsOnFrame, sameRelations } from '../../objects/relations';
import type { InstanceTag } from '../instances';
import type { Patch } from '../patch';

export type FrameWrite = PendingWrite<LayerInput, RevisionInput>;

export interface FrameWriteResult {
  write: FrameWrite;
  /**
   * The change as the history should hold it: `patch`, plus the relations it dropped (a relation
   * whose end lost its place on the frame), so undo brings them back. Null when `patch` was.
   */
  patch: Patch | null;
  /** The frame's objects and relations as written. */
  objects: LayerObject[];
  relations: LayerRelation[];
}

export interface FrameWriteOf {
  clipId: string;
  source: LayerSource;
  frameIndex: number;
  map: LabelMap;
  tags: InstanceTag[];
  /** The change's patch (one revision), or null when only the tags changed. */
  patch: Patch | null;
  /** The map's encoding (pixelCodec.ts); the states encoding when absent. */
  codec?: PixelCodec;
  /** The frame's objects before the change (their per-frame facts are kept). */
  objects?: readonly LayerObject[];
  /** Sets the objects' per-frame facts after the pixels (EditOptions.objects). */
  facts?: (objects: readonly LayerObject[]) => LayerObject[];
  /** The frame's relations before the change; a patch's own relation change (a contact answer) replaces them. */
  relations?: readonly LayerRelation[];
  author: string;
  at: number;
}

export function frameWrite({ clipId, source, frameIndex, map, tags, patch, author, at, codec = STATE_CODEC, objects, facts, relations = [] }: FrameWriteOf): FrameWriteResult {
  const pixels = codec.layerOf(map, objects);
  if (facts) pixels.objects = facts(pixels.objects ?? []);
  const objectsAfter = pixels.objects ?? [];
  // Every writer keeps the frame's relations; one whose end no longer has a place here is dropped
  // with the change that took the place (docs/objects.md "Relations in the editor").
  const wanted = patch?.relations ? patch.relations.after : relations;
  const kept = relationsOnFrame(wanted, objectsAfter);
  let change = patch;
  if (patch && !sameRelations(kept, wanted)) change = { ...patch, relations: { before: patch.relations?.before ?? [...relations], after: kept } };
  const revisions = change ? [{ ...codec.toRevision(change), ...relationFields(change), clipId, source, author, at }] : [];
  const write: FrameWrite = {
    clipId,
    frameIndex,
    source,
    layer: {
      clipId,
      frameIndex,
      source,
      ...pixels,
      ...(tags.length > 0 ? { instances: { tags } } : {}),
      ...(kept.length > 0 ? { relations: kept } : {}),
      provenance: { kind: 'manual', by: author, at },
    },
    revisions,
  };
  return { write, patch: change, objects: objectsAfter, relations: kept };
}

/** A queued write as the store's saveFrameEdits takes it. */
export function toFrameEdits(w: FrameWrite): FrameEdits {
  return { layer: w.layer, revisions: w.revisions, ...(w.drafts ? { drafts: w.drafts } : {}) };
}
