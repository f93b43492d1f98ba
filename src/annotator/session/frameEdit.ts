/**
 * The pure step of a whole-frame edit (docs/architecture.md, "One transaction"): compute the frame's
 * next labels, diff them into one patch applied to the map, and work out the frame's next instance
 * tags. The session decides whether the edit may run and commits what this returns.
 */
import type { LabelMap } from '../../masks/labelMap';
import { labelsPatch } from '../frameOps';
import { parseInstanceTags, type InstanceTag } from '../instances';
import type { Patch } from '../patch';
import type { LayerRelation } from '../../store/types';
import type { EditOptions, FrameCompute } from './sessionTypes';

export interface FrameChange {
  /** The pixels' change, already applied to the map, or null when the pixels stay. */
  patch: Patch | null;
  /** The frame's next tags, or null when they stay. */
  tags: InstanceTag[] | null;
}

/** Applies `compute` to `map`; null when neither the pixels nor the tags change. */
export function frameChange(
  frameIndex: number,
  map: LabelMap,
  action: string,
  compute: FrameCompute,
  tagsBefore: readonly InstanceTag[],
  options: EditOptions,
): FrameChange | null {
  const next = compute(map);
  const patch = next ? labelsPatch(map, next, frameIndex, action) : null;
  const tagsAfter = options.tags ? parseInstanceTags({ tags: options.tags(tagsBefore, map) }) : null;
  const tagsChanged = tagsAfter !== null && JSON.stringify(tagsAfter) !== JSON.stringify(tagsBefore);
  if (!patch && !tagsChanged) return null;
  return { patch, tags: tagsChanged ? tagsAfter : null };
}

/**
 * A step that changes only the frame's relations (a contact answer): its box is the frame's first
 * pixel, unchanged, so it is an ordinary revision every reader of the log understands (no pixel
 * moves), and the relations ride along (docs/objects.md "Relations in the editor").
 */
export function relationsStep(frameIndex: number, map: LabelMap, action: string, before: LayerRelation[], after: LayerRelation[]): Patch {
  const pixel = map.data.slice(0, 1);
  return { frameIndex, box: { x: 0, y: 0, w: 1, h: 1 }, before: pixel, after: pixel.slice(), action, relations: { before, after } };
}
