/**
 * One frame's proposal label map from labelled proposals.
 *
 * Only actionable (1) and transformed (2) proposals are painted; background and proposals still
 * ambiguous after the dynamics constraints leave their pixels alone (0 unless another proposal
 * paints them). Overlaps: proposals are painted largest area first, so a smaller mask lying on a
 * larger one wins its pixels — the peeled flesh inside the unpeeled banana keeps its own state
 * rather than being swallowed by the whole fruit. Equal areas: the higher SAM score is painted
 * last (wins), then the lower proposal index.
 */
import { LABEL, createLabelMap, type LabelMap } from '../../masks/labelMap';
import type { ProposalState } from '../spoc/eq1';
import type { CroppedMask } from '../spoc/croppedMask';

export interface PaintItem {
  mask: CroppedMask;
  state: ProposalState;
  score: number;
}

export function paintProposals(width: number, height: number, items: readonly PaintItem[]): LabelMap {
  const map = createLabelMap(width, height);
  const order = items
    .map((_, i) => i)
    .filter((i) => items[i].state === 'actionable' || items[i].state === 'transformed')
    .sort((a, b) => items[b].mask.area - items[a].mask.area || items[a].score - items[b].score || b - a);
  for (const i of order) {
    const { mask, state } = items[i];
    if (mask.frameWidth !== width || mask.frameHeight !== height) {
      throw new RangeError(`proposal mask is for a ${mask.frameWidth}x${mask.frameHeight} frame, not ${width}x${height}`);
    }
    const label = state === 'actionable' ? LABEL.actionable : LABEL.transformed;
    const { x, y, w, h } = mask.box;
    for (let j = 0; j < h; j++) {
      const row = (y + j) * width + x;
      for (let k = 0; k < w; k++) if (mask.data[j * w + k]) map.data[row + k] = label;
    }
  }
  return map;
}
