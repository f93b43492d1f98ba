/** Review UI state shared by the editor's review pieces (header bar, canvas overlay, side panel). */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { ErrorCounts } from '../errorMap';

export type OverlayMode = 'gt' | 'pred' | 'both' | 'error';

export interface ReviewUiState {
  /** The next click on the canvas places a comment. */
  placing: boolean;
  /** A placed point waiting for its text. */
  pending: { frameIndex: number; x: number; y: number } | null;
  /** The thread last picked in the list (highlighted on the canvas). */
  selected: string | null;
  /** The region of the flag last picked, outlined on its frame. */
  flagFocus: { frameIndex: number; box: { x: number; y: number; w: number; h: number } } | null;
  /**
   * The review side panel: shown, hidden, or (null) shown while the clip is under review. The
   * user's choice is kept per browser (like the other panels), the rest of this state is not.
   */
  panel: boolean | null;
  overlay: OverlayMode;
  /** The prediction source (`pred:<name>`) the overlay modes compare with. */
  predSource: `pred:${string}` | null;
  /** Error counts of the frame on show in the error map mode (computed by overlays/ReviewImageOverlay.tsx). */
  errors: { frameIndex: number; source: string; counts: ErrorCounts } | null;
  set: (patch: Partial<Omit<ReviewUiState, 'set'>>) => void;
}

export const useReviewUi = create<ReviewUiState>()(
  persist(
    (set) => ({
      placing: false,
      pending: null,
      selected: null,
      panel: null,
      flagFocus: null,
      errors: null,
      overlay: 'gt',
      predSource: null,
      set: (patch) => set(patch),
    }),
    {
      name: 'spoc-review-panel',
      partialize: ({ panel }) => ({ panel }),
      merge: (stored, current) => {
        const panel = (stored as { panel?: unknown } | null)?.panel;
        return { ...current, panel: typeof panel === 'boolean' ? panel : null };
      },
    },
  ),
);
