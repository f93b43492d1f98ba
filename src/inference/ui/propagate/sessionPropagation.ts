/**
 * Propagation meets the editor session: reading frames, and writing a propagated map onto frame
 * t+1 as ONE committed patch (undoable, persisted with a revision like a brush stroke). The session
 * commits only to the frame it shows, so writing goes to t+1 first — which is also what the user
 * wants to see next. The revision's action names the method ('propagate-sam', 'propagate-flow'):
 * revisions carry no provenance field, so the action is where "this came from propagation" lives.
 */
import type { EditorSession } from '../../../annotator/session/editorSession';
import { replaceFrame } from '../../../annotator/frameOps';
import type { LabelMap } from '../../../masks/labelMap';
import { mergeIntoExisting, type MergeMode } from '../../propagate/combine';
import { mergeTags } from '../../propagate/tags';
import type { PropagationResult } from '../../propagate/propagateFrame';

export class FrameMovedError extends Error {
  constructor(expected: number) {
    super(`the editor left frame ${expected + 1} before the propagated masks could be written`);
    this.name = 'FrameMovedError';
  }
}

/**
 * Shows frame result.to and commits the propagated map there ('replace' or 'fill', see
 * mergeIntoExisting). Returns the frame's map as stored afterwards (a copy), the input of a
 * following step.
 */
export async function writePropagated(
  session: EditorSession,
  goToFrame: (k: number) => void,
  result: PropagationResult,
  mode: MergeMode,
): Promise<LabelMap> {
  goToFrame(result.to);
  await session.goToFrame(result.to);
  const ctx = session.toolContext;
  if (ctx.frameIndex !== result.to) throw new FrameMovedError(result.to);
  if (session.snapshot.readOnly) throw new Error('this clip is open read-only: nothing was written');
  const next = mergeIntoExisting(ctx.map, result.map, mode);
  const patch = replaceFrame(ctx.map, result.to, next, `propagate-${result.method}`);
  if (patch) {
    ctx.commit(patch);
    ctx.invalidate(patch.box);
  }
  // Instance numbers travel with their regions (after the pixels, so the seeds lie on them).
  const tags = mergeTags(session.tags, result.tags, mode);
  if (tags.length > 0 || session.tags.length > 0) session.setTags(tags);
  return { width: ctx.map.width, height: ctx.map.height, data: ctx.map.data.slice() };
}
