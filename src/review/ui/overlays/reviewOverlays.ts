/** Review's canvas overlays; their z among every room's: docs/architecture.md, "Canvas overlays". */
import type { CanvasOverlay } from '../../../annotator/ui/canvasOverlays';
import { CommentPinsOverlay } from './CommentPinsOverlay';
import { FlagFocusOverlay } from './FlagFocusOverlay';
import { ReviewImageOverlay } from './ReviewImageOverlay';
import { ReviewerImageOverlay } from './ReviewerImageOverlay';

export const REVIEW_OVERLAYS: readonly CanvasOverlay[] = [
  // Lowest: images that stand in for or sit on the masks, under every mark.
  { id: 'review-image', z: 10, Component: ReviewImageOverlay },
  { id: 'reviewer-image', z: 20, Component: ReviewerImageOverlay },
  { id: 'comment-pins', z: 70, Component: CommentPinsOverlay },
  { id: 'flag-focus', z: 80, Component: FlagFocusOverlay },
];
