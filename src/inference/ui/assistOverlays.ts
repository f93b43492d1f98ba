/** AI assist's canvas overlays; their z among every room's: docs/architecture.md, "Canvas overlays". */
import type { CanvasOverlay } from '../../annotator/ui/canvasOverlays';
import { LabelPreviewOverlay } from './fallback/LabelPreviewOverlay';
import { ProposalOutlinesOverlay } from './proposals/ProposalOutlinesOverlay';
import { SamPreviewOverlay } from './SamPreviewOverlay';

export const ASSIST_OVERLAYS: readonly CanvasOverlay[] = [
  { id: 'label-preview', z: 30, Component: LabelPreviewOverlay },
  { id: 'proposal-outlines', z: 40, Component: ProposalOutlinesOverlay },
  { id: 'sam-preview', z: 50, Component: SamPreviewOverlay },
];
