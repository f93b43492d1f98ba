/**
 * What the session writes for one frame: its whole layer as it is now (masks and instance tags)
 * plus the revision of the change, if the pixels changed. Pure: the write-behind queue stores it.
 */
import type { FrameEdits } from '../../store/layers';
import type { LayerInput, LayerObject, LayerSource, RevisionInput } from '../../store/types';
import type { LabelMap } from '../../masks/labelMap';
import type { PendingWrite } from '../persistQueue';
import { STATE_CODEC, type PixelCodec } from '../pixelCodec';
import type { InstanceTag } from '../instances';
import type { Patch } from '../patch';

export type FrameWrite = PendingWrite<LayerInput, RevisionInput>;

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
  author: string;
  at: number;
}

export function frameWrite({ clipId, source, frameIndex, map, tags, patch, author, at, codec = STATE_CODEC, objects, facts }: FrameWriteOf): FrameWrite {
  const revisions = patch ? [{ ...codec.toRevision(patch), clipId, source, author, at }] : [];
  const pixels = codec.layerOf(map, objects);
  if (facts) pixels.objects = facts(pixels.objects ?? []);
  return {
    clipId,
    frameIndex,
    source,
    layer: {
      clipId,
      frameIndex,
      source,
      ...pixels,
      ...(tags.length > 0 ? { instances: { tags } } : {}),
      provenance: { kind: 'manual', by: author, at },
    },
    revisions,
  };
}

/** A queued write as the store's saveFrameEdits takes it. */
export function toFrameEdits(w: FrameWrite): FrameEdits {
  return { layer: w.layer, revisions: w.revisions, ...(w.drafts ? { drafts: w.drafts } : {}) };
}
