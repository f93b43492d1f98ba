/**
 * The proposals on show, as outlines, and the highlighted ones (hover, selection): written by the
 * proposals panel (Proposals.tsx, in the tool bar), drawn by ProposalOutlinesOverlay over the canvas.
 */
import { create } from 'zustand';
import type { Box } from '../../../masks/labelMap';

/** A binary mask cropped to its box (1 = inside), drawn as an outline in `colour` (#rrggbb). */
export interface OutlineItem {
  box: Box;
  data: Uint8Array;
  colour: string;
}

export interface ProposalOutlinesState {
  /** null: the proposals mode is off. */
  items: readonly OutlineItem[] | null;
  /** Indices into `items` drawn filled. */
  highlight: readonly number[];
}

export const useProposalOutlines = create<ProposalOutlinesState>()(() => ({ items: null, highlight: [] }));
