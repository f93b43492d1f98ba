/**
 * Patch <-> the stored revision shape: the box plus its before/after pixels as COCO RLE.
 *
 * COCO RLE is binary but a patch holds three labels (0, 1, 2), so each side is two box-sized RLEs:
 *   before / after       = the pixels that are nonzero (the object's footprint, actionable or transformed)
 *   beforeTrf / afterTrf = the pixels equal to 2 (transformed), always a subset of the footprint
 * and a pixel decodes as footprint + trf (0, 1 or 2). Why this split and not act + trf:
 *   - `before`/`after` keep their meaning on their own: any reader that knows only those fields
 *     (pycocotools, a diff view, the store's validation of box-sized masks) sees the object's
 *     outline before and after, which is the useful binary summary of an edit;
 *   - a revision without the trf fields (a binary mask from elsewhere) reads as "nonzero is
 *     actionable", the natural default;
 *   - every RLE is plain COCO (`size: [box.h, box.w]`, column-major, pycocotools-exact).
 * The store's Revision type has only before/after today; the two trf fields are extra, optional
 * properties that it stores as they are (see the note at RevisionPixels).
 */
import { encodeCountsWhere, makeRle, NONZERO, onTableFor } from '../masks/rle';
import { checkRevisionBox, decodeRevisionSide } from '../masks/revisionPixels';
import type { LayerRelation, Rle, RevisionBox, RevisionObject } from '../store/types';
import type { Patch } from './patch';

/**
 * The pixel part of a revision. A store `Revision` without the trf fields is assignable to it;
 * `{ ...patchToRevision(patch), clipId, source, author, at }` is a RevisionInput plus the trf
 * fields, which the store should declare (`beforeTrf?: Rle; afterTrf?: Rle`) and validate like
 * before/after (size [box.h, box.w], and inside the footprint).
 */
export interface RevisionPixels {
  frameIndex: number;
  box: RevisionBox;
  action: string;
  /** Nonzero pixels of the box before the change. */
  before: Rle;
  /** Nonzero pixels of the box after the change. */
  after: Rle;
  /** Pixels equal to 2 before the change (absent: none). */
  beforeTrf?: Rle;
  /** Pixels equal to 2 after the change (absent: none). */
  afterTrf?: Rle;
  /** Owners of the box before and after, in objects projects (annotator/pixelCodec.ts); both or neither. */
  objectsBefore?: RevisionObject[];
  objectsAfter?: RevisionObject[];
  /** The frame's whole relation list before and after, when the step changed it (patch.ts RelationsChange); both or neither. */
  relationsBefore?: LayerRelation[];
  relationsAfter?: LayerRelation[];
}

/** A patch's relation change as revision fields (none when the relations stayed). */
export function relationFields(patch: Patch): Pick<RevisionPixels, 'relationsBefore' | 'relationsAfter'> {
  return patch.relations ? { relationsBefore: patch.relations.before, relationsAfter: patch.relations.after } : {};
}

const TRANSFORMED = onTableFor(2);

/** Encodes a patch for storage. Refuses labels other than 0, 1, 2, which the encoding cannot hold. */
export function patchToRevision(patch: Patch): RevisionPixels {
  const { box } = patch;
  return {
    frameIndex: patch.frameIndex,
    box: { ...box },
    action: patch.action,
    before: encodeSide(patch.before, box, 'before'),
    after: encodeSide(patch.after, box, 'after'),
    beforeTrf: makeRle(encodeCountsWhere(patch.before, box.h, box.w, TRANSFORMED), box.h, box.w),
    afterTrf: makeRle(encodeCountsWhere(patch.after, box.h, box.w, TRANSFORMED), box.h, box.w),
  };
}

/**
 * Decodes a stored revision back into a patch. Throws MaskFormatError when an RLE is malformed,
 * is not box-sized, or marks a transformed pixel outside the footprint.
 */
export function revisionToPatch(rev: RevisionPixels): Patch {
  const { box } = rev;
  checkRevisionBox(box);
  return {
    frameIndex: rev.frameIndex,
    box: { x: box.x, y: box.y, w: box.w, h: box.h },
    action: rev.action,
    before: decodeRevisionSide(rev.before, rev.beforeTrf, box, 'before'),
    after: decodeRevisionSide(rev.after, rev.afterTrf, box, 'after'),
  };
}

function encodeSide(pixels: Uint8Array, box: RevisionBox, side: string): Rle {
  for (let i = 0; i < pixels.length; i++) {
    if (pixels[i] > 2) {
      throw new RangeError(
        `patch ${side} holds label ${pixels[i]} at (x=${box.x + (i % box.w)}, y=${box.y + Math.floor(i / box.w)}); revisions store only 0, 1 and 2`,
      );
    }
  }
  return makeRle(encodeCountsWhere(pixels, box.h, box.w, NONZERO), box.h, box.w);
}
