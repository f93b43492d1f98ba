/**
 * Pure logic of the editor's proposals mode: what a shown proposal is, its Eq. 1 label under the
 * current thresholds (recomputed live, no model re-run), its outline colour, which proposal is
 * under the pointer, and the label map after accepting one into gt.
 */
import type { LabelMap } from '../../../masks/labelMap';
import { paintTable } from '../../../annotator/paint/paintRule';
import type { CroppedMask } from '../../spoc/croppedMask';
import { labelProposal, type Eq1Params, type ProposalState } from '../../spoc/eq1';

/** One proposal shown over the frame: a SAM grid mask (with CLIP scores when a CLIP model ran) or a proposal-layer region. */
export interface ShownProposal {
  mask: CroppedMask;
  /** SAM's predicted IoU; null for proposal-layer regions. */
  samIou: number | null;
  /** CLIP similarities to the actionable / transformed prompts; null without CLIP. */
  sAct: number | null;
  sTrf: number | null;
  /** A fixed label (proposal-layer regions); otherwise Eq. 1 on the scores decides. */
  fixed?: 'actionable' | 'transformed';
}

export type ProposalLabel = ProposalState | 'unlabelled';

export function labelOf(p: ShownProposal, params: Eq1Params): ProposalLabel {
  if (p.fixed) return p.fixed;
  if (p.sAct === null || p.sTrf === null) return 'unlabelled';
  return labelProposal(p.sAct, p.sTrf, params);
}

/** Outline colours: actionable red-ish, transformed green-ish, ambiguous amber, background grey, unlabelled white. */
export const LABEL_COLOURS: Readonly<Record<ProposalLabel, string>> = {
  actionable: '#f87171',
  transformed: '#4ade80',
  ambiguous: '#fbbf24',
  background: '#9ca3af',
  unlabelled: '#ffffff',
};

/**
 * The gt class an accepted proposal is written as: its own state when Eq. 1 gave one, else the
 * class being painted (null when that is the eraser: nothing sensible to write).
 */
export function classForAccept(label: ProposalLabel, activeClass: number): 1 | 2 | null {
  if (label === 'actionable') return 1;
  if (label === 'transformed') return 2;
  return activeClass === 1 || activeClass === 2 ? activeClass : null;
}

function covers(mask: CroppedMask, x: number, y: number): boolean {
  const { box } = mask;
  if (x < box.x || y < box.y || x >= box.x + box.w || y >= box.y + box.h) return false;
  return mask.data[(y - box.y) * box.w + (x - box.x)] !== 0;
}

/**
 * The proposal under image pixel (x, y): the smallest one covering it, so nested proposals (the
 * peeled part inside the whole fruit) stay reachable; ties go to the earlier one. null if none.
 * `skip` hides proposals (e.g. background ones the user chose not to show).
 */
export function proposalAt(items: readonly ShownProposal[], x: number, y: number, skip?: (i: number) => boolean): number | null {
  const px = Math.floor(x);
  const py = Math.floor(y);
  let best: number | null = null;
  for (let i = 0; i < items.length; i++) {
    if (skip?.(i) || !covers(items[i].mask, px, py)) continue;
    if (best === null || items[i].mask.area < items[best].mask.area) best = i;
  }
  return best;
}

/**
 * The label map data after writing `mask` as class `cls` (a new array; `map` is unchanged). Only
 * adds: the "protect other class" rule (paintTable) decides which labelled pixels may change.
 */
export function applyProposalMask(map: LabelMap, mask: CroppedMask, cls: 1 | 2, protect: boolean): Uint8Array {
  if (mask.frameWidth !== map.width || mask.frameHeight !== map.height) {
    throw new RangeError(`proposal is for a ${mask.frameWidth}x${mask.frameHeight} frame, not ${map.width}x${map.height}`);
  }
  const next = map.data.slice();
  const table = paintTable(cls, protect);
  const { x, y, w, h } = mask.box;
  for (let j = 0; j < h; j++) {
    const row = (y + j) * map.width + x;
    for (let k = 0; k < w; k++) if (mask.data[j * w + k]) next[row + k] = table[next[row + k]];
  }
  return next;
}

/** Tab order: next (dir 1) or previous visible index from `current` (null: the first / last visible). */
export function cycleIndex(count: number, current: number | null, dir: 1 | -1, visible: (i: number) => boolean = () => true): number | null {
  if (count === 0) return null;
  let i = current ?? (dir > 0 ? -1 : count);
  for (let step = 0; step < count; step++) {
    i = (i + dir + count) % count;
    if (visible(i)) return i;
  }
  return null;
}
