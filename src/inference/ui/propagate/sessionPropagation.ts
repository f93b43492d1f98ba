/**
 * Propagation meets the editor session: a propagated map is written onto frame t+1 as ONE edit
 * (EditorSession.edit: undoable, persisted with a revision like a brush stroke), whether or not the
 * editor shows that frame, so a run of many frames never drives the view frame by frame. The
 * revision's action names the method ('propagate-sam', 'propagate-flow'): revisions carry no
 * provenance field, so the action is where "this came from propagation" lives.
 */
import type { EditorSession } from '../../../annotator/session/editorSession';
import type { LabelMap } from '../../../masks/labelMap';
import { mergeIntoExisting, type MergeMode } from '../../propagate/combine';
import { mergeTags } from '../../propagate/tags';
import type { PropagationResult } from '../../propagate/propagateFrame';

/**
 * Writes the propagated map onto frame result.to ('replace' or 'fill', see mergeIntoExisting), its
 * instance tags with it (after the pixels, so the seeds lie on them). Returns the frame's map as
 * stored afterwards (a copy), the input of a following step.
 */
export async function writePropagated(session: EditorSession, result: PropagationResult, mode: MergeMode): Promise<LabelMap> {
  const outcome = await session.edit(result.to, `propagate-${result.method}`, (map) => mergeIntoExisting(map, result.map, mode), {
    tags: (current) => mergeTags(current, result.tags, mode),
  });
  if (outcome.status === 'refused') throw new Error(outcome.reason);
  const map = await session.loadMap(result.to);
  return { width: map.width, height: map.height, data: map.data.slice() };
}
