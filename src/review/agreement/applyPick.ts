/**
 * Writes a reviewer's pick (take A, take B, merge) into the gt of the frame the editor shows, as ONE
 * patch through the editor session's tool context — the path the SAM tool commits through — so it
 * undoes and redoes like a stroke and is stored as one revision whose author is the editor's user
 * and whose action names the pick and both sources.
 */
import type { LabelMap } from '../../masks/labelMap';
import type { Patch } from '../../annotator/patch';
import type { ToolContext } from '../../annotator/tools/types';
import { replaceFrame } from '../../annotator/frameOps';
import type { LayerSource } from '../../store/types';
import { resolveFrame, resolutionAction, type Resolution } from './resolve';

export interface PickSides {
  a: { source: LayerSource; map: LabelMap };
  b: { source: LayerSource; map: LabelMap };
}

/**
 * Applies the resolution to `ctx.map` (the frame `frameIndex`) and commits it. Returns the patch,
 * or null when gt already held the result. Throws when the editor moved to another frame.
 */
export function applyPick(ctx: Pick<ToolContext, 'map' | 'frameIndex' | 'commit' | 'invalidate'>, frameIndex: number, sides: PickSides, resolution: Resolution): Patch | null {
  if (ctx.frameIndex !== frameIndex) throw new Error(`the editor shows frame ${ctx.frameIndex + 1}, not ${frameIndex + 1}; nothing was changed`);
  const next = resolveFrame(sides.a.map, sides.b.map, resolution);
  const patch = replaceFrame(ctx.map, frameIndex, next.data, resolutionAction(resolution, sides.a.source, sides.b.source));
  if (!patch) return null;
  ctx.commit(patch);
  ctx.invalidate(patch.box);
  return patch;
}
