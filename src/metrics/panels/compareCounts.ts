/**
 * Shortcuts and read-outs for the compare and project panels. Pure.
 *
 * Stored layers hold only labels 0, 1 and 2 (no excluded pixels), so when one side of a frame is
 * empty its counts follow from the areas alone: nothing intersects, and the union of each state is
 * the other side's area. Most frames of a partly annotated clip are like that, and they need no
 * decoding at all; `countFrame` runs only where both sides have pixels.
 */
import type { StateAreas } from '../progress';
import type { FrameCounts } from '../spoc';

/**
 * Exact counts when the GT or the prediction (null = missing, scored as empty) has no pixel;
 * null when both have pixels and the masks must be compared.
 */
export function countsFromAreas(gt: StateAreas, pred: StateAreas | null): FrameCounts | null {
  const p = pred ?? { act: 0, trf: 0 };
  if (gt.act + gt.trf > 0 && p.act + p.trf > 0) return null;
  return {
    iAct: 0,
    uAct: gt.act + p.act,
    iTrf: 0,
    uTrf: gt.trf + p.trf,
    iObj: 0,
    uObj: gt.act + gt.trf + p.act + p.trf,
  };
}

export interface FrameIoUs {
  act: number;
  trf: number;
  /** Fused object ("w/o OSC"). */
  obj: number;
}

/** I/U per state; NaN when U = 0 (the state is absent from both) or the frame is not counted. */
export function frameIoUs(c: FrameCounts | null | undefined): FrameIoUs {
  if (!c) return { act: NaN, trf: NaN, obj: NaN };
  return {
    act: c.uAct > 0 ? c.iAct / c.uAct : NaN,
    trf: c.uTrf > 0 ? c.iTrf / c.uTrf : NaN,
    obj: c.uObj > 0 ? c.iObj / c.uObj : NaN,
  };
}
