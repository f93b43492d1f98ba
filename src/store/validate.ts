import { RecordCheck, checkLayer, checkRevision as checkRevisionRow, type ClipShape } from './records';
import type { Layer, LayerInput, RevisionInput } from './types';

/*
 * The repositories' two hot checks, on the row validators of records/: everything that would make
 * a stored row lie (an area that disagrees with its RLE, a mask of the wrong size, a frame outside
 * the clip) is refused with a message a person can act on (StoreError 'invalid').
 */

export { isLayerSource, sourceVideoProblem } from './records';

/** Checks a layer against its clip and builds the row: areas computed from the RLE, `updatedAt` = now. */
export function buildLayer(input: LayerInput, clip: ClipShape, now: number): Layer {
  const check = new RecordCheck(`The ${String(input.source)} layer at frame index ${String(input.frameIndex)}`);
  return checkLayer(check, input, '', clip, 'input', now);
}

/** Checks a revision against its clip (source, frame, box inside the frame, box-sized patches); returns the row to append. */
export function checkRevision(rev: RevisionInput, clip: ClipShape): RevisionInput {
  const check = new RecordCheck(`The revision of the ${String(rev.source)} layer at frame index ${String(rev.frameIndex)}`);
  return checkRevisionRow(check, rev, '', clip, 'input');
}
