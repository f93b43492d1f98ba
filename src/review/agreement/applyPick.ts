/**
 * Writes a reviewer's pick (take A, take B, merge) into the gt of one frame through the editor's one
 * transaction (EditorSession.edit), so it undoes and redoes like a stroke and is stored as one
 * revision whose author is the editor's user and whose action names the pick and both sources.
 */
import type { LabelMap } from '../../masks/labelMap';
import type { EditorSession, EditOutcome } from '../../annotator/session/editorSession';
import type { LayerSource } from '../../store/types';
import { resolveFrame, resolutionAction, type Resolution } from './resolve';

/** The two sides of a pick; gt's map is left out, since gt is read as the editor holds it at the moment of the edit. */
export interface PickSides {
  a: { source: LayerSource; map?: LabelMap };
  b: { source: LayerSource; map?: LabelMap };
}

/** Applies the resolution to gt of frame `frameIndex` (shown or not): one undo step, or 'unchanged'. */
export function applyPick(session: Pick<EditorSession, 'edit'>, frameIndex: number, sides: PickSides, resolution: Resolution): Promise<EditOutcome> {
  const side = (s: PickSides['a'], gt: LabelMap): LabelMap => {
    if (s.source === 'gt') return gt;
    if (!s.map) throw new Error(`the pick has no mask for ${s.source}`);
    return s.map;
  };
  return session.edit(frameIndex, resolutionAction(resolution, sides.a.source, sides.b.source), (gt) => resolveFrame(side(sides.a, gt), side(sides.b, gt), resolution).data);
}
