/** The rooms' drawings on the editor canvas, each at its declared z (docs/architecture.md, "Canvas overlays"). */
import type { CanvasOverlay } from '../../annotator/ui/canvasOverlays';
import { ASSIST_OVERLAYS } from '../../inference/ui/assistOverlays';
import { REVIEW_OVERLAYS } from '../../review/ui/overlays/reviewOverlays';

export const ROOM_OVERLAYS: readonly CanvasOverlay[] = [...REVIEW_OVERLAYS, ...ASSIST_OVERLAYS];
