/**
 * What the review asks of the editor's gt masks, declared through the editor's `useMasksRequest`
 * slot rather than written into the view (docs/architecture.md, "One owner per UI fact"):
 * the prediction-only overlay modes and the annotator's version hide them, the others show them.
 * The user's toggle still works under each; switching view starts from what the view asks.
 */
import { useMemo } from 'react';
import type { MasksRequest } from '../../annotator/masksShown';
import { useReviewer } from './reviewerState';
import { useReviewUi, type OverlayMode } from './reviewUiState';

export interface ReviewView {
  overlay: OverlayMode;
  /** The prediction the overlay modes compare with; null: none, and the overlay shows gt. */
  predSource: string | null;
  /** Reviewer mode shows the annotator's version of the frame. */
  annotatorVersion: boolean;
}

/** The request of a review view. Pure. */
export function reviewMasksRequest({ overlay, predSource, annotatorVersion }: ReviewView): MasksRequest {
  const mode = `${overlay}:${predSource ?? '-'}`;
  // The annotator's version takes the gt masks' place.
  if (annotatorVersion) return { key: `annotator-version:${mode}`, visible: false };
  // The gt masks show in "GT only" and "both", and whenever there is no prediction to overlay.
  return { key: `overlay:${mode}`, visible: overlay === 'gt' || overlay === 'both' || predSource === null };
}

/** The review's request now (the editor's `useMasksRequest` slot). */
export function useReviewMasksRequest(): MasksRequest {
  const overlay = useReviewUi((s) => s.overlay);
  const predSource = useReviewUi((s) => s.predSource);
  const annotatorVersion = useReviewer((s) => s.on && s.showAnnotator);
  return useMemo(() => reviewMasksRequest({ overlay, predSource, annotatorVersion }), [overlay, predSource, annotatorVersion]);
}
