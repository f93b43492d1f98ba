/**
 * What the session writes for one frame: its whole layer as it is now (masks and instance tags)
 * plus the revision of the change, if the pixels changed. Pure: the write-behind queue stores it.
 */
import type { FrameEdits } from '../../store/layers';
import type { LayerInput, LayerSource, RevisionInput } from '../../store/types';
import type { LabelMap } from '../../masks/labelMap';
import { encodeLayer } from '../../masks/layers';
import type { PendingWrite } from '../persistQueue';
import { patchToRevision } from '../revisionPatch';
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
  author: string;
  at: number;
}

export function frameWrite({ clipId, source, frameIndex, map, tags, patch, author, at }: FrameWriteOf): FrameWrite {
  const revisions = patch ? [{ ...patchToRevision(patch), clipId, source, author, at }] : [];
  const { act, trf } = encodeLayer(map);
  return {
    clipId,
    frameIndex,
    source,
    layer: {
      clipId,
      frameIndex,
      source,
      act,
      trf,
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
