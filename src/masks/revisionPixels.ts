/**
 * Decoding one side of a stored revision (docs/sync.md, annotator/revisionPatch.ts): the box's
 * nonzero pixels (`before` / `after`) plus, optionally, its transformed pixels (`beforeTrf` /
 * `afterTrf`), into the box's labels 0, 1, 2, row-major. Shared by the editor's undo history and the
 * replay that rebuilds a frame from its revisions (replayRevisions.ts).
 */
import { MaskFormatError } from './errors';
import type { Box } from './labelMap';
import { decodeCounts, parseCocoRle, rleCounts } from './rle';

/** A COCO RLE as stored (validated here, not trusted). */
export interface StoredRle {
  size: [number, number];
  counts: string;
}

/**
 * The labels of one side of a revision's box. Throws MaskFormatError when an RLE is malformed, is
 * not box-sized, or marks a transformed pixel outside the footprint. `side` names it in messages.
 */
export function decodeRevisionSide(footprint: StoredRle, trf: StoredRle | undefined, box: Box, side: string): Uint8Array {
  const fp = parseBoxRle(footprint, box, side);
  const out = decodeCounts(rleCounts(fp), box.h, box.w, 1);
  if (trf === undefined) return out;
  const t = decodeCounts(rleCounts(parseBoxRle(trf, box, `${side}Trf`)), box.h, box.w, 1);
  for (let i = 0; i < out.length; i++) {
    if (t[i] === 0) continue;
    if (out[i] === 0) {
      throw new MaskFormatError(
        `revision ${side}Trf marks (x=${box.x + (i % box.w)}, y=${box.y + Math.floor(i / box.w)}) transformed but ${side} leaves it background`,
      );
    }
    out[i] = 2;
  }
  return out;
}

/** Refuses a box that is not made of integers, is empty or starts left of / above the frame. */
export function checkRevisionBox(box: Box): void {
  if (![box.x, box.y, box.w, box.h].every(Number.isInteger) || box.w <= 0 || box.h <= 0 || box.x < 0 || box.y < 0) {
    throw new MaskFormatError(`revision box {x: ${box.x}, y: ${box.y}, w: ${box.w}, h: ${box.h}} is not a positive integer box`);
  }
}

function parseBoxRle(rle: StoredRle, box: Box, field: string) {
  const parsed = parseCocoRle(rle);
  const [h, w] = parsed.size;
  if (h !== box.h || w !== box.w) {
    throw new MaskFormatError(`revision ${field} is ${w}x${h} but its box is ${box.w}x${box.h}`);
  }
  return parsed;
}
