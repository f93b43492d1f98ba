/**
 * Reviewer mode's UI state, shared by its header toggle, canvas overlay and strip. Whether the mode
 * is on is kept in localStorage, so a reload does not drop the reviewer out of it (leaving the clip
 * still turns it off: ReviewerOverlay).
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { FrameReviewDiff } from '../annotatorVersionLoader';

export interface ReviewerState {
  /** Reviewer mode: the verdict strip and keys (J / Shift+J, A, R) are active. */
  on: boolean;
  /** Show the annotator's version of the frame (read-only) instead of the current gt. */
  showAnnotator: boolean;
  /** Draw what the reviewer added and removed over the frame. */
  showDiff: boolean;
  /** Diff classes left out of the overlay (keys of DIFF_BITS). */
  diffHidden: readonly string[];
  /** The frame whose rejection note is being asked for. */
  rejecting: number | null;
  /** The shown frame's annotator's version and diff, as the reviewer panel loaded them (null: none). */
  review: FrameReviewDiff | null;
  set: (patch: Partial<Omit<ReviewerState, 'set'>>) => void;
}

export const useReviewer = create<ReviewerState>()(
  persist(
    (set) => ({
      on: false,
      showAnnotator: false,
      showDiff: false,
      diffHidden: [],
      rejecting: null,
      review: null,
      set: (patch) => set(patch),
    }),
    {
      name: 'spoc-reviewer-mode',
      partialize: ({ on }) => ({ on }),
      // Back on after a reload with the diff showing, as the toggle turns it on.
      merge: (stored, current) => ((stored as { on?: unknown } | undefined)?.on === true ? { ...current, on: true, showDiff: true } : current),
    },
  ),
);
